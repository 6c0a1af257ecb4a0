#include <stdio.h>
double a[64];
__attribute__((noinline)) double f(int n) {
    double s = 14.0;
    for (int i = 0; i < n; i++)
        if (a[i] == -43.0) s = a[i] - 26.0;
    return s;
}
int main(void) {
    for (int i = 0; i < 64; i++) a[i] = i == 5 ? -43.0 : 0.0;
    printf("%g\n", f(64));
}
