/* The kernels of the immersed bodies (physics/bodies), diffuse and sharp forcing: point formulas in
 * common/nav_point_ibm.h.
 * A model's own kernel table beside the core table (nav_kernels.h): implemented by backend/cpu/ibm.c and
 * backend/cuda/ibm.cu, registered in backend/nav_backend.c, found with nav_ibm_kernels_of. Conventions as in
 * nav_kernels.h (backend memory, nav_box by host pointer, local results). */
#ifndef NAV_IBM_KERNELS_H
#define NAV_IBM_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of the immersed-boundary forcing (common/nav_point_ibm.h). */
typedef struct nav_ibm_params nav_ibm_params;
/* The stencils of the sharp-interface forcing (common/nav_point_ibm.h). */
typedef struct nav_ibm_stencils nav_ibm_stencils;

typedef struct nav_ibm_kernels {
  /* diffuse forcing: u_c += du (nav_ibm_force) at the interior faces of every component where tag_c != 0; a is
   * a HOST struct; q (ghosts filled) is read only if a->gscale != 0; v: the surface velocity per face (rotating
   * bodies) or NULL (the owner's velocity in a). sums != NULL: also sums[3 k + c] = the local sum over the faces
   * of body k of du dV_c (k < a->nbody, c < 3; the rest 0). */
  nav_err (*ibm_force)(const nav_box *b, nav_real *const *u, nav_real *const *tag, const nav_real *q,
                       nav_real *const *v, const nav_ibm_params *a, double *sums);
  /* sharp-interface forcing: u_c[target] <- nav_ibm_sharp_value at every face of s (a HOST struct of backend
   * arrays), all values computed before any is written; u's ghosts must be current (sources may be ghost faces).
   * sums != NULL: also sums[3 k + c] = the local sum over the faces of body k of du dV_c (the rest 0). */
  nav_err (*ibm_sharp)(nav_real *const *u, const nav_ibm_stencils *s, double *sums);
} nav_ibm_kernels;

NAV_KERNEL_TABLE(nav_ibm_kernels, "ibm")

#ifdef __cplusplus
}
#endif

#endif
