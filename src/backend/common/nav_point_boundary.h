/* Point functions of the ghost-layer fill of one block face (see nav_ghost_kind in nav_kernels.h).
 * The face plane of direction dir is spanned by the tangential directions t0 < t1 (t1 = 2 is
 * flat in 2D); (r, q) are the tangential indices, ghosts included. */
#ifndef NAV_POINT_BOUNDARY_H
#define NAV_POINT_BOUNDARY_H

#include "backend/common/nav_hd.h"
#include "backend/nav_kernels.h"

NAV_HD static inline void nav_face_plane(const nav_box *b, int dir, int *t0, int *t1) {
  (void)b;
  *t0 = dir == 0 ? 1 : 0;
  *t1 = dir == 2 ? 1 : 2;
}

NAV_HD static inline void nav_fill_ghost_point(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind,
                                               nav_real alpha, nav_real beta, int t0, int r, int t1, int q) {
  const nav_idx base = b->off + (nav_idx)r * b->st[t0] + (nav_idx)q * b->st[t1];
  const nav_idx s = b->st[dir];
  const int n = b->n[dir];
  const nav_idx ghost = base + (side ? (nav_idx)n : -1) * s; /* the ghost cell, or the high boundary face */
  switch (kind) {
  case NAV_GHOST_MIRROR: x[ghost] = alpha * x[side ? ghost - s : ghost + s] + beta; break;
  case NAV_GHOST_PERIODIC: x[ghost] = x[side ? base : base + (nav_idx)(n - 1) * s]; break;
  case NAV_GHOST_FACE:
    if (side) {
      x[ghost] = beta;
    } else {
      x[base] = beta;
      x[ghost] = 2 * beta - x[base + s];
    }
    break;
  }
}

/* Index of point (r, q) of the plane `layer` of direction dir in a field, and its position m in
 * a packed face buffer (t0 fastest; lo1 = -1 in 3D, 0 in 2D). */
NAV_HD static inline nav_idx nav_face_point(const nav_box *b, int dir, int layer, int t0, int r, int t1, int q) {
  return b->off + (nav_idx)layer * b->st[dir] + (nav_idx)r * b->st[t0] + (nav_idx)q * b->st[t1];
}

NAV_HD static inline nav_idx nav_face_slot(const nav_box *b, int t0, int r, int q, int lo1) {
  return (nav_idx)(r + 1) + (nav_idx)(q - lo1) * (b->n[t0] + 2);
}

/* Copy one plane point to (pack = 1) or from (pack = 0) the face buffer. */
NAV_HD static inline void nav_face_copy_point(const nav_box *b, nav_real *x, int dir, int layer, nav_real *buf,
                                              int pack, int t0, int r, int t1, int q, int lo1) {
  const nav_idx p = nav_face_point(b, dir, layer, t0, r, t1, q), m = nav_face_slot(b, t0, r, q, lo1);
  if (pack)
    buf[m] = x[p];
  else
    x[p] = buf[m];
}

#endif
