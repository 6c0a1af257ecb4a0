#include <stdio.h>
int out[5][28];
unsigned short arr[29];
__attribute__((noipa)) void test(int (*o)[5][28], unsigned short *restrict a) {
    for (long long i = 1; i <= 26; i++)
        o[0][1][i] = a[i];
}
int main(void) {
    for (int i = 0; i < 29; i++) arr[i] = 100 + i;
    for (int r = 0; r < 5; r++) for (int i = 0; i < 28; i++) out[r][i] = -1;
    test(&out, arr);
    for (int i = 0; i < 28; i++) printf("%d ", out[1][i]);
    printf("\n");
    return 0;
}
