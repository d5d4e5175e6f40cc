/* The FFT Poisson solver against the multigrid, through the library API (include/navier/poisson.h):
 *   1. every combination of face types per direction (Neumann-Neumann, Dirichlet-Dirichlet,
 *      Neumann-Dirichlet, Dirichlet-Neumann, periodic), 2D and 3D, odd and even sizes, uniform
 *      spacing and every set of stretched (non-periodic) directions (one: the tridiagonal path;
 *      two or three: the dense eigenvector transforms too): the solutions of a random right-hand
 *      side agree to <= 1e-10 relative (max norm), the FFT residual is at round-off (<= 1e-12),
 *      and solver = auto chose the FFT solver; then larger grids stretched in every direction
 *      (2D 150 x 120, 3D 28 x 24 x 20: the transforms' threaded chunks), the same bounds;
 *   2. a stretched periodic direction: solver = fft fails with NAV_ERR_INPUT and the reason, and
 *      auto takes the multigrid;
 *   3. skip_residual (nav_poisson_options): on every grid of 1. the solve without its residual check gives the
 *      measured solve's x bit for bit and relres -1; a NaN in b still fails it.
 * The multigrid reference is CG preconditioned by the multigrid (mgpcg) to 1e-13; on the larger grids
 * the multigrid cycles (mg, line smoothing; mgpcg stalled near 1e-6 at cell ratio 40 before pcg.c's
 * flexible form) to 1e-12, their
 * round-off floor. On several
 * ranks (mpi tests) the same program checks the distributed FFT solver against one rank's:
 * argument "ranks": every rank solves on MPI_COMM_WORLD and on MPI_COMM_SELF, equal to <= 1e-12
 * ("ranks cuda": the distributed solve on the CUDA backend, a GPU per rank, against one rank on the CPU).
 * Argument "backends": the CUDA backend (cuFFT) against the CPU (FFTW), <= 1e-12, and 3. on the CUDA backend
 * (label gpu).
 * Prints every figure it asserts on (the failures and a summary line per group). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "navier/poisson.h"

#include "nav_test.h"

static const nav_poisson_bc NB = NAV_POISSON_NEUMANN, DB = NAV_POISSON_DIRICHLET, PB = NAV_POISSON_PERIODIC;
static const nav_poisson_bc pairs[5][2] = {{NAV_POISSON_NEUMANN, NAV_POISSON_NEUMANN},
                                           {NAV_POISSON_DIRICHLET, NAV_POISSON_DIRICHLET},
                                           {NAV_POISSON_NEUMANN, NAV_POISSON_DIRICHLET},
                                           {NAV_POISSON_DIRICHLET, NAV_POISSON_NEUMANN},
                                           {NAV_POISSON_PERIODIC, NAV_POISSON_PERIODIC}};
static const char *const pair_names[5] = {"NN", "DD", "ND", "DN", "PP"};

/* Widths of n cells of a unit interval: uniform, or stretched: geometric growth by 1.15 (at most a
 * ratio of 40 between the last and the first cell on longer intervals). */
static void widths(int n, int stretched, double *h) {
  const double g = n > 27 ? pow(40, 1.0 / (n - 1)) : 1.15;
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i] = stretched ? pow(g, i) : 1;
  for (int i = 0; i < n; i++) h[i] /= sum;
}

/* "x", "xz", ...: the directions set in mask ("-" for none). */
static const char *mask_name(int mask) {
  static char text[4];
  int k = 0;
  for (int d = 0; d < 3; d++)
    if (mask >> d & 1) text[k++] = "xyz"[d];
  if (!k) text[k++] = '-';
  text[k] = 0;
  return text;
}

/* A stretched direction must not be periodic (pair 4). */
static int mask_allowed(int dim, const int kind[3], int mask) {
  for (int d = 0; d < dim; d++)
    if ((mask >> d & 1) && kind[d] == 4) return 0;
  return 1;
}

/* Solve with `solver` on comm; x returned (initial guess 0); description copied to desc. */
static const char *backend = "cpu"; /* of solve() */
static int skip_residual = 0;       /* of solve(): nav_poisson_options.skip_residual */

