#include <stdio.h>
unsigned long long a[22], b[22], out[22], res;
int s[22], c[22];
__attribute__((noinline)) void test(unsigned long long *pa, int *ps) {
    unsigned long long t = 0;
    for (unsigned i = 0; i < 22; i++) {
        if (ps[i] == 135) continue;
        if (pa[i] < 110) t = b[i];
        out[i] = (unsigned long long)(long long)c[i];
    }
    res = t;
}
int main(void) {
    for (int i = 0; i < 22; i++) { a[i] = 109 + (i * 800 + 3) % 9; b[i] = 42 + (i * 48 + 14) % 26; s[i] = 72; c[i] = -39; }
    s[21] = 135;   /* the continue fires on the last iteration */
    test(a, s);
    printf("%llu\n", res);
    return 0;
}
