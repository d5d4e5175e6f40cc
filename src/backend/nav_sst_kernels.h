/* The kernels of Menter's k-omega SST model (physics/turbulence): point formulas in
 * common/nav_point_sst.h.
 * A model's own kernel table beside the core table (nav_kernels.h): implemented by backend/cpu and
 * backend/cuda in files of the same name, registered in backend/nav_backend.c, found with
 * nav_sst_kernels_of. Conventions as in nav_kernels.h (backend memory, nav_box by host pointer, local
 * results). */
#ifndef NAV_SST_KERNELS_H
#define NAV_SST_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_sst_kernels {
  /* at the interior cells, out[0..7] = nu_t, F1, the diffusivities of k and omega, their explicit parts q
   * and implicit rates c (nav_sst_point, in that order) from u, k, w (ghosts filled) and the wall distance
   * wd; an out[i] that is NULL is not written (the update of nu_t asks for out[0] only: 8 bytes a cell
   * written instead of 64) */
  nav_err (*sst_cells)(const nav_box *b, nav_real *const *u, const nav_real *k, const nav_real *w, const nav_real *wd,
                       nav_real nu, nav_real *const *out);
} nav_sst_kernels;

NAV_KERNEL_TABLE(nav_sst_kernels, "sst")

#ifdef __cplusplus
}
#endif

#endif
