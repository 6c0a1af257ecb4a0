#include <stdio.h>
long arr_1420[48];
long var_1375 = 53LL;
long out_1423[48];
long long seed ;
int main() {
  {
    long __trans_tmp_1 = var_1375;
    {
      long tmp_1421 = 0LL;
      for (long i_1407 = 2LL; (i_1407 < (__trans_tmp_1 - 5)); i_1407++) {
        out_1423[i_1407] = (arr_1420[i_1407] ^ tmp_1421);
        tmp_1421 = arr_1420[i_1407];
      }
    }
  }
  for (int i0 = 0; i0 < 48; ++i0) {
    { seed ^= out_1423[i0] + 0; }
  }
  printf("%llu\n", seed);
}
