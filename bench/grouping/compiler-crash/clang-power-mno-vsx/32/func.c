// r4.c: -mcpu=power10 and power11
int printf(const char *, ...);
typedef long long v2 __attribute__((vector_size(16)));
v2 g(v2 v, long long x) { v[1] = x; return v; }
int main(void) {
    v2 v = {0};
    v = g(v, 7);
    printf("%lld\n", v[1]);
    return 0;
}
