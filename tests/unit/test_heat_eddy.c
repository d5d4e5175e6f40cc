/* The temperature's heat flux with an eddy diffusivity (nav_point_scalar.h, through the heat kernel table
 * of the backend named on the command line, cpu or cuda) against its formula written separately here:
 *   1. manufactured, u = 0, on a uniform 2D and 3D box offset from the origin: T = sum_d x_d^2 and the
 *      eddy viscosity nu_t = a + g . x (ghosts filled from the same formulas), so that
 *        div((kappa + nu_t / Pr_t) grad T) = 2 dim (kappa + nu_t(x) / Pr_t) + 2 (g . x) / Pr_t
 *      at every cell; the scheme is exact for these fields (the face interpolation of a linear nu_t, the
 *      central difference of a quadratic), so the difference is round-off. With every side of the block
 *      on a wall (bnd) the cells beside a wall lose the eddy part of that face's flux: there the
 *      expected value is the sum of the face fluxes k_f 2 x_f (k_f = kappa on a wall face) over h;
 *   2. rprt = 0 (an infinite Pr_t) with random u, T, nu_t equals the constant-kappa operator (nut == NULL:
 *      the temperature without an LES closure) to round-off.
 * Relative 1e-11 (FP64; 1e-4 in single precision) against max |expected|. Exit 77 (ctest: skipped) for cuda
 * where no CUDA device is visible. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_heat_kernels.h"
#include "core/nav_error.h"
#include "grid/nav_geometry.h"
#include "test_rng.h"

#define TOL (sizeof(nav_real) == sizeof(double) ? 1e-11 : 1e-4)

static const nav_kernel_ops *ops;
static const nav_heat_kernels *hk;
static int checks, failures;
NAV_TEST_RNG(88172645463325252ull)

/* uniform in [0, 1): the same numbers as rnd()'s (every step exact) */
static double rnd01(void) { return 0.5 * (rnd() + 1); }

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_heat_eddy: %s failed (line %d)\n", #call, __LINE__);                                   \
      exit(1);                                                                                                       \
    }                                                                                                                \
  } while (0)

static nav_real *upload(const nav_real *h, size_t n) {
  nav_real *x;
  OK(ops->alloc((void **)&x, n * sizeof *h));
  OK(ops->from_host(x, h, n * sizeof *h));
  return x;
}

static void report(const char *what, int dim, int bnd, double err, double scale) {
  checks++;
  const int ok = err <= TOL * scale;
  failures += !ok;
  printf("%dD %-28s bnd %2d: max err %.3e (scale %.3g)  %s\n", dim, what, bnd, err, scale, ok ? "ok" : "FAIL");
}

static const double kappa = 0.7, prt = 0.85, a0 = 0.3, g[3] = {0.8, -0.5, 0.6}, x0[3] = {0.25, -0.4, 1.1};

/* nu_t and T at the point x */
static double nut_at(const double *x, int dim) {
  double v = a0;
  for (int d = 0; d < dim; d++) v += g[d] * x[d];
  return v;
}

/* Case 1 on one box, with the block's sides bnd on walls. */
static void manufactured(int dim, int bnd) {
  const int n[3] = {dim == 3 ? 7 : 11, dim == 3 ? 6 : 9, dim == 3 ? 5 : 1}, g0[3] = {0, 0, 0};
  const double h = 1.0 / 8;
  double *w[3] = {NULL, NULL, NULL};
  for (int d = 0; d < dim; d++) {
    w[d] = nav_widths_alloc(n[d]);
    for (int i = 0; i < n[d]; i++) w[d][i] = h;
    nav_widths_ghosts(w[d], n[d], 0);
  }
  nav_box b;
  OK(nav_box_create(ops, dim, n, g0, w, &b));
  const size_t N = (size_t)b.ntot;
  nav_real *T = calloc(N, sizeof *T), *nut = calloc(N, sizeof *nut), *zero = calloc(N, sizeof *zero);
  nav_real *out = calloc(N, sizeof *out);
  const int lo2 = dim == 3 ? -1 : 0, hi2 = dim == 3 ? n[2] : 0;
  for (int k = lo2; k <= hi2; k++)
    for (int j = -1; j <= n[1]; j++)
      for (int i = -1; i <= n[0]; i++) {
        const int ijk[3] = {i, j, k};
        double x[3] = {0, 0, 0}, t = 0;
        for (int d = 0; d < dim; d++) {
          x[d] = x0[d] + (ijk[d] + 0.5) * h;
          t += x[d] * x[d];
        }
        const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
        T[p] = (nav_real)t;
        nut[p] = (nav_real)nut_at(x, dim);
      }
  nav_real *dT = upload(T, N), *dnut = upload(nut, N), *dz = upload(zero, N), *drhs = upload(zero, N);
  nav_real *u[3] = {dz, dz, dz};
  OK(hk->scalar_rhs(&b, u, dT, (nav_real)kappa, dnut, (nav_real)(1 / prt), bnd, drhs));
  OK(ops->to_host(out, drhs, N * sizeof *out));
  double err = 0, scale = 0;
  for (int k = 0; k < n[2]; k++)
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++) {
        const int ijk[3] = {i, j, k};
        double x[3] = {0, 0, 0}, want = 0, gx = 0;
        int wall = 0;
        for (int d = 0; d < dim; d++) {
          x[d] = x0[d] + (ijk[d] + 0.5) * h;
          gx += g[d] * x[d];
          wall |= (ijk[d] == 0 && ((bnd >> (3 + d)) & 1)) || (ijk[d] == n[d] - 1 && ((bnd >> d) & 1));
        }
        if (!wall) {
          want = 2 * dim * (kappa + nut_at(x, dim) / prt) + 2 * gx / prt;
        } else { /* the face fluxes k_f dT/dx_d = k_f 2 x_f, k_f = kappa on a wall face */
          for (int d = 0; d < dim; d++)
            for (int s = 0; s < 2; s++) {
              double xf[3] = {x[0], x[1], x[2]};
              xf[d] += (s ? 0.5 : -0.5) * h;
              const int on_wall = s ? ijk[d] == n[d] - 1 && ((bnd >> d) & 1) : ijk[d] == 0 && ((bnd >> (3 + d)) & 1);
              const double kf = kappa + (on_wall ? 0 : nut_at(xf, dim) / prt);
              want += (s ? 1 : -1) * kf * 2 * xf[d] / h;
            }
        }
        const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
        err = fmax(err, fabs((double)out[p] - want));
        scale = fmax(scale, fabs(want));
      }
  report("div((kappa+nu_t/Pr_t) grad T)", dim, bnd, err, scale);
  nav_real *all[] = {dT, dnut, dz, drhs};
  for (int i = 0; i < 4; i++) ops->free(all[i]);
  free(T);
  free(nut);
  free(zero);
  free(out);
  nav_box_destroy(ops, &b);
  for (int d = 0; d < dim; d++) nav_widths_free(w[d]);
}

