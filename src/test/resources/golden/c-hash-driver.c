/*
 * golden test
 */
#include <stdio.h>
#include "init.h"

int var_0 = 3;
int var_1 = 0;
long long var_2 = (-9223372036854775807LL - 1);
unsigned short res_3 = 0;
signed char arr_4[4];
unsigned int out_5[4][2];
int buf_9[6];

static void init(void) {
    for (int i0 = 0; i0 < 4; ++i0) {
        arr_4[i0] = (i0 % 2 == 0) ? (-7) : 5;
    }
    for (int i0 = 0; i0 < 4; ++i0) {
        for (int i1 = 0; i1 < 2; ++i1) {
            out_5[i0][i1] = 9U;
        }
    }
    for (int i0 = 0; i0 < 6; ++i0) {
        buf_9[i0] = 2;
    }
}

static unsigned long long seed = 0;
static void hash(unsigned long long v) {
    seed ^= v + 0x9e3779b9ULL + (seed << 6) + (seed >> 2);
}

int main(void) {
    init();
    test(var_0, arr_4, buf_9 + 2, buf_9);
    hash(res_3);
    for (int i0 = 0; i0 < 4; ++i0) {
        for (int i1 = 0; i1 < 2; ++i1) {
            hash(out_5[i0][i1]);
        }
    }
    for (int i0 = 0; i0 < 6; ++i0) {
        hash(buf_9[i0]);
    }
    printf("%llu\n", seed);
    return 0;
}