static int solve(MPI_Comm comm, const char *solver, double tol, int dim, const int n[3], double *const h[3],
                 const nav_poisson_bc bc[3][2], const double *b, double *x, nav_poisson_result *r, char *desc,
                 const int *decomposition) {
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.backend = backend;
  opt.solver = solver;
  opt.tolerance = tol;
  opt.max_iterations = 400;
  opt.skip_residual = skip_residual;
  if (decomposition) memcpy(opt.decomposition, decomposition, sizeof opt.decomposition);
  const size_t count = (size_t)n[0] * n[1] * (dim == 3 ? n[2] : 1);
  memset(x, 0, count * sizeof *x);
  nav_poisson *ps = NULL;
  int rc = nav_poisson_create(comm, &opt, &ps);
  if (rc == NAV_OK) rc = nav_poisson_set_grid(ps, dim, n, (const double *const *)h, bc);
  if (rc == NAV_OK) rc = nav_poisson_solve(ps, x, b, r);
  if (desc) snprintf(desc, 256, "%s", rc == NAV_OK ? nav_poisson_describe(ps) : nav_poisson_error());
  nav_poisson_destroy(ps);
  return rc;
}

static double max_rel_diff(const double *x, const double *y, size_t count) {
  double d = 0, m = 0;
  for (size_t q = 0; q < count; q++) {
    d = fmax(d, fabs(x[q] - y[q]));
    m = fmax(m, fabs(y[q]));
  }
  return m > 0 ? d / m : d;
}

/* The widths h[d] (allocated: the caller frees them) and faces bc of a grid: the face pair kind[d] and the
 * directions of mask stretched. */
static void grid_of(int dim, const int n[3], const int kind[3], int mask, double *h[3], nav_poisson_bc bc[3][2]) {
  for (int d = 0; d < 3; d++) {
    h[d] = malloc((size_t)n[d] * sizeof(double));
    widths(n[d], mask >> d & 1, h[d]);
    bc[d][0] = pairs[d < dim ? kind[d] : 0][0];
    bc[d][1] = pairs[d < dim ? kind[d] : 0][1];
  }
}

/* FFT (auto) against mgpcg on one grid; returns the relative difference (negative on failure). */
static double compare(int dim, const int n[3], const int kind[3], int mask, const char *ref, double ref_tol,
                      int *chose_fft, double *relres) {
  double *h[3];
  nav_poisson_bc bc[3][2];
  grid_of(dim, n, kind, mask, h, bc);
  const size_t count = (size_t)n[0] * n[1] * (dim == 3 ? n[2] : 1);
  double *b = malloc(count * sizeof *b), *xf = malloc(count * sizeof *xf), *xm = malloc(count * sizeof *xm);
  for (size_t q = 0; q < count; q++) b[q] = rand() / (double)RAND_MAX - 0.5;
  nav_poisson_result rf, rm;
  char desc[256];
  double diff = -1;
  const int ef = solve(MPI_COMM_SELF, "auto", 1e-8, dim, n, h, bc, b, xf, &rf, desc, NULL);
  char mdesc[256];
  const int em = solve(MPI_COMM_SELF, ref, ref_tol, dim, n, h, bc, b, xm, &rm, mdesc, NULL);
  *chose_fft = ef == NAV_OK && !strncmp(desc, "FFT", 3);
  *relres = rf.relres;
  if (ef == NAV_OK && em == NAV_OK)
    diff = max_rel_diff(xf, xm, count);
  else
    printf("     error: %s\n", ef == NAV_OK ? mdesc : desc);
  for (int d = 0; d < 3; d++) free(h[d]);
  free(b);
  free(xf);
  free(xm);
  return diff;
}

