/* Inflow and outflow faces (see nav_open.h). */
#include "solvers/nav_open.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_open_kernels.h"
#include "core/nav_error.h"
#include "core/nav_table.h"
#include "grid/nav_reduce.h"
#include "physics/nav_analytic.h"

static int nav_open_face(const nav_flow *f, int d, int s) {
  const nav_bc_type t = f->cfg->bc[d][s];
  return d < f->dim && (t == NAV_BC_INFLOW || t == NAV_BC_OUTFLOW);
}

/* This rank's block has face (d, s) of the domain. */
static int nav_open_mine(const nav_flow *f, int d, int s) { return !nav_halo_face(f->halo, d, s); }

int nav_open_outflow(const nav_flow *f) {
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_OUTFLOW) return 1;
  return 0;
}

double nav_open_area(const nav_flow *f, int d) {
  double a = 1;
  for (int e = 0; e < f->dim; e++)
    if (e != d) a *= f->xf[e][f->n[e]] - f->xf[e][0];
  return a;
}

/* Coordinate of global index i (-1..n) along e: the face i (staggered) or the centre of cell i. */
static double nav_open_coord(const nav_flow *f, int e, int i, int staggered) {
  const int n = f->n[e];
  const double face = i < 0 ? f->xf[e][0] - f->w[e][-1] : i <= n ? f->xf[e][i] : f->xf[e][n] + f->w[e][n];
  return staggered ? face : face + 0.5 * f->w[e][i];
}

/* Prescribed value of component c at x on inflow face (d, s). */
static double nav_open_profile(const nav_flow *f, int d, int s, int c, const double x[3], const nav_table *table) {
  const nav_config *cfg = f->cfg;
  const char *prof = cfg->inflow_profile[d][s];
  double v = cfg->wall_velocity[d][s][c];
  if (!strcmp(prof, "parabolic")) {
    const double org[3] = {cfg->x0, cfg->y0, cfg->z0}, len[3] = {cfg->lx, cfg->ly, cfg->lz};
    for (int e = 0; e < f->dim; e++) {
      if (e == d || cfg->bc[e][0] == NAV_BC_PERIODIC) continue;
      const double xi = (x[e] - org[e]) / len[e];
      v *= 4 * xi * (1 - xi);
    }
  } else if (!strcmp(prof, "file")) {
    v = nav_table_at(table, 1 + c, x[nav_profile_direction(cfg, d)]);
  } else if (!strcmp(prof, "exact")) {
    int has;
    nav_flow_exact_velocity(cfg, c, x, 0, &v, &has);
  }
  return v;
}

/* Fill the host array h (block layout) at the points of face (d, s) for component c. */
static nav_err nav_open_fill_face(nav_flow *f, int d, int s, int c, nav_real *h) {
  const nav_config *cfg = f->cfg;
  const nav_box *b = &f->box;
  nav_table table = {0, 0, NULL};
  const int inflow = cfg->bc[d][s] == NAV_BC_INFLOW;
  if (inflow && !strcmp(cfg->inflow_profile[d][s], "file")) {
    char path[2 * NAV_CONFIG_STR + 8], why[600];
    nav_table_path(cfg->source, cfg->inflow_file[d][s], path, sizeof path);
    NAV_CHECK(!nav_table_read(path, 1 + f->dim, &table, why, sizeof why), NAV_ERR_INPUT, "%s: %s", cfg->source, why);
  }
  int has = 0;
  double v0;
  nav_flow_exact_velocity(cfg, 0, (const double[3]){0, 0, 0}, 0, &v0, &has);
  const int t0 = d == 0 ? 1 : 0, t1 = d == 2 ? 1 : 2;
  const int lo1 = f->dim == 3 ? -1 : 0, hi1 = f->dim == 3 ? b->n[t1] : 0;
  const int layer = s ? b->n[d] - 1 : 0;
  for (int q = lo1; q <= hi1; q++)
    for (int r = -1; r <= b->n[t0]; r++) {
      double x[3] = {0, 0, 0};
      x[d] = f->xf[d][s ? f->n[d] : 0];
      x[t0] = nav_open_coord(f, t0, b->g0[t0] + r, c == t0);
      if (f->dim == 3) x[t1] = nav_open_coord(f, t1, b->g0[t1] + q, c == t1);
      double v = 0;
      if (inflow)
        v = nav_open_profile(f, d, s, c, x, &table);
      else if (has)
        nav_flow_exact_velocity(cfg, c, x, 0, &v, &has);
      h[b->off + (nav_idx)layer * b->st[d] + (nav_idx)r * b->st[t0] + (nav_idx)q * b->st[t1]] = (nav_real)v;
    }
  nav_table_free(&table);
  return NAV_OK;
}

