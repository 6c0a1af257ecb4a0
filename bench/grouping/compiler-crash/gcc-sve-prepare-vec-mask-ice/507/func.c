__attribute__((simd, const)) int f(unsigned long long p, int q);
extern long long lo;
extern unsigned idx;
extern unsigned out[1][7][16];
void test(long long x, unsigned char (*a)[7][15]) {
  for (int i = lo; i < 1; i++)
    if ((x & a[2][0][i]) == 1)
      out[idx][0][i] = f(0, 0);
}
