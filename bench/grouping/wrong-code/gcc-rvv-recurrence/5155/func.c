/*
 * Reduced by yarpj reduce from seed 5155: the edits in edits.json
 */
#include "init.h"

void test(int (*restrict out_24)[226]) {
    int tmp_12 = 0;
    for (long long i_10 = 0LL; (i_10 < 225LL); i_10++) {
        out_14[i_10] = (arr_11[i_10] + tmp_12);
        tmp_12 = arr_11[i_10];
        out_24[4][i_10] = ((int) arr_7[1][i_10]);
    }
}
