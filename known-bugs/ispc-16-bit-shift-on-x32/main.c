#include <stdio.h>
int shl(int n);
int main(void) {
    int ns[] = {0, 1, 7, 8, 15, 16, 25, 30};
    for (int i = 0; i < 8; i++) printf("%d:%d ", ns[i], shl(ns[i]));
    printf("\n"); /* expected: 0:1 1:2 7:128 8:256 15:32768 16:65536 25:33554432 30:1073741824 */
    return 0;
}
