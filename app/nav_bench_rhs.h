/* The random right-hand side of the Poisson benchmarks, the same on every machine and in every
 * program that compares with navier (navier bench poisson, bench/hypre/hypre_poisson.c,
 * examples/petsc_poisson.c -bc neumann): count values uniform in [-1/2, 1/2) from xorshift64
 * (Marsaglia 2003, shifts 13, 7, 17) with a fixed seed, over the cells in x-fastest order, then
 * the mean removed (zero mean: compatible with the all-Neumann problem). Header only (the hypre
 * program is compiled alone). */
#ifndef NAV_BENCH_RHS_H
#define NAV_BENCH_RHS_H

#include <stddef.h>

static inline void nav_bench_random_rhs(double *b, size_t count) {
  unsigned long long s = 88172645463325252ULL;
  double mean = 0;
  for (size_t q = 0; q < count; q++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    b[q] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    mean += b[q];
  }
  mean /= (double)count;
  for (size_t q = 0; q < count; q++)
    b[q] -= mean;
}

#endif
