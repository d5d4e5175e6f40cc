/* Interpolation in the host fields of the global grid (see nav_host_fields.h). */
#include "grid/nav_host_fields.h"

#include <math.h>

double nav_host_coord(const int *nc, double *const *xf, double *const *w, int d, int i, int staggered) {
  const int n = nc[d];
  double face = i < 0 ? xf[d][0] - w[d][-1] : i <= n ? xf[d][i] : xf[d][n] + w[d][n];
  return staggered ? face : face + 0.5 * w[d][i];
}

double nav_host_interpolate_grid(int dim, const int *n, double *const *xf, double *const *w,
                                 const nav_host_fields *h, int c, const double x[3]) {
  int i0[3] = {0, 0, 0};
  double t[3] = {0, 0, 0};
  for (int d = 0; d < dim; d++) {
    const int st = d == c;
    int lo = -1;
    const int hi = n[d]; /* points -1..n have positions (ghosts included) */
    while (lo + 1 < hi && nav_host_coord(n, xf, w, d, lo + 1, st) <= x[d]) lo++;
    const double a = nav_host_coord(n, xf, w, d, lo, st), b = nav_host_coord(n, xf, w, d, lo + 1, st);
    i0[d] = lo;
    t[d] = fmin(fmax((x[d] - a) / (b - a), 0), 1);
  }
  const nav_real *q = c < 0 ? h->p : h->u[c];
  const nav_box *bx = &h->box;
  double v = 0;
  const int kmax = dim == 3 ? 2 : 1;
  for (int dk = 0; dk < kmax; dk++)
    for (int dj = 0; dj < 2; dj++)
      for (int di = 0; di < 2; di++) {
        const double wt = (di ? t[0] : 1 - t[0]) * (dj ? t[1] : 1 - t[1]) * (dim == 3 ? (dk ? t[2] : 1 - t[2]) : 1);
        const nav_idx p =
            bx->off + (i0[0] + di) * bx->st[0] + (i0[1] + dj) * bx->st[1] + (dim == 3 ? (i0[2] + dk) * bx->st[2] : 0);
        v += wt * q[p];
      }
  return v;
}