nav_err nav_open_create(nav_flow *f) {
  const nav_box *b = &f->box;
  nav_real *host = NULL;
  for (int d = 0; d < f->dim; d++) {
    if (!nav_open_face(f, d, 0) && !nav_open_face(f, d, 1)) continue;
    if (!host) {
      host = malloc((size_t)b->ntot * sizeof *host);
      NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the inflow/outflow planes");
    }
    for (int c = 0; c < f->dim; c++) {
      memset(host, 0, (size_t)b->ntot * sizeof *host);
      nav_err e = NAV_OK;
      for (int s = 0; s < 2 && e == NAV_OK; s++)
        if (nav_open_face(f, d, s) && nav_open_mine(f, d, s)) e = nav_open_fill_face(f, d, s, c, host);
      if (e == NAV_OK) e = f->ops->alloc((void **)&f->open[d][c], (size_t)b->ntot * sizeof *host);
      if (e == NAV_OK) e = f->ops->from_host(f->open[d][c], host, (size_t)b->ntot * sizeof *host);
      if (e != NAV_OK) {
        free(host);
        NAV_CALL(e);
      }
      for (int s = 0; s < 2; s++)
        if (nav_open_face(f, d, s)) f->vbc.plane[d][s][c] = f->open[d][c];
    }
  }
  free(host);
  return NAV_OK;
}

void nav_open_destroy(nav_flow *f) {
  for (int d = 0; d < 3; d++)
    for (int c = 0; c < 3; c++)
      if (f->open[d][c]) f->ops->free(f->open[d][c]);
  memset(f->open, 0, sizeof f->open);
}

nav_err nav_open_fluxes(nav_flow *f, double flux[3][2]) {
  double v[6] = {0, 0, 0, 0, 0, 0};
  for (int d = 0; d < f->dim; d++) { /* the open faces of direction d in one face_integral */
    const nav_real *x[2];
    int side[2], what[2] = {0, 0}, n = 0;
    for (int s = 0; s < 2; s++)
      if (nav_open_face(f, d, s) && nav_open_mine(f, d, s)) x[n] = f->open[d][d], side[n++] = s;
    double sums[2];
    if (n) NAV_CALL(f->ops->face_integral(&f->box, d, n, x, side, what, sums));
    for (int k = 0; k < n; k++)
      v[2 * d + side[k]] = side[k] ? sums[k] : -sums[k]; /* outward: -x on the low face */
  }
  nav_reduce_sum(f->comm, v, 6);
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) flux[d][s] = v[2 * d + s];
  return NAV_OK;
}

nav_err nav_open_advance(nav_flow *f, double dt) {
  double area = 0, flux[3][2];
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (nav_open_face(f, d, s) && f->cfg->bc[d][s] == NAV_BC_OUTFLOW) area += nav_open_area(f, d);
  if (area == 0) return NAV_OK;
  /* Q_in: the inflow faces' planes never change, but a sum is cheap next to a Poisson solve */
  NAV_CALL(nav_open_fluxes(f, flux));
  double q_in = 0, q_out = 0;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_INFLOW) q_in -= flux[d][s];
  const double uc = fmax(q_in, 0) / area;
  /* 1: convect every component out through every outflow face */
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_OUTFLOW && nav_open_mine(f, d, s))
        for (int c = 0; c < f->dim; c++)
          NAV_CALL(nav_open_kernels_of(f->ops)->outflow_update(&f->box, f->u[c], d, s, c == d, (nav_real)(dt * uc), 0, f->open[d][c]));
  /* 2: one uniform correction of the outward normal velocity: Q_out = Q_in */
  NAV_CALL(nav_open_fluxes(f, flux));
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_OUTFLOW) q_out += flux[d][s];
  const double shift = (q_in - q_out) / area;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_OUTFLOW && nav_open_mine(f, d, s))
        NAV_CALL(nav_open_kernels_of(f->ops)->outflow_update(&f->box, f->u[d], d, s, 1, 0, (nav_real)(s ? shift : -shift), f->open[d][d]));
  f->outflow_speed = uc;
  return NAV_OK;
}
