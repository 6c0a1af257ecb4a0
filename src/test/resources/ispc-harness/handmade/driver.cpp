#include <stdio.h>
#include "init.h"

uint32_t arr_1[64];
int32_t var_2;

int main() {
    for (int i = 0; i < 64; i++) arr_1[i] = (uint32_t)(i * 2654435761u);
    test(5);
    uint64_t h = 0;
    for (int i = 0; i < 64; i++) h = h * 1000003u + arr_1[i];
    h = h * 1000003u + (uint32_t)var_2;
    printf("%llu\n", (unsigned long long)h);
    return 0;
}
