/*
 * Reduced by yarpj reduce from seed 5099: the edits in edits.json
 */
#ifndef YARPJ_INIT_H
#define YARPJ_INIT_H
#include <stdbool.h>

extern unsigned int var_258;
extern unsigned int res_261;
extern unsigned int arr_260[100];
extern unsigned int out_262[100];

void test(void);
#endif