static void test_all_faces(void) {
  const int sizes[2][2][3] = {{{12, 9, 1}, {7, 10, 1}}, {{6, 5, 8}, {9, 8, 7}}};
  for (int dim = 2; dim <= 3; dim++) {
    const int ncomb = dim == 2 ? 25 : 125;
    for (int s = 0; s < 2; s++) {
      const int *n = sizes[dim - 2][s];
      int cases = 0, bad = 0;
      double worst = 0, worst_res = 0;
      for (int c = 0; c < ncomb; c++) {
        const int kind[3] = {c % 5, (c / 5) % 5, c / 25};
        for (int mask = 0; mask < 1 << dim; mask++) {
          if (!mask_allowed(dim, kind, mask)) continue;
          int fft;
          double relres;
          const double diff = compare(dim, n, kind, mask, "mgpcg", 1e-13, &fft, &relres);
          cases++;
          worst = fmax(worst, diff);
          worst_res = fmax(worst_res, relres);
          if (!(diff >= 0 && diff <= 1e-10 && fft && relres <= 1e-12)) {
            bad++;
            printf("FAIL %dD %dx%dx%d faces %s %s %s stretched %s: fft chosen %d, relres %.2e, difference %.2e\n", dim,
                   n[0], n[1], n[2], pair_names[kind[0]], pair_names[kind[1]], dim == 3 ? pair_names[kind[2]] : "-",
                   mask_name(mask), fft, relres, diff);
          }
        }
      }
      NAV_TEST(bad == 0,
               "fft vs multigrid %dD %dx%dx%d: %d face combinations x stretchings, worst difference %.2e <= 1e-10, "
               "worst fft residual %.2e <= 1e-12, %d failed",
               dim, n[0], n[1], dim == 3 ? n[2] : 1, cases, worst, worst_res, bad);
    }
  }
}

/* Larger grids stretched in every direction, the faces of each direction in turn. */
static void test_all_stretched(void) {
  const int sizes[2][3] = {{150, 120, 1}, {28, 24, 20}};
  const int kinds[4][3] = {{0, 0, 0}, {1, 2, 3}, {3, 0, 2}, {2, 1, 0}};
  for (int dim = 2; dim <= 3; dim++) {
    int bad = 0;
    double worst = 0, worst_res = 0;
    for (int c = 0; c < 4; c++) {
      int fft;
      double relres;
      const double diff = compare(dim, sizes[dim - 2], kinds[c], dim == 2 ? 3 : 7, "mg", 1e-12, &fft, &relres);
      worst = fmax(worst, diff);
      worst_res = fmax(worst_res, relres);
      if (!(diff >= 0 && diff <= 1e-10 && fft && relres <= 1e-12)) {
        bad++;
        printf("FAIL %dD stretched everywhere, faces %s %s %s: fft chosen %d, relres %.2e, difference %.2e\n", dim,
               pair_names[kinds[c][0]], pair_names[kinds[c][1]], dim == 3 ? pair_names[kinds[c][2]] : "-", fft, relres,
               diff);
      }
    }
    NAV_TEST(bad == 0,
             "fft vs multigrid %dD %dx%dx%d stretched in every direction, 4 face combinations: worst difference %.2e "
             "<= 1e-10, worst fft residual %.2e <= 1e-12",
             dim, sizes[dim - 2][0], sizes[dim - 2][1], dim == 3 ? sizes[dim - 2][2] : 1, worst, worst_res);
  }
}

/* The fft solve of b (random, or with a NaN) with and without its residual check on `backend`: 1 if x is the same
 * bit for bit and the unmeasured relres is -1 (nan_at >= 0: b[nan_at] = NaN, 1 if both fail). */
static int same_unmeasured(int dim, const int n[3], const int kind[3], int mask, long nan_at, char *why) {
  double *h[3];
  nav_poisson_bc bc[3][2];
  grid_of(dim, n, kind, mask, h, bc);
  const size_t count = (size_t)n[0] * n[1] * (dim == 3 ? n[2] : 1);
  double *b = malloc(count * sizeof *b), *xm = malloc(count * sizeof *xm), *xs = malloc(count * sizeof *xs);
  for (size_t q = 0; q < count; q++)
    b[q] = rand() / (double)RAND_MAX - 0.5;
  if (nan_at >= 0) b[nan_at] = NAN;
  nav_poisson_result rm, rs;
  skip_residual = 0;
  const int em = solve(MPI_COMM_SELF, "fft", 1e-8, dim, n, h, bc, b, xm, &rm, why, NULL);
  skip_residual = 1;
  const int es = solve(MPI_COMM_SELF, "fft", 1e-8, dim, n, h, bc, b, xs, &rs, why, NULL);
  skip_residual = 0;
  const int ok = nan_at >= 0 ? em != NAV_OK && es != NAV_OK
                             : em == NAV_OK && es == NAV_OK && !memcmp(xm, xs, count * sizeof *xm) && rs.relres == -1 &&
                                   rs.converged && rm.relres >= 0;
  if (!ok && nan_at < 0)
    snprintf(why, 256, "measured %d (relres %.2e), unmeasured %d (relres %.2e), x %s", em, rm.relres, es, rs.relres,
             em == NAV_OK && es == NAV_OK && !memcmp(xm, xs, count * sizeof *xm) ? "same" : "differs");
  for (int d = 0; d < 3; d++)
    free(h[d]);
  free(b);
  free(xm);
  free(xs);
  return ok;
}

