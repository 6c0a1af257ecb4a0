/* Included into func by the loop fake compiler: the test binary spins forever at start-up. */
__attribute__((constructor, used)) static void yarpj_fake_spin(void) {
    for (volatile int forever = 1; forever;) {
    }
}
