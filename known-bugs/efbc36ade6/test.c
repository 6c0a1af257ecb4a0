extern short var_95;
extern short var_120;
extern unsigned long long out_125[6][3][118];
extern short out_128[1][2][120];

void test(int var_94) {
    for (int i_117 = 1; (i_117 < 5); i_117++) {
        for (int i_118 = (var_95 - 3); (i_118 != var_94); i_118++) {
            #pragma clang loop unroll(enable)
            for (unsigned long long i_119 = 1ULL; (i_119 <= 117ULL); i_119++) {
                if (((unsigned long long) ((int) var_120))) {
                    out_125[i_117][i_118][i_119] = 1ULL;
                }
                else {
                    out_128[i_117][i_118][i_119] = 1;
                }
            }
        }
    }
}
