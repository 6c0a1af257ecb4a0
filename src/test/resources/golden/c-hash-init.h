/*
 * golden test
 */
#ifndef YARPJ_INIT_H
#define YARPJ_INIT_H
#include <stdbool.h>

extern int var_1;
extern long long var_2;
extern unsigned short res_3;
extern signed char arr_4[4];
extern unsigned int out_5[4][2];

void test(int var_0);
#endif
