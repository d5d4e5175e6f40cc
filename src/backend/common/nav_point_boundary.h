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

/* Points of one plane of direction dir, ghosts of the tangential directions included (a packed face
 * buffer of ops->pack_face / copy_faces). */
NAV_HD static inline nav_idx nav_face_points(const nav_box *b, int dir) {
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  return (nav_idx)(b->n[t0] + 2) * (b->dim == 3 ? b->n[t1] + 2 : 1);
}

/* The ghost point of face (dir, side) at the tangential indices (r, q): its index, and *base that of
 * layer 0 of the line (the first interior point along dir). */
NAV_HD static inline nav_idx nav_ghost_index(const nav_box *b, int dir, int side, int t0, int r, int t1, int q,
                                             nav_idx *base) {
  *base = b->off + (nav_idx)r * b->st[t0] + (nav_idx)q * b->st[t1];
  return *base + (side ? (nav_idx)b->n[dir] : -1) * b->st[dir]; /* the ghost cell, or the high boundary face */
}

/* The value that rule kind gives the ghost point of face (dir, side) at (r, q): the fill's only read of x. */
NAV_FIELD NAV_HD static inline nav_real nav_ghost_value(const nav_box *b, const nav_field *x, int dir, int side,
                                                        nav_ghost_kind kind, nav_real alpha, nav_real beta, int t0,
                                                        int r, int t1, int q) {
  nav_idx base;
  const nav_idx ghost = nav_ghost_index(b, dir, side, t0, r, t1, q, &base), s = b->st[dir];
  switch (kind) {
  case NAV_GHOST_MIRROR:
    return alpha * x[side ? ghost - s : ghost + s] + beta;
  case NAV_GHOST_PERIODIC:
    return x[side ? base : base + (nav_idx)(b->n[dir] - 1) * s];
  case NAV_GHOST_FACE: /* side 0: the boundary face is layer 0, set to beta by nav_ghost_store */
    return side ? beta : 2 * beta - x[base + s];
  default: /* NAV_GHOST_REFLECT */
    return side ? x[ghost - s] : x[base + s];
  }
}

/* Store v, nav_ghost_value's result, at the ghost point of face (dir, side) at (r, q); a FACE rule on the low
 * side sets the boundary face (layer 0) to beta too. */
NAV_FIELD NAV_HD static inline void nav_ghost_store(const nav_box *b, nav_field *x, int dir, int side,
                                                    nav_ghost_kind kind, nav_real beta, int t0, int r, int t1, int q,
                                                    nav_real v) {
  nav_idx base;
  const nav_idx ghost = nav_ghost_index(b, dir, side, t0, r, t1, q, &base);
  if (kind == NAV_GHOST_FACE && !side) x[base] = beta;
  x[ghost] = v;
}

/* The ghost point of face (dir, side) at (r, q) by rule kind (nav_ghost_kind). */
NAV_FIELD NAV_HD static inline void nav_fill_ghost_point(const nav_box *b, nav_field *x, int dir, int side,
                                                         nav_ghost_kind kind, nav_real alpha, nav_real beta, int t0,
                                                         int r, int t1, int q) {
  nav_ghost_store(b, x, dir, side, kind, beta, t0, r, t1, q,
                  nav_ghost_value(b, x, dir, side, kind, alpha, beta, t0, r, t1, q));
}

/* The points of face (d, s) of the list below, per tangential direction e != d: the indices lo[e] ..
 * lo[e] + len[e] - 1 (interior, or with the ghosts too). */
NAV_HD static inline void nav_ghost_face_extent(const nav_box *b, const nav_ghost_faces *g, int d, int lo[3],
                                                int len[3]) {
  NAV_UNROLL for (int e = 0; e < 3; e++) {
    const int inner = e < d && !g->skip[e];
    lo[e] = e == d || e >= b->dim || inner ? 0 : -1;
    len[e] = e == d || e >= b->dim ? 1 : inner ? b->n[e] : b->n[e] + 2;
  }
}

