/* The velocity gradient at a cell centre of the MAC grid of nav_box.h: the one formula of the cell
 * models that read the resolved strain (k-omega SST, nav_point_sst.h; the LES closures,
 * nav_point_les.h).
 *
 *   G_cd = du_c/dx_d at the centre of cell (p, ijk):
 *   d == c: the difference of the two faces of u_c over the cell width;
 *   d != c: the weighted mean of the one-sided differences of the cell-centre values of u_c (the
 *           mean of its two faces) over the centre distances: second order on stretched grids,
 *           exact for a linear field; at a wall the mirror ghost of u_c makes it exact for a linear
 *           profile.
 * u needs filled ghosts (edges too); entries with c or d >= b->dim are left as they are. */
#ifndef NAV_POINT_GRADIENT_H
#define NAV_POINT_GRADIENT_H

#include "backend/common/nav_hd.h"
#include "backend/common/nav_metric.h"
#include "backend/nav_box.h"

/* The metric of the gradient along direction d at cell index i: the weights of the one-sided differences from
 * 1/dc either side of the centre, wp = rp^2 / (2 (rm + rp)), wm = rm^2 / (2 (rm + rp)) (of the sums m, twice the
 * centre values; one division), and 1/df of the cell. It depends on i alone: a kernel whose thread walks planes of
 * k takes those of x and y once (nav_point_les.h). */
typedef struct nav_gradient_metric {
  nav_real wp, wm; /* the weights */
  nav_real rdf;    /* 1/df */
} nav_gradient_metric;

NAV_HD static inline nav_gradient_metric nav_gradient_metric_at(const nav_box *b, int d, int i) {
  const nav_real rm = nav_rdc(b, d, i), rp = nav_rdc(b, d, i + 1), h = (nav_real)0.5 / (rm + rp);
  const nav_gradient_metric m = {rp * rp * h, rm * rm * h, nav_rdf(b, d, i)};
  return m;
}

/* G at cell p from the metric w[d] of each direction d < b->dim at that cell (nav_gradient_metric_at). */
NAV_HD static inline void nav_velocity_gradient_metric(const nav_box *b, const nav_real *const *u, nav_idx p,
                                                       const nav_gradient_metric *w, nav_real g[3][3]) {
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const nav_gradient_metric m = w[d];
    NAV_FOR_DIM(c, b) {
      const nav_idx sc = b->st[c];
      const nav_real *uc = u[c];
      if (d == c) {
        g[c][c] = (uc[p + sc] - uc[p]) * m.rdf;
      } else {
        const nav_real m0 = uc[p - sd] + uc[p - sd + sc], m1 = uc[p] + uc[p + sc], m2 = uc[p + sd] + uc[p + sd + sc];
        g[c][d] = m.wp * (m2 - m1) + m.wm * (m1 - m0);
      }
    }
  }
}

/* G at cell (p, ijk). */
NAV_HD static inline void nav_velocity_gradient(const nav_box *b, const nav_real *const *u, nav_idx p, const int *ijk,
                                                nav_real g[3][3]) {
  nav_gradient_metric w[3];
  NAV_FOR_DIM(d, b) w[d] = nav_gradient_metric_at(b, d, ijk[d]);
  nav_velocity_gradient_metric(b, u, p, w, g);
}

#endif
