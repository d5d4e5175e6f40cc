/* Benchmark and check of the distributed-block Poisson API (include/navier/poisson.h) on the ranks of
 * MPI_COMM_WORLD: the n^3 (or n^2) grid split into one block per rank (MPI_Dims_create), each rank
 * passes its block of b (host arrays, or device arrays with --memory device), navier solves on
 * ranks_per_solver-sized groups (consolidation) or directly on the ranks' blocks.
 *
 *   -lap x = b, Dirichlet faces, b = 3 pi^2 sin(pi x) sin(pi y) sin(pi z): the max error against
 *   that exact solution is printed (second order).
 *
 * Prints per repeat the wall time of nav_poisson_solve_block (max over ranks) and its parts (moves
 * onto and off the solver ranks, the solver rank's host <-> device copies, the solver), then one
 * line "api: ..." with the fastest repeat. --check: rank 0 also solves the whole grid alone
 * (MPI_COMM_SELF, same backend) and prints max|x - x_1rank| / max|x|; exit 1 above 1e-12.
 * --zero-copy: each rank writes b straight into its part of the solver's staging arrays (nav_poisson_block_arrays,
 * before the timed calls, as an application computing b there would) and the timed call is nav_poisson_solve_arrays
 * (no moves); x is read there.
 *
 * usage: mpiexec -n R bench_poisson_api [--n 256] [--dim 3] [--solver mg] [--backend cpu|cuda]
 *          [--ranks-per-solver k] [--memory host|device] [--gather auto|messages|shared] [--repeat 3]
 *          [--tol 1e-8] [--check] [--zero-copy] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "navier/poisson.h"

static double exact(const int N[3], int dim, int i, int j, int k) {
  const double x = (i + 0.5) / N[0], y = (j + 0.5) / N[1], z = (k + 0.5) / N[2];
  return sin(NAV_PI * x) * sin(NAV_PI * y) * (dim == 3 ? sin(NAV_PI * z) : 1.0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = 256, dim = 3, rps = 0, repeat = 3, check = 0, device = 0, zero_copy = 0;
  double tol = 1e-8;
  const char *solver = "mg", *backend = "cpu", *gather = "auto";
  for (int a = 1; a < argc; a++) {
    const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : "";
    if (!strcmp(o, "--n"))
      n = atoi(v), a++;
    else if (!strcmp(o, "--dim"))
      dim = atoi(v), a++;
    else if (!strcmp(o, "--solver"))
      solver = v, a++;
    else if (!strcmp(o, "--backend"))
      backend = v, a++;
    else if (!strcmp(o, "--ranks-per-solver"))
      rps = atoi(v), a++;
    else if (!strcmp(o, "--memory"))
      device = !strcmp(v, "device"), a++;
    else if (!strcmp(o, "--repeat"))
      repeat = atoi(v), a++;
    else if (!strcmp(o, "--gather"))
      gather = v, a++;
    else if (!strcmp(o, "--tol"))
      tol = atof(v), a++;
    else if (!strcmp(o, "--check"))
      check = 1;
    else if (!strcmp(o, "--zero-copy"))
      zero_copy = 1;
    else {
      if (rank == 0) fprintf(stderr, "bench_poisson_api: unknown argument '%s'\n", o);
      MPI_Finalize();
      return 2;
    }
  }
  if (device && size > 1) { /* the device of each rank is the library's choice: keep it simple */
    if (rank == 0) fprintf(stderr, "bench_poisson_api: --memory device runs on one rank\n");
    MPI_Finalize();
    return 2;
  }
  const int N[3] = {n, n, dim == 3 ? n : 1};
  int p[3] = {0, 0, dim == 3 ? 0 : 1}, c[3], lo[3], cnt[3];
  MPI_Dims_create(size, dim, p);
  c[0] = rank % p[0], c[1] = rank / p[0] % p[1], c[2] = rank / p[0] / p[1];
  for (int d = 0; d < 3; d++) {
    lo[d] = (int)((long)N[d] * c[d] / p[d]);
    cnt[d] = (int)((long)N[d] * (c[d] + 1) / p[d]) - lo[d];
  }
  const size_t cells = (size_t)cnt[0] * cnt[1] * cnt[2];
  double *b = malloc(cells * sizeof *b), *x = malloc(cells * sizeof *x), *h[3];
  for (int d = 0; d < 3; d++) {
    h[d] = malloc(N[d] * sizeof(double));
    for (int i = 0; i < N[d]; i++)
      h[d][i] = 1.0 / N[d];
  }
  size_t q = 0;
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++)
        b[q++] = -(dim * NAV_PI * NAV_PI) * exact(N, dim, lo[0] + i, lo[1] + j, lo[2] + k);
  nav_poisson_bc bc[3][2];
  for (int d = 0; d < 3; d++)
    bc[d][0] = bc[d][1] = NAV_POISSON_DIRICHLET;
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.solver = solver;
  opt.backend = backend;
  opt.tolerance = tol;
  opt.ranks_per_solver = rps;
  opt.zero_guess = 1;
  opt.gather = gather;
  opt.memory = device ? NAV_POISSON_DEVICE : NAV_POISSON_HOST;
  nav_poisson *ps = NULL;
  int rc = nav_poisson_create(MPI_COMM_WORLD, &opt, &ps);
  if (rc == NAV_OK) rc = nav_poisson_set_grid_block(ps, dim, N, lo, cnt, (const double *const *)h, bc);
  /* device memory: the block of b and x on this rank's device (the backend's allocator) */
  const nav_kernel_ops *ops = device ? nav_backend_get(backend, 0) : NULL;
  double *db = b, *dx = x;
  if (rc == NAV_OK && device) {
    rc = ops ? ops->alloc((void **)&db, cells * sizeof(double)) : NAV_ERR_INPUT;
    if (rc == NAV_OK) rc = ops->alloc((void **)&dx, cells * sizeof(double));
    if (rc == NAV_OK) rc = ops->from_host(db, b, cells * sizeof(double));
  }
  double *sx = NULL, *sb = NULL; /* --zero-copy: this rank's block in the staging arrays */
  long st[3] = {1, 0, 0};
  if (rc == NAV_OK && zero_copy) rc = nav_poisson_block_arrays(ps, &sx, &sb, st);
  for (int k = 0; k < cnt[2] && sb; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++)
        sb[i + j * st[1] + k * st[2]] = b[i + (size_t)cnt[0] * (j + (size_t)cnt[1] * k)];
  if (rc != NAV_OK) {
    if (rank == 0) fprintf(stderr, "bench_poisson_api: %s\n", nav_poisson_error());
    MPI_Finalize();
    return 1;
  }
  if (rank == 0)
    printf("grid %d^%d, %d rank(s) as %dx%dx%d blocks, backend %s, memory %s, solver %s: %s\n", n, dim, size, p[0],
           p[1], p[2], backend, device ? "device" : "host", solver, nav_poisson_describe(ps));
  double best[6] = {1e30, 0, 0, 0, 0, 0};
  nav_poisson_result r;
  for (int it = 0; it < repeat && rc == NAV_OK; it++) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    rc = zero_copy ? nav_poisson_solve_arrays(ps, &r) : nav_poisson_solve_block(ps, dx, db, &r);
    double wall = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &wall, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
      printf("repeat %d: wall %.4f s = move in %.4f + copies %.4f + solve %.4f + move out %.4f (+ rest); %d it, "
             "relres %.2e, solver ranks %d, %s\n",
             it, wall, r.move_in_s, r.copy_s, r.solve_s, r.move_out_s, r.iterations, r.relres, r.solver_ranks,
             r.moved == 2 ? "moved (shared memory)"
             : r.moved    ? "moved (messages)"
                          : "direct");
    if (wall < best[0]) {
      best[0] = wall, best[1] = r.move_in_s, best[2] = r.copy_s, best[3] = r.solve_s, best[4] = r.move_out_s;
      best[5] = r.iterations;
    }
  }
  if (rc != NAV_OK) {
    if (rank == 0) fprintf(stderr, "bench_poisson_api: %s\n", nav_poisson_error());
    MPI_Finalize();
    return 1;
  }
  if (device) ops->to_host(x, dx, cells * sizeof(double));
  for (int k = 0; k < cnt[2] && sx; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++)
        x[i + (size_t)cnt[0] * (j + (size_t)cnt[1] * k)] = sx[i + j * st[1] + k * st[2]];
  double err = 0;
  q = 0;
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++)
        err = fmax(err, fabs(x[q++] - exact(N, dim, lo[0] + i, lo[1] + j, lo[2] + k)));
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("api: ranks %d solver_ranks %d gather %s backend %s memory %s wall %.4f move_in %.4f copy %.4f solve %.4f "
           "move_out "
           "%.4f it %d max_err %.3e\n",
           size, r.solver_ranks,
           zero_copy    ? "zero-copy"
           : r.moved == 2 ? "shared"
           : r.moved    ? "messages"
                        : "none",
           backend, device ? "device" : "host", best[0], best[1], best[2], best[3], best[4], (int)best[5], err);
  int status = 0;
  if (check) { /* rank 0 alone on the whole grid, the same backend */
    const size_t total = (size_t)N[0] * N[1] * N[2];
    double *all = rank == 0 ? malloc(total * sizeof *all) : NULL, *blk = NULL;
    int *counts = malloc(2 * size * sizeof(int)), *displs = counts + size, mine = (int)cells;
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int s = 0, off = 0; rank == 0 && s < size; s++)
      displs[s] = off, off += counts[s];
    if (rank == 0) blk = malloc(total * sizeof *blk);
    MPI_Gatherv(x, mine, MPI_DOUBLE, blk, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int los[3 * 64], cnts[3 * 64];
    if (size <= 64) {
      MPI_Gather(lo, 3, MPI_INT, los, 3, MPI_INT, 0, MPI_COMM_WORLD);
      MPI_Gather(cnt, 3, MPI_INT, cnts, 3, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rank == 0 && size <= 64) {
      for (int s = 0; s < size; s++) /* place block s */
        for (int k = 0, qq = displs[s]; k < cnts[3 * s + 2]; k++)
          for (int j = 0; j < cnts[3 * s + 1]; j++)
            for (int i = 0; i < cnts[3 * s]; i++, qq++)
              all[(los[3 * s] + i) + (size_t)N[0] * ((los[3 * s + 1] + j) + (size_t)N[1] * (los[3 * s + 2] + k))] =
                  blk[qq];
      double *bw = malloc(total * sizeof *bw), *xw = calloc(total, sizeof *xw);
      for (int k = 0; k < N[2]; k++)
        for (int j = 0; j < N[1]; j++)
          for (int i = 0; i < N[0]; i++)
            bw[i + (size_t)N[0] * (j + (size_t)N[1] * k)] = -(dim * NAV_PI * NAV_PI) * exact(N, dim, i, j, k);
      nav_poisson_options o1 = opt;
      o1.ranks_per_solver = 1;
      o1.memory = NAV_POISSON_HOST;
      nav_poisson *p1 = NULL;
      const int z[3] = {0, 0, 0};
      int rc1 = nav_poisson_create(MPI_COMM_SELF, &o1, &p1);
      if (rc1 == NAV_OK) rc1 = nav_poisson_set_grid_block(p1, dim, N, z, N, (const double *const *)h, bc);
      nav_poisson_result r1;
      if (rc1 == NAV_OK) rc1 = nav_poisson_solve_block(p1, xw, bw, &r1);
      double diff = 0, scale = 0;
      for (size_t g = 0; g < total; g++)
        diff = fmax(diff, fabs(all[g] - xw[g])), scale = fmax(scale, fabs(xw[g]));
      status = rc1 != NAV_OK || !(diff <= 1e-12 * scale);
      printf("check: %d rank(s) (%d solver rank(s)) against 1 rank: max|x - x_1rank| / max|x| = %.2e (<= 1e-12: %s), "
             "iterations %d vs %d\n",
             size, r.solver_ranks, diff / scale, status ? "FAIL" : "ok", r.iterations,
             rc1 == NAV_OK ? r1.iterations : -1);
      nav_poisson_destroy(p1);
      free(bw);
      free(xw);
    } else if (rank == 0) {
      printf("check: skipped (more than 64 ranks)\n");
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all);
    free(blk);
    free(counts);
  }
  if (device) {
    ops->free(db);
    ops->free(dx);
  }
  nav_poisson_destroy(ps);
  free(b);
  free(x);
  for (int d = 0; d < 3; d++)
    free(h[d]);
  MPI_Finalize();
  return status;
}
