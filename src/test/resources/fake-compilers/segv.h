/* Included into func by the segv fake compiler: the test binary dies of SIGSEGV at start-up. */
#include <signal.h>
__attribute__((constructor, used)) static void yarpj_fake_crash(void) {
    raise(SIGSEGV);
}
