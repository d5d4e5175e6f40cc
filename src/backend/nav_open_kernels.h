/* The kernels of inflow and outflow faces (solvers/nav_open.c, grid/nav_boundary.c): point formulas
 * in common/nav_point_open.h.
 * A table beside the core table (nav_kernels.h): implemented by backend/cpu and backend/cuda in files
 * of the same name, registered in backend/nav_backend.c, found with nav_open_kernels_of. Conventions as in
 * nav_kernels.h (backend memory, nav_box by host pointer, local results). */
#ifndef NAV_OPEN_KERNELS_H
#define NAV_OPEN_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_open_kernels {
  /* The values of the velocity on an open face (dir, side) live in a PLANE array: a block array whose
   * layer 0 (side 0) or n-1 (side 1) along dir holds, at each point (r, q) of the face (tangential ghost
   * rows included), the value of a component at the boundary face. */
  /* ghosts of face (dir, side) of component x from its plane: normal (x is component dir): the
   * boundary face = plane (side 0: also the ghost -1 = 2 plane - x_1); tangential: the ghost =
   * 2 plane - the adjacent interior value */
  nav_err (*fill_ghost_plane)(const nav_box *b, nav_real *x, int dir, int side, int normal, const nav_real *plane);
  /* convective outflow, backward Euler and upwind: plane = (plane + r x_a) / (1 + r) + shift at
   * every face point, x_a the interior value next to the face (normal: the face one cell inside,
   * r = rate / its distance df; tangential: the adjacent cell centre, r = rate / (df / 2));
   * rate = dt U_c; rate = 0 only shifts */
  nav_err (*outflow_update)(const nav_box *b, const nav_real *x, int dir, int side, int normal, nav_real rate,
                            nav_real shift, nav_real *plane);
} nav_open_kernels;

NAV_KERNEL_TABLE(nav_open_kernels, "open")

#ifdef __cplusplus
}
#endif

#endif
