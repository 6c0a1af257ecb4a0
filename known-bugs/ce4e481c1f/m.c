/* m.c: main */
#include <stdio.h>
void test(void);
extern int out[64], in[64];
int main(void) { for (int i = 0; i < 64; i++) in[i] = i; test(); long s = 0; for (int i = 0; i < 64; i++) s += out[i]; printf("%ld\n", s); }