/* Case 2: rprt = 0 against nut == NULL, random fields on a randomly stretched box. */
static void no_eddy(int dim) {
  const int n[3] = {dim == 3 ? 9 : 17, dim == 3 ? 8 : 13, dim == 3 ? 7 : 1}, g0[3] = {0, 0, 0};
  double *w[3] = {NULL, NULL, NULL};
  for (int d = 0; d < dim; d++) {
    w[d] = nav_widths_alloc(n[d]);
    for (int i = 0; i < n[d]; i++) w[d][i] = 0.05 * (0.5 + rnd01());
    nav_widths_ghosts(w[d], n[d], 0);
  }
  nav_box b;
  OK(nav_box_create(ops, dim, n, g0, w, &b));
  const size_t N = (size_t)b.ntot;
  nav_real *h = malloc(N * sizeof *h), *r0 = malloc(N * sizeof *r0), *r1 = malloc(N * sizeof *r1);
  nav_real *u[3] = {NULL, NULL, NULL}, *T, *nut, *o0, *o1;
  for (int c = 0; c < 3; c++) {
    for (size_t p = 0; p < N; p++) h[p] = (nav_real)(2 * rnd01() - 1);
    u[c] = upload(h, N);
  }
  for (size_t p = 0; p < N; p++) h[p] = (nav_real)(1 + rnd01());
  T = upload(h, N);
  for (size_t p = 0; p < N; p++) h[p] = (nav_real)(0.1 * rnd01());
  nut = upload(h, N);
  for (size_t p = 0; p < N; p++) h[p] = 0;
  o0 = upload(h, N);
  o1 = upload(h, N);
  OK(hk->scalar_rhs(&b, u, T, (nav_real)kappa, NULL, 0, 0, o0));
  OK(hk->scalar_rhs(&b, u, T, (nav_real)kappa, nut, 0, 0, o1));
  OK(ops->to_host(r0, o0, N * sizeof *r0));
  OK(ops->to_host(r1, o1, N * sizeof *r1));
  double err = 0, scale = 0;
  for (size_t p = 0; p < N; p++) {
    err = fmax(err, fabs((double)r1[p] - (double)r0[p]));
    scale = fmax(scale, fabs((double)r0[p]));
  }
  report("Pr_t = inf vs constant kappa", dim, 0, err, scale);
  nav_real *all[] = {u[0], u[1], u[2], T, nut, o0, o1};
  for (int i = 0; i < 7; i++) ops->free(all[i]);
  free(h);
  free(r0);
  free(r1);
  nav_box_destroy(ops, &b);
  for (int d = 0; d < dim; d++) nav_widths_free(w[d]);
}

int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "cpu";
  if (strcmp(name, "cpu") && nav_backend_device_count(name) == 0) {
    printf("test_heat_eddy: no %s device visible (or %s not built): skipped\n", name, name);
    return 77;
  }
  ops = nav_backend_get(name, 0);
  hk = ops ? nav_heat_kernels_of(ops) : NULL;
  if (!ops || !hk) {
    fprintf(stderr, "test_heat_eddy: backend %s or its heat table is missing\n", name);
    return 1;
  }
  for (int dim = 2; dim <= 3; dim++) {
    manufactured(dim, 0);
    manufactured(dim, dim == 3 ? 63 : 27);
    manufactured(dim, 1 << 1 | 1 << 3); /* y high and x low only */
    no_eddy(dim);
  }
  printf("test_heat_eddy (%s): %d checks, %d failed (<= %.0e relative)\n", name, checks, failures, TOL);
  return failures ? 1 : 0;
}
