extern int arr_95[222];
extern long long out_96[221];
extern unsigned int out_111[29][221];

void test(unsigned char var_94, int *arr_110) {
    for (unsigned int i_85 = 2U; (i_85 < 28U); i_85++) {
        #pragma clang loop unroll(enable)
        for (int i_90 = 2; (i_90 < 219); i_90++) {
            if (((int) ((unsigned int) var_94))) {
                out_96[i_90] = ((long long) arr_95[i_90]);
            }
            out_111[i_85][i_90] = (arr_110[i_90] ^ arr_110[(i_90 - 2)]);
        }
    }
}
