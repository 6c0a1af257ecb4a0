#include "init.h"

extern "C" void test(int32_t var_3) {
    for (int i = 0; i < 64; i++) {
        arr_1[i] = arr_1[i] * 3u + (uint32_t)(var_3 + 11);
    }
    var_2 = var_3 + 7;
}
