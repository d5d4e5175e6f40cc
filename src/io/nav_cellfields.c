/* Cell-centred output fields (see nav_cellfields.h). */
#include "io/nav_cellfields.h"

#include <math.h>

#define NAV_AT(q, b, i, j, k) (q)[(b)->off + (i) * (b)->st[0] + (j) * (b)->st[1] + (k) * (b)->st[2]]

void nav_cell_velocity(const nav_cell_input *in, int i, int j, int k, double *out) {
  const nav_box *b = in->b;
  for (int c = 0; c < 3; c++) {
    out[c] = 0;
    if (c >= in->f->dim) continue;
    int up[3] = {i, j, k};
    up[c]++; /* the two faces of the cell along c */
    out[c] = 0.5 * (NAV_AT(in->u[c], b, i, j, k) + NAV_AT(in->u[c], b, up[0], up[1], up[2]));
  }
}

void nav_cell_vorticity(const nav_cell_input *in, int i, int j, int k, double *out) {
  const nav_box *b = in->b;
  const nav_flow *f = in->f;
  const int ijk[3] = {i, j, k};
  double g[3][3] = {{0}}; /* g[c][d] = d u_c / d x_d */
  for (int c = 0; c < f->dim; c++)
    for (int d = 0; d < f->dim; d++) {
      if (c == d) continue;
      int lo[3] = {i, j, k}, hi[3] = {i, j, k};
      lo[d]--;
      hi[d]++;
      double vlo = 0, vhi = 0; /* centre velocities u_c of the neighbours along d */
      for (int s = 0; s < 2; s++) {
        int a[3] = {lo[0], lo[1], lo[2]}, bb[3] = {hi[0], hi[1], hi[2]};
        a[c] += s;
        bb[c] += s;
        vlo += 0.5 * NAV_AT(in->u[c], b, a[0], a[1], a[2]);
        vhi += 0.5 * NAV_AT(in->u[c], b, bb[0], bb[1], bb[2]);
      }
      const int gi = b->g0[d] + ijk[d]; /* global index: the widths are global, -1..n */
      const double hm = 0.5 * (f->w[d][gi - 1] + f->w[d][gi]), hp = 0.5 * (f->w[d][gi] + f->w[d][gi + 1]);
      if (hm == hp) {
        g[c][d] = (vhi - vlo) / (hm + hp);
      } else { /* stretched: the second-order three-point derivative at the centre */
        int up[3] = {i, j, k};
        up[c]++;
        const double vc = 0.5 * (NAV_AT(in->u[c], b, i, j, k) + NAV_AT(in->u[c], b, up[0], up[1], up[2]));
        g[c][d] = (hm * hm * (vhi - vc) + hp * hp * (vc - vlo)) / (hm * hp * (hm + hp));
      }
    }
  out[0] = g[2][1] - g[1][2];
  out[1] = g[0][2] - g[2][0];
  out[2] = g[1][0] - g[0][1];
}

static void nav_cell_pressure(const nav_cell_input *in, int i, int j, int k, double *out) {
  out[0] = NAV_AT(in->p, in->b, i, j, k);
}

static void nav_cell_temperature(const nav_cell_input *in, int i, int j, int k, double *out) {
  out[0] = NAV_AT(in->T, in->b, i, j, k);
}

static void nav_cell_vorticity_z(const nav_cell_input *in, int i, int j, int k, double *out) {
  double w[3];
  nav_cell_vorticity(in, i, j, k, w);
  out[0] = w[2];
}

static void nav_cell_vorticity_magnitude(const nav_cell_input *in, int i, int j, int k, double *out) {
  double w[3];
  nav_cell_vorticity(in, i, j, k, w);
  out[0] = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

int nav_cell_fields(const nav_flow *f, nav_cell_field out[NAV_CELL_MAX_FIELDS]) {
  int n = 0;
  out[n++] = (nav_cell_field){"pressure", 1, nav_cell_pressure};
  if (f->scalar.T) out[n++] = (nav_cell_field){"temperature", 1, nav_cell_temperature};
  out[n++] = (nav_cell_field){"velocity", 3, nav_cell_velocity};
  if (f->dim == 3) {
    out[n++] = (nav_cell_field){"vorticity", 3, nav_cell_vorticity};
    out[n++] = (nav_cell_field){"vorticity_magnitude", 1, nav_cell_vorticity_magnitude};
  } else {
    out[n++] = (nav_cell_field){"vorticity", 1, nav_cell_vorticity_z};
  }
  return n;
}
