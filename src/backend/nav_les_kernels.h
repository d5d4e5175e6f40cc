/* The kernel table of the LES closures (physics/turbulence/nav_les.h): the model's own table beside the
 * core's nav_kernel_ops, implemented by backend/cpu/les.c and backend/cuda/les.cu and chosen by the
 * name of the core table (nav_les_kernels.c, the only place that knows which were built). The formulas
 * are in common/nav_point_les.h. */
#ifndef NAV_LES_KERNELS_H
#define NAV_LES_KERNELS_H

#include "backend/common/nav_point_les.h"
#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_les_kernels {
  /* nut = nu_t of the closure a (a HOST struct) at the interior cells from u (ghosts filled, edges
   * too); wd, wi: per direction d and cell i of the block along it (n[0] + n[1] + n[2] entries), the
   * distance to the nearer wall face of d and that face 2 d + s (< 0: none), or NULL (no damping):
   * nav_les_nearest_wall; u_tau: the friction velocity of each wall face in backend memory (6 values, as
   * the entry u_tau leaves them), or NULL: a->u_tau */
  nav_err (*nut_cells)(const nav_box *b, nav_real *const *u, const nav_real *wd, const nav_real *wi,
                       const nav_les_params *a, const nav_real *u_tau, nav_real *nut);
  /* u_tau[f] = nav_les_face_u_tau(dim, f, sh + 3 f, nu, area[f / 2]), f < 6, from the wall shear integrals sh
   * summed over the ranks (backend memory, 18 doubles: nav_models_wall_shear_to) into u_tau (backend memory),
   * without a host wait; area[d]: the area of a face of direction d < dim (host). NULL where the backend has
   * none (the CPU: the model forms u_tau on the host and passes it in nav_les_params). */
  nav_err (*u_tau)(int dim, const double *sh, const double area[3], double nu, nav_real *u_tau);
} nav_les_kernels;

extern const nav_les_kernels nav_les_kernels_cpu;
extern const nav_les_kernels nav_les_kernels_cuda; /* only when the CUDA backend is built */

/* The table for the core table ops (by its name), or NULL if none was built for it. */
const nav_les_kernels *nav_les_kernels_get(const nav_kernel_ops *ops);

#ifdef __cplusplus
}
#endif

#endif
