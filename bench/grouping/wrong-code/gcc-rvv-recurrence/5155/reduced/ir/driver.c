/*
 * Reduced by yarpj reduce from seed 5155: the edits in edits.json
 */
#include <stdio.h>
#include "init.h"

unsigned long long arr_7[2][227];
int arr_11[225];
int out_14[225];
int out_24[5][226];

static void init(void) {
    for (int i0 = 0; i0 < 2; ++i0) {
        for (int i1 = 0; i1 < 227; ++i1) {
            arr_7[i0][i1] = 0ULL;
        }
    }
    for (int i0 = 0; i0 < 225; ++i0) {
        arr_11[i0] = (int)(62LL + ((long long)i0 * 188 + 6) % 18);
    }
    for (int i0 = 0; i0 < 225; ++i0) {
        out_14[i0] = 977106599;
    }
    for (int i0 = 0; i0 < 5; ++i0) {
        for (int i1 = 0; i1 < 226; ++i1) {
            out_24[i0][i1] = (-652519606);
        }
    }
}

static unsigned long long seed = 0;
static void hash(unsigned long long v) {
    seed ^= v + 0x9e3779b9ULL + (seed << 6) + (seed >> 2);
}

int main(void) {
    init();
    test(out_24);
    for (int i0 = 0; i0 < 225; ++i0) {
        hash(out_14[i0]);
    }
    for (int i0 = 0; i0 < 5; ++i0) {
        for (int i1 = 0; i1 < 226; ++i1) {
            hash(out_24[i0][i1]);
        }
    }
    printf("%llu\n", seed);
    return 0;
}