/* 3.: every face combination and stretching of the grids sizes[0] (2D) and sizes[1] (3D) on `backend`. */
static void test_skip_residual(const int sizes[2][3]) {
  for (int dim = 2; dim <= 3; dim++) {
    const int *n = sizes[dim - 2], ncomb = dim == 2 ? 25 : 125;
    int cases = 0, bad = 0;
    for (int c = 0; c < ncomb; c++) {
      const int kind[3] = {c % 5, (c / 5) % 5, c / 25};
      for (int mask = 0; mask < 1 << dim; mask++) {
        if (!mask_allowed(dim, kind, mask)) continue;
        char why[256] = "";
        cases++;
        if (!same_unmeasured(dim, n, kind, mask, -1, why)) {
          bad++;
          printf("FAIL skip_residual %s %dD faces %s %s %s stretched %s: %s\n", backend, dim, pair_names[kind[0]],
                 pair_names[kind[1]], dim == 3 ? pair_names[kind[2]] : "-", mask_name(mask), why);
        }
      }
    }
    NAV_TEST(bad == 0,
             "skip_residual on %s %dD %dx%dx%d: %d cases, x bit for bit the measured solve's, relres -1; %d failed",
             backend, dim, n[0], n[1], n[2], cases, bad);
    const int periodic[3] = {4, 4, 4}, neumann[3] = {0, 0, 0}, dirichlet[3] = {1, 1, 1}, mixed[3] = {4, 2, 0};
    char why[256];
    NAV_TEST(same_unmeasured(dim, n, periodic, 0, 7, why) && same_unmeasured(dim, n, neumann, 0, 7, why) &&
                 same_unmeasured(dim, n, dirichlet, 0, 7, why) && same_unmeasured(dim, n, mixed, 2, 7, why),
             "skip_residual on %s %dD: a NaN in b fails the solve (periodic, all-Neumann, all-Dirichlet, mixed and "
             "stretched in y)",
             backend, dim);
  }
}

static void test_not_applicable(void) {
  const int n[3] = {8, 8, 8};
  double *h[3];
  for (int d = 0; d < 3; d++) {
    h[d] = malloc(8 * sizeof(double));
    widths(8, d != 1, h[d]);
  }
  const nav_poisson_bc bc[3][2] = {{NB, NB}, {DB, NB}, {PB, PB}};
  double b[512], x[512];
  for (int q = 0; q < 512; q++) b[q] = rand() / (double)RAND_MAX - 0.5;
  nav_poisson_result r;
  char desc[256];
  int rc = solve(MPI_COMM_SELF, "fft", 1e-8, 3, n, h, bc, b, x, &r, desc, NULL);
  NAV_TEST(rc == NAV_ERR_INPUT && strstr(desc, "periodic direction z has non-uniform spacing"),
           "a stretched periodic direction, solver fft: error %d: %s", rc, desc);
  rc = solve(MPI_COMM_SELF, "auto", 1e-8, 3, n, h, bc, b, x, &r, desc, NULL);
  NAV_TEST(rc == NAV_OK && !strncmp(desc, "multigrid", 9), "a stretched periodic direction, solver auto: %s", desc);
  for (int d = 0; d < 3; d++) free(h[d]);
}

/* 1 if the solver should run on slabs (fft.c): split only along the last direction, at least 3 rows
 * per rank, that direction not periodic, the others uniform and periodic or Neumann-Neumann. */
