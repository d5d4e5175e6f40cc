/* CPU backend: viscosity at the faces, the stress-form viscous term (common/nav_point_viscous.h) and the
 * explicit predictor with it in one pass (advance_stress; advection and the update of common/nav_point_flow.h). */
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_viscous.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_viscous_kernels.h"

static nav_err nav_face_viscosity_cpu(const nav_box *box, nav_real nu, const nav_real *nut, nav_real *const *kf) {
  NAV_CPU_LOOP(box, , {
    for (int c = 0; c < b->dim; c++) kf[c][p] = nav_face_viscosity(b, c, nu, nut, p, ijk);
  });
  return NAV_OK;
}

static nav_err nav_stress_cpu(const nav_box *box, nav_real *const *u, nav_real *const *kf, int part, nav_real scale,
                              nav_real *const *rhs) {
  const nav_real *const *uc = (const nav_real *const *)u;
  for (int c = 0; c < box->dim; c++) {
    nav_real *out = rhs[c];
    const nav_real *kc = kf ? kf[c] : NULL;
    NAV_CPU_LOOP(box, , { out[p] += scale * nav_stress(b, c, uc, kc, part, p, ijk); });
  }
  return NAV_OK;
}

/* Per point the operations of momentum_rhs (nu = 0: -A), stress (both parts, scale 1) and advance, in that
 * order (nav_viscous_kernels.h); one component after the other, as those kernels. */
static nav_err nav_advance_stress_cpu(const nav_box *box, nav_real *const *u, nav_real *const *kf, const nav_real *nut,
                                      nav_real nu, int ends, nav_real a, nav_real c, nav_real *const *rhs,
                                      nav_real *const *rhs_old) {
  const nav_real *const *uc = (const nav_real *const *)u;
  const nav_real scale = 1; /* the unfused path's: V added once */
  const int old = c != 0, both = NAV_STRESS_DIAG | NAV_STRESS_CROSS;
  for (int d = 0; d < box->dim; d++) {
    nav_real *out = rhs[d], *ro = rhs_old[d];
    const nav_real *x = u[d], *kc = kf ? kf[d] : NULL;
    NAV_CPU_LOOP(box, , {
      nav_real n = -nav_advection(b, d, uc, p, ijk);
      n += scale *
           (kc ? nav_stress(b, d, uc, kc, both, p, ijk) : nav_stress_cells(b, d, uc, nu, nut, ends, both, p, ijk));
      out[p] = n;
      ro[p] = nav_ab2(x[p], a, n, c, old ? ro[p] : 0, old);
    });
  }
  return NAV_OK;
}

/* The viscous table of this backend (registered in backend/nav_backend.c). */
const nav_viscous_kernels nav_viscous_kernels_cpu = {
    .face_viscosity = nav_face_viscosity_cpu,
    .stress = nav_stress_cpu,
    .advance_stress = nav_advance_stress_cpu,
};
