/* Block geometry and metric arrays (see nav_geometry.h and nav_box.h). */
#include "grid/nav_geometry.h"

#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_profile.h"

#define NAV_METRICS 4 /* rdf, rdc, wf, df */

double *nav_widths_alloc(int N) {
  double *w = calloc((size_t)N + 2, sizeof *w);
  return w ? w + 1 : NULL;
}

void nav_widths_free(double *w) {
  if (w) free(w - 1);
}

void nav_widths_ghosts(double *w, int N, int periodic) {
  w[-1] = periodic ? w[N - 1] : w[0];
  w[N] = periodic ? w[0] : w[N - 1];
}

void nav_widths_coarsen(const double *w, int N, int periodic, double *wc) {
  const int Nc = nav_coarse_count(N);
  for (int I = 0; I < Nc; I++)
    wc[I] = w[2 * I] + (2 * I + 1 < N ? w[2 * I + 1] : 0);
  nav_widths_ghosts(wc, Nc, periodic);
}

void nav_box_layout(int dim, const int n[3], const int g0[3], nav_box *b) {
  memset(b, 0, sizeof *b);
  b->dim = dim;
  for (int d = 0; d < 3; d++) {
    b->n[d] = d < dim ? n[d] : 1;
    b->g0[d] = d < dim ? g0[d] : 0;
  }
  const nav_idx ex = b->n[0] + 2, ey = b->n[1] + 2, ez = dim == 3 ? b->n[2] + 2 : 1;
  b->st[0] = 1;
  b->st[1] = ex;
  b->st[2] = dim == 3 ? ex * ey : 0;
  b->off = b->st[0] + b->st[1] + b->st[2];
  b->ntot = ex * ey * ez;
}

void nav_box_part(const nav_box *b, const int lo[3], const int hi[3], nav_box *part) {
  *part = *b;
  for (int d = 0; d < b->dim; d++) {
    part->n[d] = hi[d] - lo[d];
    part->g0[d] += lo[d];
    part->off += lo[d] * b->st[d];
    part->df[d] += lo[d];
    part->rdf[d] += lo[d];
    part->rdc[d] += lo[d];
    part->wf[d] += lo[d];
  }
}

int nav_box_shell(const nav_box *b, nav_box shell[6], nav_box *core) {
  int lo[3] = {0, 0, 0}, hi[3] = {b->n[0], b->n[1], b->n[2]};
  for (int d = 0; d < b->dim; d++)
    if (b->n[d] < 3) return 0;
  /* slabs of direction d span the core's extent in the directions before d, everything after */
  for (int d = 0; d < b->dim; d++) {
    int slo[3], shi[3];
    memcpy(slo, lo, sizeof slo);
    memcpy(shi, hi, sizeof shi);
    slo[d] = 0;
    shi[d] = 1;
    nav_box_part(b, slo, shi, &shell[2 * d]);
    slo[d] = b->n[d] - 1;
    shi[d] = b->n[d];
    nav_box_part(b, slo, shi, &shell[2 * d + 1]);
    lo[d] = 1;
    hi[d] = b->n[d] - 1;
  }
  nav_box_part(b, lo, hi, core);
  return 2 * b->dim;
}

/* Are the widths wg[-1..m] of a block's direction all the same, bit for bit (then so are its rdf and
 * rdc: nav_box.udf)? The environment variable NAV_UNIFORM_METRICS=0 answers no everywhere (to measure what
 * the constants save; the same results bit for bit). */
static int nav_widths_uniform(const double *wg, int m) {
  if (nav_profile_switched_off("NAV_UNIFORM_METRICS")) return 0;
  for (int i = 0; i <= m; i++)
    if (wg[i] != wg[-1]) return 0;
  return 1;
}

nav_err nav_box_create(const nav_kernel_ops *ops, int dim, const int n[3], const int g0[3], double *const w[3],
                       nav_box *b) {
  nav_box_layout(dim, n, g0, b);
  for (int d = 0; d < dim; d++) {
    const int m = b->n[d];
    const double *wg = w[d] + g0[d]; /* wg[i] = width of local cell i, i = -1..m */
    const size_t bytes = NAV_METRICS * ((size_t)m + 3) * sizeof(nav_real);
    nav_real *host = malloc(bytes);
    NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate metric arrays");
    nav_real *rdf = host, *rdc = host + m + 3, *wf = host + 2 * (m + 3), *df = host + 3 * (m + 3);
    for (int i = -1; i <= m + 1; i++) {
      df[i + 1] = i <= m ? (nav_real)wg[i] : 0;
      rdf[i + 1] = i <= m ? (nav_real)(1.0 / wg[i]) : 0;
      rdc[i + 1] = i >= 0 && i <= m ? (nav_real)(2.0 / (wg[i - 1] + wg[i])) : 0;
      wf[i + 1] = i >= 0 && i <= m ? (nav_real)(wg[i - 1] / (wg[i - 1] + wg[i])) : 0;
    }
    if (nav_widths_uniform(wg, m)) {
      b->udf[d] = df[1];
      b->urdf[d] = rdf[1];
      b->urdc[d] = rdc[1];
    }
    void *dev;
    nav_err e = ops->alloc(&dev, bytes);
    if (e == NAV_OK) e = ops->from_host(dev, host, bytes);
    free(host);
    NAV_CALL(e);
    nav_real *base = dev;
    b->rdf[d] = base + 1;
    b->rdc[d] = base + (m + 3) + 1;
    b->wf[d] = base + 2 * (m + 3) + 1;
    b->df[d] = base + 3 * (m + 3) + 1;
  }
  b->uniform = 1;
  for (int d = 0; d < dim; d++)
    b->uniform &= b->udf[d] > 0;
  return NAV_OK;
}

void nav_box_destroy(const nav_kernel_ops *ops, nav_box *b) {
  for (int d = 0; d < b->dim; d++)
    if (b->rdf[d]) ops->free((void *)(b->rdf[d] - 1));
  memset(b, 0, sizeof *b);
}

double nav_box_volume(int dim, const int n[3], const int g0[3], double *const w[3]) {
  double v = 1;
  for (int d = 0; d < dim; d++) {
    double len = 0;
    for (int i = 0; i < n[d]; i++)
      len += w[d][g0[d] + i];
    v *= len;
  }
  return v;
}
