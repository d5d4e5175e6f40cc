/* Point functions of inflow and outflow faces (see the plane arrays of nav_kernels.h), and of the
 * face integrals (nav_face_integrand) and the wall shear stress from them (nav_wall_tau).
 *
 * A face (dir, side) of a block; (r, q) are its tangential indices (nav_face_plane: t0 < t1, t1 =
 * 2 is flat in 2D), ghosts included. The plane value of a point sits in the plane array at layer
 * L = 0 (side 0) or n - 1 (side 1) along dir. Spacing is read from the metric arrays: nothing
 * assumes a uniform grid. */
#ifndef NAV_POINT_OPEN_H
#define NAV_POINT_OPEN_H

#include <math.h>

#include "backend/common/nav_hd.h"
#include "backend/nav_box.h"

/* Index of face point (r, q) in the plane `layer` of direction dir. */
NAV_HD static inline nav_idx nav_open_point(const nav_box *b, int dir, int layer, int t0, int r, int t1, int q) {
  return b->off + (nav_idx)layer * b->st[dir] + (nav_idx)r * b->st[t0] + (nav_idx)q * b->st[t1];
}

/* Ghosts of point (r, q) of face (dir, side) from the plane:
 *   normal:     u_face = v  (side 0: face 0 = v and ghost -1 = 2 v - u_1, as NAV_GHOST_FACE)
 *   tangential: x_ghost = 2 v - x_adjacent  (v is the value at the face, halfway between centres
 *               in the sense of the mirror rule that walls use) */
NAV_HD static inline void nav_fill_plane_point(const nav_box *b, nav_real *x, int dir, int side, int normal,
                                               const nav_real *plane, int t0, int r, int t1, int q) {
  const int n = b->n[dir];
  const nav_idx s = b->st[dir], base = nav_open_point(b, dir, 0, t0, r, t1, q);
  const nav_real v = plane[base + (side ? (nav_idx)(n - 1) : 0) * s];
  if (normal) {
    if (side) {
      x[base + (nav_idx)n * s] = v;
    } else {
      x[base] = v;
      x[base - s] = 2 * v - x[base + s];
    }
  } else {
    const nav_idx adj = base + (side ? (nav_idx)(n - 1) : 0) * s;
    x[side ? adj + s : adj - s] = 2 * v - x[adj];
  }
}

/* Convective outflow dv/dt + U_c dv/dn = 0 for the face value v of point (r, q), backward Euler
 * in time and upwind in space (unconditionally stable, first order; it only has to let the flow
 * leave): v_new = (v + r x_a) / (1 + r) + shift, r = rate / dist, rate = dt U_c, where x_a is the
 * nearest interior value, at distance dist: the face one cell inside (normal, dist = df of the
 * adjacent cell) or the adjacent cell centre (tangential, dist = df / 2). */
NAV_HD static inline void nav_outflow_point(const nav_box *b, const nav_real *x, int dir, int side, int normal,
                                            nav_real rate, nav_real shift, nav_real *plane, int t0, int r, int t1,
                                            int q) {
  const int n = b->n[dir];
  const nav_idx s = b->st[dir], base = nav_open_point(b, dir, 0, t0, r, t1, q);
  const int cell = side ? n - 1 : 0; /* the interior cell next to the face */
  const nav_idx at = base + (nav_idx)cell * s;
  const nav_real df = b->df[dir][cell];
  nav_real xa, dist;
  if (normal) {
    xa = x[side ? at : at + s]; /* face n-1 (high) or face 1 (low) */
    dist = df;
  } else {
    xa = x[at];
    dist = (nav_real)0.5 * df;
  }
  const nav_real ratio = rate / dist;
  plane[at] = (plane[at] + ratio * xa) / (1 + ratio) + shift;
}

/* Inward normal derivative (x_adjacent - x_ghost) / dc at the face point with plane offset `at`. */
NAV_HD static inline nav_real nav_face_gradient(const nav_box *b, const nav_real *x, int dir, int side, nav_idx at) {
  const nav_idx s = b->st[dir];
  return (x[at] - x[side ? at + s : at - s]) * b->rdc[dir][side ? b->n[dir] : 0];
}

/* The integrand of point (r, q) of face (dir, side) times its area dA = df[t0][r] df[t1][q]
 * (interior points only):
 *   what 0:     x dA, x a plane (the normal component: cell-centred along the face);
 *   what 1 + c: the inward normal derivative of the tangential component c (x = u_c, ghosts
 *               filled), averaged from its two faces along c to the cell centre (r, q), dA: summed
 *               over the face this is the trapezoidal rule over the faces of u_c. */
NAV_HD static inline nav_real nav_face_integrand(const nav_box *b, const nav_real *x, int dir, int side, int what,
                                                 int t0, int r, int t1, int q) {
  const int n = b->n[dir];
  const nav_idx base = nav_open_point(b, dir, 0, t0, r, t1, q);
  const nav_real da = b->df[t0][r] * (b->dim == 3 ? b->df[t1][q] : (nav_real)1);
  const nav_idx at = base + (side ? (nav_idx)(n - 1) : 0) * b->st[dir];
  if (what == 0) return x[at] * da;
  const nav_idx next = b->st[what - 1]; /* the face of u_c beyond this cell along c */
  return (nav_real)0.5 * (nav_face_gradient(b, x, dir, side, at) + nav_face_gradient(b, x, dir, side, at + next)) * da;
}

/* |tau_w| of a wall face from sh[c], the integrals of the inward normal derivative of u_c over it (what 1 + c; 0
 * for the normal component), summed over the ranks, and its area: sqrt(sum_c (nu sh_c / area)^2), c = 0, 1, 2 in
 * turn. The rounded products and sums (nav_dmul_rn, nav_dadd_rn): Smagorinsky's u_tau is formed from this on the
 * CUDA device with the host's bits (no FMA). */
NAV_HD static inline double nav_wall_tau(double nu, const double sh[3], double area) {
  double t2 = 0;
  for (int c = 0; c < 3; c++) {
    const double q = nav_dmul_rn(nu, sh[c]) / area;
    t2 = nav_dadd_rn(t2, nav_dmul_rn(q, q));
  }
  return sqrt(t2);
}

#endif
