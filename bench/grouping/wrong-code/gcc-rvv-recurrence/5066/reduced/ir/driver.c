/*
 * Reduced by yarpj reduce from seed 5066: the edits in edits.json
 */
#include <stdio.h>
#include "init.h"

short var_0 = 4;
long long arr_115[24];
long long out_118[24];

static void init(void) {
    for (int i0 = 0; i0 < 24; ++i0) {
        arr_115[i0] = (long long)((-29LL) + ((long long)i0 * 914 + 19) % 26);
    }
    for (int i0 = 0; i0 < 24; ++i0) {
        out_118[i0] = 2251799813685247LL;
    }
}

static unsigned long long seed = 0;
static void hash(unsigned long long v) {
    seed ^= v + 0x9e3779b9ULL + (seed << 6) + (seed >> 2);
}

int main(void) {
    init();
    test(var_0);
    for (int i0 = 0; i0 < 24; ++i0) {
        hash(out_118[i0]);
    }
    printf("%llu\n", seed);
    return 0;
}
