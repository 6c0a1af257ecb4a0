#include <stdio.h>
int res;
__attribute__((noipa)) void test(char c) {
  unsigned t = 255;
  res = t - c;
  for (int i = 0; i < 5; i++)
    res *= t;
}
int main(void) {
  test(9);
  printf("%d\n", res);
  return 0;
}
