/*
 * golden test
 */
#ifndef YARPJ_INIT_H
#define YARPJ_INIT_H
#include <stdbool.h>

extern int var_1;
extern long long var_2;
extern unsigned short res_3;
extern unsigned int out_5[4][2];
extern int buf_9[6];

void test(int var_0, signed char *restrict arr_4, int *out_10, int *out_11);
#endif
