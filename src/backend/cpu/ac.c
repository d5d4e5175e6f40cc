/* CPU backend: the pseudo-time updates of artificial compressibility. The formulas are in
 * common/nav_point_ac.h. */
#include <math.h>

#include "backend/common/nav_point_ac.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_ac_kernels.h"

static nav_err nav_ac_momentum_cpu(const nav_box *box, nav_real *const *u, nav_real *const *u0, nav_real *const *rhs,
                                   const nav_real *q, const nav_ac_params *a, double *res_max) {
  const nav_real *const *u0c = (const nav_real *const *)u0;
  const nav_ac_params ap = *a;
  double m = 0;
  for (int c = 0; c < box->dim; c++) {
    nav_real *x = u[c];
    const nav_real *x0 = u0[c], *r = rhs[c];
    NAV_CPU_LOOP(box, reduction(max : m), {
      if (!nav_ac_boundary_face(c, ijk, &ap)) {
        const nav_real res = r[p] - nav_gradient(b, c, q, p, ijk);
        x[p] = x0[p] + ap.alpha * nav_ac_dtau_face(b, c, u0c, p, ijk, &ap) * res;
        const double ar = fabs((double)res);
        m = ar > m ? ar : m;
      }
    });
  }
  if (res_max) *res_max = m;
  return NAV_OK;
}

static nav_err nav_ac_cells_cpu(const nav_box *box, nav_real *const *u, nav_real *const *u0, nav_real *q, const nav_real *q0,
                                const nav_real *fp, nav_real *T, const nav_real *T0, const nav_real *rhs_T, const nav_ac_params *a,
                                double *res_max) {
  const nav_real *const *uc = (const nav_real *const *)u, *const *u0c = (const nav_real *const *)u0;
  const nav_ac_params ap = *a;
  double md = 0, mt = 0;
  NAV_CPU_LOOP(box, reduction(max : md, mt), {
    const nav_real dtau = ap.alpha * ap.cfl / nav_ac_rate(b, u0c, p, ijk, &ap);
    const nav_real div = nav_divergence(b, uc, p, ijk) - (fp ? fp[p] : 0);
    q[p] = q0[p] - dtau * nav_ac_beta2(b, u0c, p, &ap) * div;
    const double ad = fabs((double)div);
    md = ad > md ? ad : md;
    if (T) {
      T[p] = T0[p] + dtau * rhs_T[p];
      const double at = fabs((double)rhs_T[p]);
      mt = at > mt ? at : mt;
    }
  });
  if (res_max) {
    res_max[0] = md;
    res_max[1] = mt;
  }
  return NAV_OK;
}

static nav_err nav_ac_dissipation_cpu(const nav_box *box, nav_real *const *u, const nav_real *T, nav_real coef, nav_real *const *rhs,
                                      nav_real *rhs_T) {
  const nav_real *const *uc = (const nav_real *const *)u;
  for (int c = 0; c < box->dim; c++) {
    nav_real *r = rhs[c];
    NAV_CPU_LOOP(box, , { r[p] += nav_ac_dissipation(b, c, uc, p, ijk, coef); });
  }
  if (T) NAV_CPU_LOOP(box, , { rhs_T[p] += nav_ac_dissipation_cell(b, uc, T, p, ijk, coef); });
  return NAV_OK;
}

static nav_err nav_ac_restrict_faces_cpu(const nav_box *fine, nav_real *const *u, const nav_box *coarse, nav_real *const *uc) {
  for (int c = 0; c < coarse->dim; c++) {
    const nav_real *x = u[c];
    nav_real *y = uc[c];
    NAV_CPU_LOOP(coarse, , { y[p] = nav_ac_restrict_face(fine, c, x, ijk); });
  }
  return NAV_OK;
}

static nav_err nav_ac_prolong_faces_add_cpu(const nav_box *coarse, nav_real *const *ec, const nav_box *fine, nav_real *const *u) {
  for (int c = 0; c < fine->dim; c++) {
    const nav_real *e = ec[c];
    nav_real *x = u[c];
    NAV_CPU_LOOP(fine, , { x[p] += nav_ac_prolong_face(coarse, c, e, b, ijk); });
  }
  return NAV_OK;
}

static nav_err nav_ac_u_ref_cpu(const nav_box *box, nav_real *const *u, double u_fixed, double u_floor, nav_real *u_ref2) {
  double m = 0;
  for (int c = 0; c < box->dim; c++) {
    const nav_real *x = u[c];
    NAV_CPU_LOOP(box, reduction(max : m), {
      const double ax = fabs((double)x[p]);
      m = ax > m ? ax : m;
    });
  }
  *u_ref2 = nav_ac_u_ref2(m, u_fixed, u_floor);
  return NAV_OK;
}

/* The ac table of this backend (registered in backend/nav_backend.c). */
const nav_ac_kernels nav_ac_kernels_cpu = {
    .ac_momentum = nav_ac_momentum_cpu,
    .ac_cells = nav_ac_cells_cpu,
    .ac_dissipation = nav_ac_dissipation_cpu,
    .ac_restrict_faces = nav_ac_restrict_faces_cpu,
    .ac_prolong_faces_add = nav_ac_prolong_faces_add_cpu,
    .ac_u_ref = nav_ac_u_ref_cpu,
};
