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

/* The weights of the one-sided differences along direction d at cell index i from 1/dc either side of the centre:
 * wp = rp^2 / (2 (rm + rp)), wm = rm^2 / (2 (rm + rp)) (of the sums m, twice the centre values); one division per
 * direction. */
typedef struct nav_gradient_metric {
  nav_real wp, wm; /* the weights */
  nav_real rdf;    /* 1/df of the cell (nav_gradient_metric_at; nav_gradient_weights leaves it 0) */
} nav_gradient_metric;

NAV_HD static inline nav_gradient_metric nav_gradient_weights(const nav_box *b, int d, int i) {
  const nav_real rm = nav_rdc(b, d, i), rp = nav_rdc(b, d, i + 1), h = (nav_real)0.5 / (rm + rp);
  const nav_real wp = rp * rp * h, wm = rm * rm * h;
  const nav_gradient_metric m = {wp, wm, 0};
  return m;
}

/* The metric of the gradient along d at cell index i: the weights and 1/df. It depends on i alone: a kernel whose
 * thread walks planes of k takes those of x and y once (nav_point_les.h). */
NAV_HD static inline nav_gradient_metric nav_gradient_metric_at(const nav_box *b, int d, int i) {
  nav_gradient_metric m = nav_gradient_weights(b, d, i);
  m.rdf = nav_rdf(b, d, i);
  return m;
}

NAV_HD static inline void nav_velocity_gradient(const nav_box *b, const nav_real *const *u, nav_idx p, const int *ijk,
                                                nav_real g[3][3]) {
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const nav_gradient_metric m = nav_gradient_weights(b, d, ijk[d]);
    NAV_FOR_DIM(c, b) {
      const nav_idx sc = b->st[c];
      const nav_real *uc = u[c];
      if (d == c) {
        g[c][c] = (uc[p + sc] - uc[p]) * nav_rdf(b, c, ijk[c]);
      } else {
        const nav_real m0 = uc[p - sd] + uc[p - sd + sc], m1 = uc[p] + uc[p + sc], m2 = uc[p + sd] + uc[p + sd + sc];
        g[c][d] = m.wp * (m2 - m1) + m.wm * (m1 - m0);
      }
    }
  }
}

/* The same gradient from the metric w[d] of each direction d < b->dim at the cell (nav_gradient_metric_at): the
 * formulas of nav_velocity_gradient, whose SST kernel's code keeps the metric's loads where they were. */
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

#endif
