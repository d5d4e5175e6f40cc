/* CPU backend: the eddy viscosity of the LES closures. The formulas are in common/nav_point_les.h. */
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_les_kernels.h"

static nav_err nav_les_nut_cells_cpu(const nav_box *box, nav_real *const *u, const nav_real *wd, const nav_real *wi,
                                     const nav_les_params *a, const nav_real *u_tau, nav_real *nut) {
  const nav_real *const *uc = (const nav_real *const *)u;
  const nav_les_params prm = *a;
  NAV_CPU_LOOP(box, , { nut[p] = nav_les_cell(b, uc, wd, wi, &prm, u_tau, prm.kind, p, ijk); });
  return NAV_OK;
}

/* No u_tau entry: the model forms u_tau on the host (there is no wait to save). */
const nav_les_kernels nav_les_kernels_cpu = {
    .nut_cells = nav_les_nut_cells_cpu,
};
