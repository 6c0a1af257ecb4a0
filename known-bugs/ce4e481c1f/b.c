/* b.c: the definition, compiled with the same options, makes f and its Advanced SIMD clones only */
__attribute__((simd, const)) int f(int p) { return p > 3; }
