/* Included into func by the loop fake compiler: the test binary never finishes, from start-up on.
   It waits rather than spins: a hang is told by the run's time limit either way, and a spinning
   one would burn the CPU of every try (the limit, the retry at six times it, the repro). */
#include <unistd.h>
__attribute__((constructor, used)) static void yarpj_fake_hang(void) {
    for (;;) pause();
}
