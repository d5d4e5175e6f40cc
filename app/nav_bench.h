/* Benchmarks of the `navier bench` command; each returns the exit status. */
#ifndef NAV_BENCH_H
#define NAV_BENCH_H

int nav_bench_poisson(int argc, char **argv);

#include "backend/nav_kernels.h"
#include "core/nav_config.h"

/* `navier bench step`: K timed steps of the case cfg on ops over the computing ranks, then the
 * kernels of the step one by one on rank 0's block against the backend's copy bandwidth. Prints
 * a table (or one JSON line with json). Collective. */
nav_err nav_bench_step(const nav_config *cfg, const nav_kernel_ops *ops, int steps, int json);

#endif
