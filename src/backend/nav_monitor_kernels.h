/* The kernels of the turbulence monitors (solvers/nav_dissipation.c; the modelled dissipation of an eddy
 * viscosity: physics/turbulence/nav_les.c): point formulas in
 * common/nav_point_monitor.h.
 * A table beside the core table (nav_kernels.h): implemented by backend/cpu and backend/cuda in files
 * of the same name, registered in backend/nav_backend.c, found with nav_monitor_kernels_of. Conventions as
 * in nav_kernels.h (backend memory, nav_box by host pointer, local results). */
#ifndef NAV_MONITOR_KERNELS_H
#define NAV_MONITOR_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_monitor_kernels {
  /* sum[0] = sum of 2 S:S dV, sum[1] = sum of |omega|^2/2 dV over the block (nav_point_monitor.h); bit d
   * (3 + d) of bnd: the block's high (low) side along d is a non-periodic face of the global grid; u needs
   * filled ghosts */
  nav_err (*monitor_sums)(const nav_box *b, nav_real *const *u, int bnd, double sum[2]);
  /* *sum = the eddy viscosity's share of the energy that the stress-form viscous operator removes, sum over the
   * block of its terms with k - nu (nav_point_monitor.h): kf[c] = nu + nu_t at the faces of component c as the
   * operator reads them (ghosts filled), nu the molecular viscosity; bnd and u as for monitor_sums */
  nav_err (*eddy_sum)(const nav_box *b, nav_real *const *u, nav_real *const *kf, nav_real nu, int bnd, double *sum);
} nav_monitor_kernels;

NAV_KERNEL_TABLE(nav_monitor_kernels, "monitor")

#ifdef __cplusplus
}
#endif

#endif
