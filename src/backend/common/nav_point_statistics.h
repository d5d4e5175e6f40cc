/* The point formulas of the DNS statistics (physics/statistics/nav_statistics.h): the quantities one
 * sample adds at a cell, and the weight of a cell in the average over a plane.
 *
 * At cell (i,j,k) of a block with its ghosts filled (MAC staggering, nav_box.h):
 *   U_c = (u_c(face i_c) + u_c(face i_c + 1)) / 2   (the centre velocity, c < dim; 0 beyond dim)
 *   P = p, T = T (0 without a temperature), NUT = nu_t / nu (0 without an eddy viscosity)
 * and the products are formed at the centre from those values:
 *   q = [U, V, W, P, T, UU, VV, WW, UV, UW, VW, PP, TT, NUT]      (NAV_STAT_Q quantities)
 * The plane weight of a cell for profiles along e is its area across e, the product of its widths
 * df[d] of the directions d != e (d < dim): a plane mean is sum q dA / sum dA, exact for stretched
 * periodic directions too. */
#ifndef NAV_POINT_STATISTICS_H
#define NAV_POINT_STATISTICS_H

#include "backend/common/nav_hd.h"
#include "backend/nav_box.h"

/* The quantities of one sample, in this order (the running sums and the checkpoint keep it). */
enum {
  NAV_STAT_U, NAV_STAT_V, NAV_STAT_W, NAV_STAT_P, NAV_STAT_T,
  NAV_STAT_UU, NAV_STAT_VV, NAV_STAT_WW, NAV_STAT_UV, NAV_STAT_UW, NAV_STAT_VW, NAV_STAT_PP, NAV_STAT_TT,
  NAV_STAT_NUT, /* last: a flow without an eddy viscosity keeps the NAV_STAT_NUT quantities before it */
  NAV_STAT_Q
};

/* The quantities q[NAV_STAT_Q] at the cell of linear index p (local indices ijk); u[c] for c < dim,
 * T and nut (the eddy viscosity at the cells) may be NULL; nu the molecular viscosity. */
NAV_HD static inline void nav_stat_cell(const nav_box *b, const nav_real *const *u, const nav_real *pr,
                                        const nav_real *T, const nav_real *nut, double nu, nav_idx p,
                                        double q[NAV_STAT_Q]) {
  double v[3] = {0, 0, 0};
  NAV_FOR_DIM(c, b) v[c] = 0.5 * ((double)u[c][p] + (double)u[c][p + b->st[c]]);
  const double P = pr[p], t = T ? (double)T[p] : 0.0;
  q[NAV_STAT_U] = v[0];
  q[NAV_STAT_V] = v[1];
  q[NAV_STAT_W] = v[2];
  q[NAV_STAT_P] = P;
  q[NAV_STAT_T] = t;
  q[NAV_STAT_UU] = v[0] * v[0];
  q[NAV_STAT_VV] = v[1] * v[1];
  q[NAV_STAT_WW] = v[2] * v[2];
  q[NAV_STAT_UV] = v[0] * v[1];
  q[NAV_STAT_UW] = v[0] * v[2];
  q[NAV_STAT_VW] = v[1] * v[2];
  q[NAV_STAT_PP] = P * P;
  q[NAV_STAT_TT] = t * t;
  q[NAV_STAT_NUT] = nut ? (double)nut[p] / nu : 0.0;
}

/* The area across e of the cell at local indices ijk (1 in a direction beyond dim). */
NAV_HD static inline double nav_stat_area(const nav_box *b, int e, const int ijk[3]) {
  double a = 1;
  NAV_FOR_DIM(d, b) if (d != e) a *= (double)b->df[d][ijk[d]];
  return a;
}

/* The central moment <x'y'> = <xy> - <x><y> of the means mx, my and the mean product mxy. */
NAV_HD static inline double nav_stat_moment(double mxy, double mx, double my) { return mxy - mx * my; }

#endif
