/*
 * Reduced by yarpj reduce from seed 5066: the edits in edits.json
 */
#ifndef YARPJ_INIT_H
#define YARPJ_INIT_H
#include <stdbool.h>

extern long long arr_115[24];
extern long long out_118[24];

void test(short var_0);
#endif
