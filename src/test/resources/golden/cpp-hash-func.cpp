/*
 * golden test
 */
#include "init.h"

static inline int min_i32(int a, int b) { return a < b ? a : b; }

void test(int var_0, signed char *arr_4, int *out_10, int *out_11) {
    for (int i_6 = 0; (i_6 < var_0); i_6++) {
        bool tmp_8 = (!arr_4[i_6]);
        for (unsigned char i_7 = 1; (i_7 > 0); i_7--) {
            out_5[i_6][i_7] = (((i_6 % 2) == var_1) ? (arr_4[i_6] * (-3)) : min_i32(arr_4[i_6], tmp_8));
        }
    }
    if ((var_2 < 0LL)) {
        res_3 ^= ((short) (var_2 >> 60));
    }
    else {
        res_3 = 18446744073709551615ULL;
    }
    for (int i_12 = 0; (i_12 < 4); i_12++) {
        out_10[i_12] = ((((unsigned int) out_11[i_12]) * 3U) + 1U);
    }
    if ((var_1 != 0)) {
        res_3 = (var_0 / var_1);
    }
}
