// A hand-made ISPC test in the form the lowerer writes: the driver's globals, then either
// the header ispc writes (driver built with -DYARPJ_ISPC) or the C++ twin's declaration.
#include <stdint.h>
extern uint32_t arr_1[64];
extern int32_t var_2;
#ifdef YARPJ_ISPC
#include "func_ispc.h"
using namespace ispc;
#else
extern "C" void test(int32_t var_3);
#endif