static int expect_slabs(int dim, const int n[3], const int p[3], const int kind[3], int mask) {
  const int s = dim - 1, P = p[0] * p[1] * p[2];
  if (P < 2 || p[s] != P || kind[s] == 4 || n[s] / P < 3) return 0;
  for (int d = 0; d < s; d++)
    if ((mask >> d & 1) || !(kind[d] == 0 || kind[d] == 4)) return 0;
  return 1;
}

/* Several ranks: the distributed FFT (every decomposition given) equals one rank's to 1e-12, and the
 * slabs are taken exactly where they apply (the solver's description says "slabs"). */
static void test_ranks(void) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n3[3] = {12, 10, 13}, n2[3] = {14, 13, 1}; /* 13: slabs of >= 3 rows on 4 ranks */
  /* NN NN NN and NN PP NN: singular, the slabs' mean in the spectrum (y periodic: two entries of the zero mode) */
  const int kinds[5][3] = {{0, 0, 0}, {4, 0, 1}, {2, 4, 3}, {4, 4, 2}, {0, 4, 0}};
  for (int dim = 2; dim <= 3; dim++)
    for (int kk = 0; kk < 5; kk++)
      for (int mask = 0; mask < 1 << dim; mask++) {
        const int *n = dim == 3 ? n3 : n2;
        if (!mask_allowed(dim, kinds[kk], mask)) continue;
        double *h[3];
        nav_poisson_bc bc[3][2];
        for (int d = 0; d < 3; d++) {
          h[d] = malloc((size_t)n[d] * sizeof(double));
          widths(n[d], mask >> d & 1, h[d]);
          bc[d][0] = pairs[kinds[kk][d]][0];
          bc[d][1] = pairs[kinds[kk][d]][1];
        }
        const size_t count = (size_t)n[0] * n[1] * n[2];
        double *b = malloc(count * sizeof *b), *x1 = malloc(count * sizeof *x1), *xp = malloc(count * sizeof *xp);
        srand(11);
        for (size_t q = 0; q < count; q++) b[q] = rand() / (double)RAND_MAX - 0.5;
        nav_poisson_result r;
        char desc[256];
        /* the reference on the CPU: a process keeps one GPU (the CUDA backend's state is per process) */
        const char *distributed = backend;
        backend = "cpu";
        int rc = solve(MPI_COMM_SELF, "fft", 1e-8, dim, n, h, bc, b, x1, &r, desc, NULL);
        backend = distributed;
        /* every split of size ranks over the directions */
        for (int px = 1; px <= size; px++)
          for (int py = 1; px * py <= size; py++) {
            if (size % (px * py)) continue;
            const int pz = size / (px * py);
            if (dim == 2 && pz != 1) continue;
            const int dec[3] = {px, py, pz};
            int rp = solve(MPI_COMM_WORLD, "fft", 1e-8, dim, n, h, bc, b, xp, &r, desc, dec);
            const double diff = rc == NAV_OK && rp == NAV_OK ? max_rel_diff(xp, x1, count) : -1;
            const int slabs = strstr(desc, "slabs") != NULL, want = expect_slabs(dim, n, dec, kinds[kk], mask);
            if (rank == 0)
              NAV_TEST(diff >= 0 && diff <= 1e-12 && slabs == want,
                       "%d ranks %dx%dx%d, %dD faces %s %s %s stretched %s: %.2e <= 1e-12, %s%s%s", size, px, py, pz,
                       dim, pair_names[kinds[kk][0]], pair_names[kinds[kk][1]],
                       dim == 3 ? pair_names[kinds[kk][2]] : "-", mask_name(mask), diff,
                       slabs ? "slabs" : "pencils", slabs == want ? "" : " (wrong path)",
                       rp == NAV_OK ? "" : desc);
          }
        for (int d = 0; d < 3; d++) free(h[d]);
        free(b);
        free(x1);
        free(xp);
      }
}

/* The CUDA backend's FFT solver (cuFFT) against the CPU's (FFTW), every face combination, 3D and
 * 2D, every set of stretched directions: <= 1e-12 relative (1e-4 in the single-precision build, as
 * unit_fft_kinds: float round-off times the condition of these small grids). Exit 77 (skipped)
 * without a GPU. */
