/* The kernels of a transported temperature and its Boussinesq force (physics/heat; the pseudo-time
 * march of artificial compressibility): point formulas in common/nav_point_scalar.h.
 * A model's own kernel table beside the core table (nav_kernels.h): implemented by backend/cpu and
 * backend/cuda in files of the same name, registered in backend/nav_backend.c, found with
 * nav_heat_kernels_of. Conventions as in nav_kernels.h (backend memory, nav_box by host pointer, local
 * results). */
#ifndef NAV_HEAT_KERNELS_H
#define NAV_HEAT_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_heat_kernels {
  /* rhs = div(k grad T) - div(u T) at the interior cells, k = kappa (nut == NULL) or kappa + nu_t,face / Pr_t with
   * rprt = 1 / Pr_t and nut the cell-centred eddy viscosity (ghosts filled), no eddy part on the sides of bnd
   * (nav_point_scalar.h); u and T need filled ghosts */
  nav_err (*scalar_rhs)(const nav_box *b, nav_real *const *u, const nav_real *T, nav_real kappa, const nav_real *nut,
                        nav_real rprt, int bnd, nav_real *rhs);
  /* rhs_c += -coef[c] (T at face - t_ref) at the interior faces of every component c with coef[c] != 0;
   * coef is a HOST array of 3; T needs filled ghosts */
  nav_err (*buoyancy)(const nav_box *b, const nav_real *T, const nav_real *coef, nav_real t_ref,
                      nav_real *const *rhs);
} nav_heat_kernels;

NAV_KERNEL_TABLE(nav_heat_kernels, "heat")

#ifdef __cplusplus
}
#endif

#endif
