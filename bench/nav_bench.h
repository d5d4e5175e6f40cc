/* Benchmarks of the `navier bench` command; each returns the exit status. */
#ifndef NAV_BENCH_H
#define NAV_BENCH_H

int nav_bench_poisson(int argc, char **argv);

#endif
