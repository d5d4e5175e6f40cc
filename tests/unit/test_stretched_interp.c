/* The interpolation weights wf of a stretched box (nav_box.h: a cell-centred q at face i is
 * (1 - wf) q_{i-1} + wf q_i, wf = (face_i - centre_{i-1}) / (centre_i - centre_{i-1})) through the
 * kernels that use them, on a 2D grid whose widths grow by 1.3 (x) and shrink by 1/1.25 (y) per cell,
 * with fields for which the interpolated values are exact (linear in the interpolation direction)
 * and every other factor constant:
 *   momentum_rhs, nu = 0, u = 1, v = x_centre:  the v flux d(u v)/dx at the x faces -> N_v = -1;
 *   momentum_rhs, nu = 0, v = 1, u = y_centre:  the u flux d(v u)/dy at the y faces -> N_u = -1;
 *   scalar_rhs, kappa = 0, u = 1, v = 0, T = x_centre: -d(u T)/dx = -1; (u = 0, v = 1, T = y_centre: -1);
 *   buoyancy, coef = (1, 1), T = x_centre + y_centre, t_ref 0: -(T at the face), the face
 *     coordinate in the direction of the component plus the centre coordinate in the other.
 * With wf = 1/2 (the midpoint of the two centres) each is off by a fraction of the width ratio at
 * every face: mutation metric_wf_half (tests/mutations). Every value within 1e-12 relative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_heat_kernels.h"
#include "backend/nav_kernels.h"
#include "grid/nav_geometry.h"

static int checks, failures;

static void expect(const char *what, int i, int j, double got, double want) {
  checks++;
  if (fabs(got - want) <= 1e-12 * fmax(1, fabs(want))) return;
  if (failures++ < 20) printf("%s at (%d, %d): got %.15g, want %.15g\n", what, i, j, got, want);
}

int main(void) {
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  const int n[3] = {9, 8, 1}, g0[3] = {0, 0, 0};
  const double ratio[2] = {1.3, 1 / 1.25}, first[2] = {0.05, 0.2};
  double *w[3] = {NULL, NULL, NULL}, *face[2], *centre[2];
  for (int d = 0; d < 2; d++) {
    w[d] = nav_widths_alloc(n[d]);
    for (int i = 0; i < n[d]; i++) w[d][i] = first[d] * pow(ratio[d], i);
    nav_widths_ghosts(w[d], n[d], 0);
    /* face i (i = -1..n+1) and centre i (i = -1..n) from the widths, ghosts included; index + 1 */
    face[d] = malloc((size_t)(n[d] + 3) * sizeof(double));
    centre[d] = malloc((size_t)(n[d] + 2) * sizeof(double));
    face[d][1] = 0;
    for (int i = 0; i <= n[d]; i++) face[d][i + 2] = face[d][i + 1] + w[d][i];
    face[d][0] = -w[d][-1];
    for (int i = -1; i <= n[d]; i++) centre[d][i + 1] = face[d][i + 1] + 0.5 * w[d][i];
  }
  nav_box b;
  if (nav_box_create(ops, 2, n, g0, w, &b) != NAV_OK) return 1;
  nav_real *u[3] = {0}, *r[3] = {0}, *T = calloc((size_t)b.ntot, sizeof *T), *s = calloc((size_t)b.ntot, sizeof *s);
  for (int c = 0; c < 2; c++) {
    u[c] = calloc((size_t)b.ntot, sizeof(nav_real));
    r[c] = calloc((size_t)b.ntot, sizeof(nav_real));
  }
#define AT(i, j) (b.off + (nav_idx)(i) * b.st[0] + (nav_idx)(j) * b.st[1])
  for (int c = 0; c < 2; c++) { /* c: the direction of the interpolation checked */
    const int o = 1 - c;
    /* u_o = 1, u_c = the centre coordinate along o (on the faces of c: cell-centred along o) */
    for (int j = -1; j <= n[1]; j++)
      for (int i = -1; i <= n[0]; i++) {
        const int ij[2] = {i, j};
        u[o][AT(i, j)] = 1;
        u[c][AT(i, j)] = (nav_real)centre[o][ij[o] + 1];
      }
    for (int e = 0; e < 2; e++) memset(r[e], 0, (size_t)b.ntot * sizeof(nav_real));
    if (ops->momentum_rhs(&b, u, 0, r) != NAV_OK) return 1;
    for (int j = 1; j < n[1] - 1; j++)
      for (int i = 1; i < n[0] - 1; i++)
        expect(c ? "momentum_rhs v (interpolation along x)" : "momentum_rhs u (interpolation along y)", i, j,
               r[c][AT(i, j)], -1);
    /* the temperature flux along o: u_o = 1, u_c = 0, T = the centre coordinate along o */
    for (int j = -1; j <= n[1]; j++)
      for (int i = -1; i <= n[0]; i++) {
        const int ij[2] = {i, j};
        u[c][AT(i, j)] = 0;
        T[AT(i, j)] = (nav_real)centre[o][ij[o] + 1];
      }
    memset(s, 0, (size_t)b.ntot * sizeof(nav_real));
    if (nav_heat_kernels_cpu.scalar_rhs(&b, u, T, 0, NULL, 0, 0, s) != NAV_OK) return 1;
    for (int j = 1; j < n[1] - 1; j++)
      for (int i = 1; i < n[0] - 1; i++)
        expect(o ? "scalar_rhs (interpolation along y)" : "scalar_rhs (interpolation along x)", i, j, s[AT(i, j)], -1);
  }
  /* buoyancy: T = x + y at the centres; at the face (i, j) of component c: face coordinate along c */
  for (int j = -1; j <= n[1]; j++)
    for (int i = -1; i <= n[0]; i++) T[AT(i, j)] = (nav_real)(centre[0][i + 1] + centre[1][j + 1]);
  for (int e = 0; e < 2; e++) memset(r[e], 0, (size_t)b.ntot * sizeof(nav_real));
  const nav_real coef[3] = {1, 1, 0};
  if (nav_heat_kernels_cpu.buoyancy(&b, T, coef, 0, r) != NAV_OK) return 1;
  for (int j = 1; j < n[1]; j++)
    for (int i = 1; i < n[0]; i++) {
      expect("buoyancy on the u faces", i, j, r[0][AT(i, j)], -(face[0][i + 1] + centre[1][j + 1]));
      expect("buoyancy on the v faces", i, j, r[1][AT(i, j)], -(centre[0][i + 1] + face[1][j + 1]));
    }
#undef AT
  for (int c = 0; c < 2; c++) {
    free(u[c]);
    free(r[c]);
  }
  free(T);
  free(s);
  nav_box_destroy(ops, &b);
  for (int d = 0; d < 2; d++) {
    nav_widths_free(w[d]);
    free(face[d]);
    free(centre[d]);
  }
  printf("test_stretched_interp: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
