/* CPU backend: inflow and outflow faces (ghosts from the plane arrays, the convective outflow
 * update, face integrals) and the sum over the faces of one component. The formulas are in
 * common/nav_point_open.h and common/nav_point_flow.h. */
#include "backend/common/nav_point_boundary.h"
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_open.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_open_kernels.h"
#include "core/nav_error.h"

/* The face plane of dir: t0, t1 and the range of q (ghost rows included when ghosts != 0). */
static void nav_open_plane(const nav_box *b, int dir, int ghosts, int *t0, int *t1, int *lo1, int *hi1) {
  nav_face_plane(b, dir, t0, t1);
  *lo1 = b->dim == 3 ? -ghosts : 0;
  *hi1 = b->dim == 3 ? b->n[*t1] - 1 + ghosts : 0;
}

static nav_err nav_fill_ghost_plane_cpu(const nav_box *b, nav_real *x, int dir, int side, int normal, const nav_real *plane) {
  int t0, t1, lo1, hi1;
  nav_open_plane(b, dir, 1, &t0, &t1, &lo1, &hi1);
#pragma omp parallel for schedule(static) if ((long)(b->n[t0] + 2) * (hi1 - lo1 + 1) >= 8192)
  for (int q = lo1; q <= hi1; q++)
    for (int r = -1; r <= b->n[t0]; r++) nav_fill_plane_point(b, x, dir, side, normal, plane, t0, r, t1, q);
  return NAV_OK;
}

static nav_err nav_outflow_update_cpu(const nav_box *b, const nav_real *x, int dir, int side, int normal, nav_real rate,
                                      nav_real shift, nav_real *plane) {
  int t0, t1, lo1, hi1;
  nav_open_plane(b, dir, 1, &t0, &t1, &lo1, &hi1);
#pragma omp parallel for schedule(static) if ((long)(b->n[t0] + 2) * (hi1 - lo1 + 1) >= 8192)
  for (int q = lo1; q <= hi1; q++)
    for (int r = -1; r <= b->n[t0]; r++) nav_outflow_point(b, x, dir, side, normal, rate, shift, plane, t0, r, t1, q);
  return NAV_OK;
}

nav_err nav_face_integral_cpu(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                              const int *what, double *sums) {
  int t0, t1, lo1, hi1;
  nav_open_plane(b, dir, 0, &t0, &t1, &lo1, &hi1);
  for (int k = 0; k < n; k++) {
    double part[NAV_CPU_THREADS_MAX];
    int nt = 1;
    sums[k] = 0;
#pragma omp parallel if ((long)b->n[t0] * (hi1 - lo1 + 1) >= 8192) num_threads(nav_cpu_sum_threads())
    {
      double s = 0;
#pragma omp for schedule(static)
      for (int q = lo1; q <= hi1; q++)
        for (int r = 0; r < b->n[t0]; r++)
          s += (double)nav_face_integrand(b, x[k], dir, side[k], what[k], t0, r, t1, q);
      nav_cpu_keep_partials(part, &nt, 1, &s);
    }
    nav_cpu_add_partials(part, nt, 1, &sums[k]);
  }
  return NAV_OK;
}

nav_err nav_face_integral_to_cpu(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                                 const int *what, double *const *out) {
  double sums[NAV_FACE_INTEGRALS_MAX];
  NAV_CHECK(n >= 1 && n <= NAV_FACE_INTEGRALS_MAX, NAV_ERR_INTERNAL, "face_integral_to: %d sums (1 to %d)", n,
            NAV_FACE_INTEGRALS_MAX);
  NAV_CALL(nav_face_integral_cpu(b, dir, n, x, side, what, sums));
  for (int k = 0; k < n; k++)
    *out[k] = sums[k];
  return NAV_OK;
}

nav_err nav_face_sum_cpu(const nav_box *b, const nav_real *x, int c, double *sum) {
  *sum = 0;
  NAV_CPU_SUM_CELLS(b, , 1, s, sum, { s[0] += (double)x[p] * (double)nav_volume(b, c, ijk); });
  return NAV_OK;
}

/* The open table of this backend (registered in backend/nav_backend.c). */
const nav_open_kernels nav_open_kernels_cpu = {
    .fill_ghost_plane = nav_fill_ghost_plane_cpu,
    .outflow_update = nav_outflow_update_cpu,
};
