#include <stdio.h>

int c = 1;
int r = 1;
char a[200];
_Bool b = 1;

void test(_Bool b) {
    for (int i = 0; i <= 64; i++)
        for (long j = 2; j < 175; j++)
            if (c && b)
                r &= a[j];
}

int main(void) {
    test(b);
    printf("%d\n", r);
    return 0;
}
