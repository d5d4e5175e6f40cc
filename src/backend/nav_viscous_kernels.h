/* The kernels of the variable viscosity nu + nu_t in stress form (solvers/nav_diffusion.c): point
 * formulas in common/nav_point_viscous.h.
 * A table beside the core table (nav_kernels.h): implemented by backend/cpu and backend/cuda in files
 * of the same name, registered in backend/nav_backend.c, found with nav_viscous_kernels_of. Conventions as in
 * nav_kernels.h (backend memory, nav_box by host pointer, local results). */
#ifndef NAV_VISCOUS_KERNELS_H
#define NAV_VISCOUS_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_viscous_kernels {
  /* kf[c] = nu + nu_t interpolated to the interior faces of every component c < dim, in one pass; nut
   * cell-centred, ghosts filled */
  nav_err (*face_viscosity)(const nav_box *b, nav_real nu, const nav_real *nut, nav_real *const *kf);
  /* rhs_c += scale * (the parts `part` of the stress-form viscous term V_c) at the interior faces of
   * every component, with kf[c] the viscosity at the faces of c (ghosts filled); kf == NULL: k = 1 */
  nav_err (*stress)(const nav_box *b, nav_real *const *u, nav_real *const *kf, int part, nav_real scale,
                    nav_real *const *rhs);
  /* The explicit predictor with an eddy viscosity in one pass, the contract of the core table's momentum_advance
   * (nav_kernels.h) with N_c = -nav_advection(u) + 1 * nav_stress(u, kf[c], NAV_STRESS_DIAG |
   * NAV_STRESS_CROSS): at the interior faces of every component rhs_c = N and rhs_old_c = nav_ab2(u_c, a, N, c,
   * rhs_old_c, c != 0), u unchanged; bit for bit what momentum_rhs (nu = 0: 0 lap - A = -A), stress (both parts,
   * scale 1) and advance put in rhs and u. kf as for stress, or NULL: the face viscosities from the cells instead
   * (nut, ghosts filled, and nu: nav_stress_cells, for a block without halo faces whose faces are periodic or
   * zero-gradient, and the walls where nu_t vanishes: `ends`, common/nav_point_viscous.h), the same values as kf
   * filled by nav_diffusion_viscosity_changed; u and kf need filled ghosts; u, rhs and rhs_old are distinct arrays. */
  nav_err (*advance_stress)(const nav_box *b, nav_real *const *u, nav_real *const *kf, const nav_real *nut, nav_real nu,
                            int ends, nav_real a, nav_real c, nav_real *const *rhs, nav_real *const *rhs_old);
} nav_viscous_kernels;

NAV_KERNEL_TABLE(nav_viscous_kernels, "viscous")

#ifdef __cplusplus
}
#endif

#endif
