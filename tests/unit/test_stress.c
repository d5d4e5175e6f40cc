/* The stress-form viscous term of nav_point_viscous.h on the CPU backend against the exact value
 * for a velocity linear in x (gradient A, A_cd = du_c/dx_d) and a linear eddy viscosity
 * nu + nu_t = nu + v0 + g . x on uniform 2D and 3D grids, where second-order differences are exact:
 *   V_diag_c = sum_d g_d A_cd,   V_cross_c = sum_d g_d A_dc   (at every interior face).
 * Also face_viscosity (= nu + nu_t at the face, exact for a linear nu_t) and the Helmholtz form of
 * the laplacian kernel on the staggered box: with shift 0 and kc = the face viscosity it equals
 * V_diag. Every value within 1e-11 relative (1e-4 in single precision).
 * The one-pass predictor with the face viscosities made from the cells (advance_stress with kf = NULL,
 * nav_stress_cells) on a stretched grid with random fields: bit for bit the predictor on the face arrays filled
 * as nav_diffusion_viscosity_changed fills them (face_viscosity, the ghosts of nu_t and of each k_c by the
 * pressure's rules, periodic or zero-gradient, then k_c reflected about the component's low boundary face, and
 * across a wall where nu_t vanishes 2 nu - k_c), for every set of periodic directions, with no walls, walls at
 * every other face, and walls at the low faces only; there the mean of k_c at the wall is nu (1e-15; FP32 1e-6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_viscous.h"
#include "backend/nav_kernels.h"
#include "backend/nav_viscous_kernels.h"
#include "grid/nav_boundary.h"
#include "grid/nav_geometry.h"

#define TOL (sizeof(nav_real) == sizeof(double) ? 1e-11 : 1e-4)

static int checks, failures;

static void expect(const char *what, int dim, double got, double want) {
  checks++;
  if (fabs(got - want) <= TOL * fmax(1, fabs(want))) return;
  if (failures++ < 20) printf("%dD %s: got %.15g, want %.15g\n", dim, what, got, want);
}

static double rnd(void) {
  static unsigned long long x = 88172645463325252ull;
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

/* advance_stress on nut (kf = NULL) against advance_stress on the filled face arrays, bit for bit. */
static void test_cells(int dim) {
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  const int n[3] = {9, 7, dim == 3 ? 6 : 1}, g0[3] = {0, 0, 0};
  const nav_real nu = (nav_real)0.003;
  for (int variant = 0; variant < 3 << dim; variant++) {
    const int periodic = variant / 3, wv = variant % 3; /* wv: no walls, walls at every other face, low faces */
    int ends = periodic;
    for (int d = 0; d < dim; d++)
      for (int s = 0; s < 2; s++)
        if (!((periodic >> d) & 1) && (wv == 1 || (wv == 2 && s == 0))) ends |= NAV_ENDS_WALL(d, s);
    double *w[3] = {NULL, NULL, NULL};
    for (int d = 0; d < dim; d++) {
      w[d] = nav_widths_alloc(n[d]);
      for (int i = 0; i < n[d]; i++)
        w[d][i] = 0.1 * (1 + 0.4 * i + 0.1 * d); /* stretched */
      nav_widths_ghosts(w[d], n[d], (periodic >> d) & 1);
    }
    nav_box b;
    if (nav_box_create(ops, dim, n, g0, w, &b) != NAV_OK) exit(1);
    const size_t bytes = (size_t)b.ntot * sizeof(nav_real);
    nav_real *u[3] = {0}, *kf[3] = {0}, *rk[3] = {0}, *ok[3] = {0}, *rn[3] = {0}, *on[3] = {0};
    nav_real *nut = malloc(bytes);
    for (nav_idx p = 0; p < b.ntot; p++)
      nut[p] = (nav_real)(0.01 * (1 + rnd()));
    for (int c = 0; c < dim; c++) {
      nav_real **a[6] = {&u[c], &kf[c], &rk[c], &ok[c], &rn[c], &on[c]};
      for (int i = 0; i < 6; i++)
        *a[i] = malloc(bytes);
      for (nav_idx p = 0; p < b.ntot; p++)
        u[c][p] = (nav_real)rnd(), ok[c][p] = on[c][p] = (nav_real)rnd();
    }
    nav_scalar_bc bc[3][2]; /* the pressure's kinds: periodic or zero-gradient */
    for (int d = 0; d < 3; d++)
      bc[d][0] = bc[d][1] = (periodic >> d) & 1 ? NAV_SCALAR_PERIODIC : NAV_SCALAR_NEUMANN;
    int bad = nav_fill_scalar_ghosts(ops, &b, NULL, (const nav_scalar_bc(*)[2])bc, nut) != NAV_OK;
    bad |= nav_viscous_kernels_cpu.face_viscosity(&b, nu, nut, kf) != NAV_OK;
    for (int c = 0; c < dim; c++) {
      bad |= nav_fill_scalar_ghosts(ops, &b, NULL, (const nav_scalar_bc(*)[2])bc, kf[c]) != NAV_OK;
      if (!((periodic >> c) & 1)) bad |= ops->fill_ghost(&b, kf[c], c, 0, NAV_GHOST_REFLECT, 0, 0) != NAV_OK;
      for (int d = 0; d < dim; d++)
        for (int s = 0; s < 2; s++)
          if (d != c && (ends & NAV_ENDS_WALL(d, s)))
            bad |= ops->fill_ghost(&b, kf[c], d, s, NAV_GHOST_MIRROR, -1, 2 * nu) != NAV_OK;
    }
    double wall_mean = 0; /* the largest |(k_c inside + k_c ghost) / 2 - nu| / nu over the walls */
    for (int c = 0; c < dim; c++)
      for (int d = 0; d < dim; d++)
        for (int s = 0; s < 2; s++) {
          if (d == c || !(ends & NAV_ENDS_WALL(d, s))) continue;
          for (int k = 0; k < b.n[2]; k++)
            for (int j = 0; j < n[1]; j++)
              for (int i = 0; i < n[0]; i++) {
                const int ijk[3] = {i, j, k};
                if (ijk[d] != (s ? n[d] - 1 : 0)) continue;
                const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2], g = p + (s ? 1 : -1) * b.st[d];
                wall_mean = fmax(wall_mean, fabs(0.5 * ((double)kf[c][p] + (double)kf[c][g]) - nu) / nu);
              }
        }
    checks++;
    if (wall_mean > (sizeof(nav_real) == sizeof(double) ? 1e-15 : 1e-6)) {
      failures++;
      printf("%dD ends %d: the mean of k_c at a wall is nu + %.2e nu (ghost 2 nu - k_c)\n", dim, ends, wall_mean);
    }
    const nav_real a = (nav_real)0.013, cc = (nav_real)-0.004;
    bad |= nav_viscous_kernels_cpu.advance_stress(&b, u, kf, NULL, 0, 0, a, cc, rk, ok) != NAV_OK;
    bad |= nav_viscous_kernels_cpu.advance_stress(&b, u, NULL, nut, nu, ends, a, cc, rn, on) != NAV_OK;
    int differ = 0;
    for (int c = 0; c < dim; c++)
      for (int k = 0; k < b.n[2]; k++)
        for (int j = 0; j < n[1]; j++)
          for (int i = 0; i < n[0]; i++) {
            const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
            differ += memcmp(&rk[c][p], &rn[c][p], sizeof(nav_real)) != 0 ||
                      memcmp(&ok[c][p], &on[c][p], sizeof(nav_real)) != 0;
          }
    checks++;
    if (bad || differ) {
      failures++;
      printf("%dD advance_stress from the cells, ends %d: %d of the faces differ from the face arrays' "
             "(bits)%s\n",
             dim, ends, differ, bad ? ", a kernel failed" : "");
    }
    for (int c = 0; c < dim; c++) {
      nav_real *f[6] = {u[c], kf[c], rk[c], ok[c], rn[c], on[c]};
      for (int i = 0; i < 6; i++)
        free(f[i]);
    }
    free(nut);
    nav_box_destroy(ops, &b);
    for (int d = 0; d < dim; d++)
      nav_widths_free(w[d]);
  }
}