static int test_backends(void) {
  const double tol = sizeof(nav_real) == sizeof(double) ? 1e-12 : 1e-4;
  nav_poisson_options probe;
  nav_poisson_options_default(&probe);
  probe.backend = "cuda";
  nav_poisson *ps = NULL;
  if (nav_poisson_create(MPI_COMM_SELF, &probe, &ps) != NAV_OK) {
    printf("skipped: no CUDA backend (%s)\n", nav_poisson_error());
    return 77;
  }
  nav_poisson_destroy(ps);
  const int sizes[2][3] = {{33, 20, 1}, {24, 17, 16}};
  for (int dim = 2; dim <= 3; dim++) {
    const int *n = sizes[dim - 2], ncomb = dim == 2 ? 25 : 125;
    int cases = 0, bad = 0;
    double worst = 0;
    for (int c = 0; c < ncomb; c++) {
      const int kind[3] = {c % 5, (c / 5) % 5, c / 25};
      for (int mask = 0; mask < 1 << dim; mask++) {
        if (!mask_allowed(dim, kind, mask)) continue;
        double *h[3];
        nav_poisson_bc bc[3][2];
        grid_of(dim, n, kind, mask, h, bc);
        const size_t count = (size_t)n[0] * n[1] * n[2];
        double *b = malloc(count * sizeof *b), *xc = malloc(count * sizeof *xc), *xg = malloc(count * sizeof *xg);
        for (size_t q = 0; q < count; q++) b[q] = rand() / (double)RAND_MAX - 0.5;
        nav_poisson_result r;
        char desc[256];
        backend = "cpu";
        const int ec = solve(MPI_COMM_SELF, "fft", 1e-8, dim, n, h, bc, b, xc, &r, desc, NULL);
        backend = "cuda";
        const int eg = solve(MPI_COMM_SELF, "fft", 1e-8, dim, n, h, bc, b, xg, &r, desc, NULL);
        const double diff = ec == NAV_OK && eg == NAV_OK ? max_rel_diff(xg, xc, count) : -1;
        cases++;
        worst = fmax(worst, diff);
        if (!(diff >= 0 && diff <= tol)) {
          bad++;
          printf("FAIL cuda vs cpu %dD faces %s %s %s stretched %s: %.2e (%s)\n", dim, pair_names[kind[0]],
                 pair_names[kind[1]], dim == 3 ? pair_names[kind[2]] : "-", mask_name(mask), diff,
                 eg == NAV_OK ? "solved" : desc);
        }
        for (int d = 0; d < 3; d++) free(h[d]);
        free(b);
        free(xc);
        free(xg);
      }
    }
    NAV_TEST(bad == 0, "fft cuda (cuFFT) vs cpu (FFTW) %dD %dx%dx%d: %d cases, worst difference %.2e <= %.0e, %d failed",
             dim, n[0], n[1], n[2], cases, worst, tol, bad);
  }
  backend = "cuda"; /* the grids above: cuFFT takes the callbacks there (a refusal's note fails the test) */
  test_skip_residual(sizes);
  backend = "cpu";
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  srand(3);
  if (argc > 1 && !strcmp(argv[1], "backends")) {
    const int rc = test_backends();
    MPI_Finalize();
    return rc;
  }
  if (argc > 1 && !strcmp(argv[1], "ranks")) {
    if (argc > 2) backend = argv[2]; /* "cuda": one GPU per rank (label gpu) */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int gpus = strcmp(backend, "cuda") ? size : nav_backend_device_count("cuda");
    if (gpus < size) { /* the paths checked here are those of one GPU per rank */
      printf("skipped: %d ranks need a GPU each, %d visible\n", size, gpus);
      MPI_Finalize();
      return 77;
    }
    test_ranks();
  } else {
    test_all_faces();
    test_all_stretched();
    test_not_applicable();
    const int sizes[2][3] = {{12, 9, 1}, {6, 5, 8}}; /* test_all_faces' first grids */
    test_skip_residual(sizes);
  }
  int all = failures;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return all ? 1 : 0;
}
