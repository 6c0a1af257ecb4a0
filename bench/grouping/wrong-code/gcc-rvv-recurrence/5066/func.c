/*
 * Reduced by yarpj reduce from seed 5066: the edits in edits.json
 */
#include "init.h"

void test(short var_0) {
    long long tmp_116 = 0LL;
    #pragma clang loop unroll_count(4)
    for (unsigned long long i_104 = var_0; (i_104 < 14ULL); i_104++) {
        out_118[i_104] = (arr_115[i_104] + tmp_116);
        tmp_116 = arr_115[i_104];
    }
}
