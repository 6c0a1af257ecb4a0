/* a.c of bugs.md's entry: the loop calls f's masked SVE clone, which b.c does not define */
__attribute__((simd, const)) int f(int p);
int out[64];
int in[64];
void test(void) {
  for (int i = 0; i < 64; i++)
    if (in[i] & 1)
      out[i] = f(in[i]);
}
