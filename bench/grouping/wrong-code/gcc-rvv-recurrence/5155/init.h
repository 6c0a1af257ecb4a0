/*
 * Reduced by yarpj reduce from seed 5155: the edits in edits.json
 */
#ifndef YARPJ_INIT_H
#define YARPJ_INIT_H
#include <stdbool.h>

extern unsigned long long arr_7[2][227];
extern int arr_11[225];
extern int out_14[225];

void test(int (*restrict out_24)[226]);
#endif