int main(void) {
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  test_cells(2);
  test_cells(3);
  const double A[3][3] = {{0.3, -1.2, 0.7}, {2.1, -0.4, 0.25}, {-0.6, 1.5, 0.1}};
  const double g[3] = {0.35, -0.2, 0.15}, v0 = 1.1, nu = 0.01;
  for (int dim = 2; dim <= 3; dim++) {
    const int n[3] = {7, 6, dim == 3 ? 5 : 1}, g0[3] = {0, 0, 0};
    const double len[3] = {1.4, 0.9, 1.1};
    double *w[3] = {NULL, NULL, NULL};
    for (int d = 0; d < dim; d++) {
      w[d] = nav_widths_alloc(n[d]);
      for (int i = 0; i < n[d]; i++) w[d][i] = len[d] / n[d];
      nav_widths_ghosts(w[d], n[d], 0);
    }
    nav_box b;
    if (nav_box_create(ops, dim, n, g0, w, &b) != NAV_OK) return 1;
    nav_real *u[3] = {0}, *r[3] = {0}, *kf[3] = {0}, *kw[3] = {0}, *nut = calloc((size_t)b.ntot, sizeof *nut);
    for (int c = 0; c < dim; c++) {
      u[c] = calloc((size_t)b.ntot, sizeof(nav_real));
      r[c] = calloc((size_t)b.ntot, sizeof(nav_real));
      kf[c] = calloc((size_t)b.ntot, sizeof(nav_real));
      kw[c] = calloc((size_t)b.ntot, sizeof(nav_real));
    }
    /* every point, ghosts included: u_c at its faces, nu_t at the cells, k_c = nu + nu_t at the faces */
    const int nk = dim == 3 ? n[2] : 0;
    for (int k = dim == 3 ? -1 : 0; k <= nk; k++)
      for (int j = -1; j <= n[1]; j++)
        for (int i = -1; i <= n[0]; i++) {
          const int ijk[3] = {i, j, k};
          const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
          double xc[3] = {0, 0, 0};
          for (int d = 0; d < dim; d++) xc[d] = (ijk[d] + 0.5) * len[d] / n[d];
          double t = v0;
          for (int d = 0; d < dim; d++) t += g[d] * xc[d];
          nut[p] = (nav_real)t;
          for (int c = 0; c < dim; c++) {
            double x[3] = {xc[0], xc[1], xc[2]}, v = 0, kv = nu + v0;
            x[c] -= 0.5 * len[c] / n[c];
            for (int d = 0; d < dim; d++) {
              v += A[c][d] * x[d];
              kv += g[d] * x[d];
            }
            u[c][p] = (nav_real)v;
            kw[c][p] = (nav_real)kv;
            kf[c][p] = (nav_real)kv; /* ghosts as the exact field; the interior from the kernel */
          }
        }
    if (nav_viscous_kernels_cpu.face_viscosity(&b, (nav_real)nu, nut, kf) != NAV_OK) return 1;
    for (int c = 0; c < dim; c++)
      for (nav_idx p = 0; p < b.ntot; p++) expect("face_viscosity", dim, kf[c][p], kw[c][p]);
    for (int part = 1; part <= 3; part++) {
      for (int c = 0; c < dim; c++) memset(r[c], 0, (size_t)b.ntot * sizeof(nav_real));
      if (nav_viscous_kernels_cpu.stress(&b, u, kf, part, 2, r) != NAV_OK) return 1;
      for (int c = 0; c < dim; c++) {
        double want = 0;
        for (int d = 0; d < dim; d++)
          want += ((part & NAV_STRESS_DIAG) ? g[d] * A[c][d] : 0) + ((part & NAV_STRESS_CROSS) ? g[d] * A[d][c] : 0);
        char what[64];
        snprintf(what, sizeof what, "stress part %d, component %d", part, c);
        for (int k = 0; k < b.n[2]; k++)
          for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++) expect(what, dim, r[c][b.off + i * b.st[0] + j * b.st[1] + k * b.st[2]],
                                                 2 * want);
      }
    }
    /* V_diag = the Helmholtz operator (shift 0, kc = k_c) on the staggered box of c: the control volumes
     * of the faces (uniform grid: the same widths), here checked against the stress kernel */
    for (int c = 0; c < dim; c++) {
      for (int e = 0; e < dim; e++) memset(r[e], 0, (size_t)b.ntot * sizeof(nav_real));
      if (nav_viscous_kernels_cpu.stress(&b, u, kf, NAV_STRESS_DIAG, 1, r) != NAV_OK) return 1;
      nav_box h = b;
      h.kc = kf[c];
      nav_real *y = calloc((size_t)b.ntot, sizeof *y);
      if (ops->laplacian(&h, u[c], y) != NAV_OK) return 1;
      for (int k = 0; k < b.n[2]; k++)
        for (int j = 0; j < n[1]; j++)
          for (int i = 0; i < n[0]; i++) {
            const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
            expect("helmholtz laplacian = V_diag", dim, y[p], r[c][p]);
          }
      free(y);
    }
    for (int c = 0; c < dim; c++) {
      free(u[c]);
      free(r[c]);
      free(kf[c]);
      free(kw[c]);
    }
    free(nut);
    nav_box_destroy(ops, &b);
    for (int d = 0; d < dim; d++) nav_widths_free(w[d]);
  }
  printf("test_stress: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
