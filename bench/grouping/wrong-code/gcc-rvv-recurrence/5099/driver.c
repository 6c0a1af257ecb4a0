/*
 * Reduced by yarpj reduce from seed 5099: the edits in edits.json
 */
#include <stdio.h>
#include "init.h"

unsigned int var_258 = 100U;
unsigned int res_261 = 137U;
unsigned int arr_260[100];
unsigned int out_262[100];

static void init(void) {
    for (int i0 = 0; i0 < 100; ++i0) {
        arr_260[i0] = (unsigned int)(132LL + ((long long)i0 * 620 + 30) % 32);
    }
    for (int i0 = 0; i0 < 100; ++i0) {
        out_262[i0] = 0U;
    }
}

static unsigned long long seed = 0;
static void hash(unsigned long long v) {
    seed ^= v + 0x9e3779b9ULL + (seed << 6) + (seed >> 2);
}

int main(void) {
    init();
    test();
    hash(res_261);
    for (int i0 = 0; i0 < 100; ++i0) {
        hash(out_262[i0]);
    }
    printf("%llu\n", seed);
    return 0;
}
