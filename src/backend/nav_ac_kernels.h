/* The kernels of artificial compressibility (solvers/nav_ac.c, the pseudo-time march of steady
 * flows): point formulas in common/nav_point_ac.h.
 * A model's own kernel table beside the core table (nav_kernels.h): implemented by backend/cpu and
 * backend/cuda in files of the same name, registered in backend/nav_backend.c, found with
 * nav_ac_kernels_of. Conventions as in nav_kernels.h (backend memory, nav_box by host pointer, local
 * results). */
#ifndef NAV_AC_KERNELS_H
#define NAV_AC_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of the artificial-compressibility updates (common/nav_point_ac.h). */
typedef struct nav_ac_params nav_ac_params;

typedef struct nav_ac_kernels {
  /* one stage x = x0 + alpha dtau R of the pseudo-time march, local dtau from u0 (ghosts filled), a is a
   * HOST struct (its u_ref2 points to backend memory). ac_momentum: u_c = u0_c + alpha dtau (rhs_c - grad_c p) at the interior faces but the
   * physical boundary faces, *res_max = max |rhs_c - grad_c p| there (if not NULL); p needs filled
   * ghosts. ac_cells: p = p0 - alpha dtau beta^2 (div u - fp) (fp: a forcing, NULL = 0) and, if T !=
   * NULL, T = T0 + alpha dtau rhs_T at the interior cells; res_max[0] = max |div u - fp|, res_max[1] =
   * max |rhs_T| (0 without T), if res_max != NULL. ac_restrict_faces: uc_c = the area-weighted average
   * of the fine faces of each interior coarse face (even fine counts); ac_prolong_faces_add: u_c +=
   * linear interpolation of the coarse ec_c (ghosts filled) at the interior fine faces, every
   * component. */
  nav_err (*ac_momentum)(const nav_box *b, nav_real *const *u, nav_real *const *u0, nav_real *const *rhs,
                         const nav_real *p, const nav_ac_params *a, double *res_max);
  nav_err (*ac_cells)(const nav_box *b, nav_real *const *u, nav_real *const *u0, nav_real *p, const nav_real *p0,
                      const nav_real *fp, nav_real *T, const nav_real *T0, const nav_real *rhs_T, const nav_ac_params *a,
                      double *res_max);
  /* ac_dissipation: rhs_c += nav_ac_dissipation(k) at the interior faces of every component and, if
   * T != NULL, rhs_T += nav_ac_dissipation_cell(k) at the interior cells (the coarse levels of the
   * pseudo-time multigrid); u and T need filled ghosts */
  nav_err (*ac_dissipation)(const nav_box *b, nav_real *const *u, const nav_real *T, nav_real k, nav_real *const *rhs,
                            nav_real *rhs_T);
  nav_err (*ac_restrict_faces)(const nav_box *fine, nav_real *const *u, const nav_box *coarse, nav_real *const *uc);
  nav_err (*ac_prolong_faces_add)(const nav_box *coarse, nav_real *const *ec, const nav_box *fine, nav_real *const *u);
  /* ac_u_ref: *u_ref2 = nav_ac_u_ref2(umax, u_fixed, u_floor), umax = the largest |u_c| at the interior points
   * of b over every component (this rank's block alone: one rank), u_ref2 backend memory. Ordered like a kernel,
   * with no host wait: a recorded graph (nav_kernels.h graph_*) can hold it. */
  nav_err (*ac_u_ref)(const nav_box *b, nav_real *const *u, double u_fixed, double u_floor, nav_real *u_ref2);
} nav_ac_kernels;

NAV_KERNEL_TABLE(nav_ac_kernels, "ac")

#ifdef __cplusplus
}
#endif

#endif
