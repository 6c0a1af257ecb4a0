// r6.c: power9 (MTVSRZ), power10 and power11 (insert_vector_elt)
int printf(const char *, ...);
typedef signed char v16 __attribute__((vector_size(16)));
v16 g(v16 v, const signed char *p) { v[0] = *p; return v; }
int main(void) {
    v16 v = {0};
    signed char c = 7;
    v = g(v, &c);
    printf("%d\n", v[0]);
    return 0;
}
