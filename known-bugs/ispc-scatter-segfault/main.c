#include <stdio.h>
unsigned test(long long s);
int main(void) { printf("%u\n", test(59)); return 0; } /* expected: 14 */
