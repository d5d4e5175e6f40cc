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

NAV_HD static inline void nav_velocity_gradient(const nav_box *b, const nav_real *const *u, nav_idx p, const int *ijk,
                                                nav_real g[3][3]) {
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int i = ijk[d];
    /* 1/dc either side of the centre, the weights of the one-sided differences of the sums m (twice the
     * centre values): wp = rp^2 / (2 (rm + rp)), wm = rm^2 / (2 (rm + rp)); one division per direction */
    const nav_real rm = nav_rdc(b, d, i), rp = nav_rdc(b, d, i + 1), h = (nav_real)0.5 / (rm + rp);
    const nav_real wp = rp * rp * h, wm = rm * rm * h;
    NAV_FOR_DIM(c, b) {
      const nav_idx sc = b->st[c];
      const nav_real *uc = u[c];
      if (d == c) {
        g[c][c] = (uc[p + sc] - uc[p]) * nav_rdf(b, c, ijk[c]);
      } else {
        const nav_real m0 = uc[p - sd] + uc[p - sd + sc], m1 = uc[p] + uc[p + sc], m2 = uc[p + sd] + uc[p + sd + sc];
        g[c][d] = wp * (m2 - m1) + wm * (m1 - m0);
      }
    }
  }
}

#endif
