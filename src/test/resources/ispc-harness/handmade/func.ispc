extern uniform unsigned int32 arr_1[64];
extern uniform int32 var_2;

export void test(uniform int32 var_3) {
    foreach (i = 0 ... 64) {
        arr_1[i] = arr_1[i] * 3u + (unsigned int32)(var_3 + 11);
    }
    var_2 = var_3 + 7;
}
