/* The forced-width LoopLoadElimination compile time of clang 23, reduced by yarpj's IR phase from C seed 1606101439
   (the quick start of 2026-12-02): compile with -c. */
#include <stdbool.h>

extern int var_150;
extern long long buf_243[7][4][8];

void test(long long var_14, long long (*out_244)[4][8], long long (*out_245)[4][8]);

void test(long long var_14, long long (*out_244)[4][8], long long (*out_245)[4][8]) {
    for (int i_197 = var_14; (i_197 < 1); i_197++) {
        for (int i_237 = 0; (i_237 != 4); i_237++) {
             {
                unsigned long long i_242 = 0ULL;
                while ((i_242 != 8ULL)) {
                    out_245[i_197][i_237][i_242] = out_244[i_197][i_237][i_242];
                    i_242++;
                }
            }
        }
    }
}
