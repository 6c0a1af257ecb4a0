extern uniform unsigned int64 var_16;
extern uniform int8 var_401;
extern uniform int32 var_1008;
extern uniform int32 var_1521;
extern uniform unsigned int32 var_1537;
export void test(uniform int16 var_1442, uniform unsigned int32 var_1523, uniform unsigned int64 var_1536,
                 uniform int32 * uniform arr_90, uniform int32 (* uniform out_1538)[19], uniform unsigned int64 m) {
    for (uniform int32 j = 0; j < 7; j++) {
        for (uniform int32 g = 0; g < 19; g += programCount) {
            varying int32 k = g + programIndex;
            if (k < 19) {
                varying unsigned int32 i = 0 + k * 1u;
                if (var_1521 & var_1523)
                    if (0 == (((var_1536 - var_1008) ^ (var_1442 * 324357532u)) >= ((0 != var_1537) & (var_401 + 4294967295u))))
                        out_1538[j][i] = (((arr_90[i] * m) << 0) ^ var_16);
            }
        }
    }
}