/* Ghost points of a block, listed face by face for fill_ghosts: the points of face (d, s), d not
 * skipped, are those with index -1 (s = 0) or n (s = 1) in direction d, interior indices in the
 * directions before d that are not skipped, and any index (ghosts too) in the others, so each
 * point is listed once, under the first direction (not skipped) in which it is a ghost. Returns
 * the points of face (d, s) (both sides have as many; none for a skipped direction, or for
 * direction 2 in 2D). */
NAV_HD static inline nav_idx nav_ghost_face_points(const nav_box *b, const nav_ghost_faces *g, int d) {
  if (d >= b->dim || g->skip[d]) return 0;
  int lo[3], len[3];
  nav_ghost_face_extent(b, g, d, lo, len);
  return (nav_idx)len[0] * len[1] * len[2];
}

/* The ghost point ijk of the list (a ghost in a direction not skipped): set its value as the faces of the
 * directions not skipped, filled one after the other in the order x, y, z, would (each face plane reads the
 * adjacent plane, whose ghosts in the directions before were already set): v = x at the source point (every
 * ghost index of a direction not skipped moved inside: the adjacent cell, or the opposite end for periodic
 * faces), then for each such direction in increasing order, v = alpha v + beta (mirror) or v unchanged
 * (periodic). It reads interior points only: the points may be set in any order. */
NAV_FIELD NAV_HD static inline void nav_ghost_fill_at(const nav_box *b, nav_field *x, const nav_ghost_faces *g,
                                                      const int *ijk) {
  int src[3] = {ijk[0], ijk[1], ijk[2]};
  NAV_FOR_DIM(e, b) { /* (unrolled on a GPU: ijk and src stay in registers, not in local memory) */
    const int n = b->n[e];
    if (g->skip[e] || (ijk[e] >= 0 && ijk[e] < n)) continue;
    const int hi = ijk[e] >= n;
    src[e] = g->kind[e][hi] == NAV_GHOST_PERIODIC ? (hi ? 0 : n - 1) : (hi ? n - 1 : 0);
  }
  nav_real v = x[b->off + (nav_idx)src[0] * b->st[0] + (nav_idx)src[1] * b->st[1] + (nav_idx)src[2] * b->st[2]];
  NAV_FOR_DIM(e, b) {
    const int n = b->n[e];
    if (g->skip[e] || (ijk[e] >= 0 && ijk[e] < n)) continue;
    const int hi = ijk[e] >= n;
    if (g->kind[e][hi] == NAV_GHOST_MIRROR) v = g->alpha[e][hi] * v + g->beta[e][hi];
  }
  x[b->off + (nav_idx)ijk[0] * b->st[0] + (nav_idx)ijk[1] * b->st[1] + (nav_idx)ijk[2] * b->st[2]] = v;
}

/* Ghost point number m (0 <= m < nav_ghost_all_count) of the list: nav_ghost_fill_at. */
NAV_FIELD NAV_HD static inline void nav_ghost_all_point(const nav_box *b, nav_field *x, const nav_ghost_faces *g,
                                                        nav_idx m) {
  int d = 0;
  nav_idx face = nav_ghost_face_points(b, g, 0);
  while (m >= 2 * face) {
    m -= 2 * face;
    face = nav_ghost_face_points(b, g, ++d);
  }
  const int side = m >= face;
  if (side) m -= face;
  int ijk[3] = {0, 0, 0}, lo[3], len[3];
  nav_ghost_face_extent(b, g, d, lo, len);
  NAV_FOR_DIM(e, b) { /* decompose m, fastest direction first */
    if (e == d) {
      ijk[e] = side ? b->n[e] : -1;
      continue;
    }
    ijk[e] = lo[e] + (int)(m % len[e]);
    m /= len[e];
  }
  nav_ghost_fill_at(b, x, g, ijk);
}

/* Number of points of nav_ghost_all_point's list. */
NAV_HD static inline nav_idx nav_ghost_all_count(const nav_box *b, const nav_ghost_faces *g) {
  nav_idx m = 0;
  for (int d = 0; d < b->dim; d++)
    m += 2 * nav_ghost_face_points(b, g, d);
  return m;
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
