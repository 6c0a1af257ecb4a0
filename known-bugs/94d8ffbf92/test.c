#include <stdio.h>
short out;
int arr[57];
int main(void) {
    for (unsigned i = 50; i != 0; i -= 2)   /* reads arr[50], arr[48], ..., arr[2] */
        out |= arr[i];
    printf("%d\n", out);                    /* 0 */
}
