#include <stdio.h>
void test(int *dst, int (*src)[22]);
static int src[8][22];
static int dst[8];
int main(void) {
    for (int i = 0; i < 8; i++) for (int j = 0; j < 22; j++) src[i][j] = i;
    test(dst, src);
    for (int i = 0; i < 5; i++) printf("%d ", dst[i]);
    printf("\n"); /* expected: 0 0 1 2 3 */
    return 0;
}
