/*
 * Reduced by yarpj reduce from seed 5099: the edits in edits.json
 */
#include "init.h"

void test(void) {
    #pragma clang loop vectorize(enable)
    for (int i_259 = 0; (i_259 < var_258); i_259++) {
        out_262[i_259] = (arr_260[i_259] - res_261);
        res_261 = arr_260[i_259];
    }
}
