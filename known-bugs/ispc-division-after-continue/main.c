#include <stdio.h>
void test(int *d, int *out, int n);
int main(void) {
    int d[64] = {0}, out[64] = {0};   /* no divisor is non-zero: no division may happen */
    test(d, out, 1);
    printf("%d\n", out[0]);           /* expected: 0 */
    return 0;
}
