/* The unit tests' random numbers: xorshift64 (Marsaglia 2003, shifts 13, 7, 17) from a seed of the test's own,
 * uniform in [-1, 1). Header only; one generator per test program. */
#ifndef NAV_TEST_RNG_H
#define NAV_TEST_RNG_H

/* Define the generator's state with SEED and rnd(), uniform in [-1, 1). */
#define NAV_TEST_RNG(SEED)                                                                                  \
  static unsigned long long rng = (SEED);                                                                   \
  static double rnd(void) {                                                                                 \
    rng ^= rng << 13;                                                                                       \
    rng ^= rng >> 7;                                                                                        \
    rng ^= rng << 17;                                                                                       \
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;                                                \
  }

#endif
