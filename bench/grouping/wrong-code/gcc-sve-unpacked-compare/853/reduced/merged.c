#include <stdio.h>
unsigned int res = 4294967252U;
unsigned int arr[115];
__attribute__((noipa)) void test(void) {
    for (int i = 4; i != 59; i++)
        if (arr[i] <= 0U)
            res = 0U;
}
int main(void) {
    for (int i = 0; i < 115; ++i) arr[i] = 137 + (i * 941 + 2) % 26;
    test();
    printf("%u\n", res);   /* 4294967252: no arr[i] is 0 */
}
