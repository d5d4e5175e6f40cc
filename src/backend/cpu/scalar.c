/* CPU backend: right-hand side of the temperature equation and the Boussinesq force. The
 * formulas are in common/nav_point_scalar.h. */
#include "backend/common/nav_point_scalar.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_heat_kernels.h"

static nav_err nav_scalar_rhs_cpu(const nav_box *box, nav_real *const *u, const nav_real *T, nav_real kappa,
                                  const nav_real *nut, nav_real rprt, int bnd, nav_real *rhs) {
  const nav_real *const *uc = (const nav_real *const *)u;
  NAV_CPU_LOOP(box, , { rhs[p] = nav_scalar_rhs(b, uc, T, kappa, nut, rprt, bnd, p, ijk); });
  return NAV_OK;
}

static nav_err nav_buoyancy_cpu(const nav_box *box, const nav_real *T, const nav_real *coef, nav_real t_ref,
                                nav_real *const *rhs) {
  for (int c = 0; c < box->dim; c++) {
    if (coef[c] == 0) continue;
    nav_real *out = rhs[c];
    const nav_real bc = coef[c];
    NAV_CPU_LOOP(box, , { out[p] += nav_buoyancy(b, c, T, bc, t_ref, p, ijk); });
  }
  return NAV_OK;
}

/* The heat table of this backend (registered in backend/nav_backend.c). */
const nav_heat_kernels nav_heat_kernels_cpu = {
    .scalar_rhs = nav_scalar_rhs_cpu,
    .buoyancy = nav_buoyancy_cpu,
};
