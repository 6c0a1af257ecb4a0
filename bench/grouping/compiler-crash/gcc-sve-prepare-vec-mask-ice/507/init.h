/* The header of the driver of the pseudo-finding of "gcc 16 SVE: prepare_vec_mask ICE" (bugs.md). */
#ifndef YARPJ_INIT_H
#define YARPJ_INIT_H
void test(long long x, unsigned char (*a)[7][15]);
#endif
