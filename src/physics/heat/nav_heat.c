/* Temperature set-up and convection monitors (see nav_heat.h). */
#include "physics/heat/nav_heat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_boundary.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"

void nav_flow_exact_temperature(const nav_config *cfg, const double x[3], double t, double *value, int *has) {
  *has = 0;
  *value = 0;
  if (strcmp(cfg->t_initial_field, "wave")) return;
  const double len[3] = {cfg->lx, cfg->ly, cfg->lz}, org[3] = {cfg->x0, cfg->y0, cfg->z0};
  const int uniform = !strcmp(cfg->initial, "uniform");
  double k2 = 0, shape = cfg->t_amplitude;
  for (int d = 0; d < cfg->dim; d++) {
    const double k = 2 * NAV_PI / len[d], xi = x[d] - org[d] - (uniform ? cfg->uniform_velocity[d] : 0) * t;
    k2 += k * k;
    shape *= d == 0 ? sin(k * xi) : cos(k * xi);
  }
  *has = 1;
  *value = cfg->t_initial + shape * exp(-cfg->diffusivity * k2 * t);
}

/* The initial temperature at the cell centre x. */
static double nav_heat_initial_value(const nav_config *cfg, const double x[3]) {
  double v;
  int has;
  nav_flow_exact_temperature(cfg, x, 0, &v, &has);
  if (has) return v;
  const double len[3] = {cfg->lx, cfg->ly, cfg->lz}, org[3] = {cfg->x0, cfg->y0, cfg->z0};
  v = cfg->t_initial;
  if (!strcmp(cfg->t_initial_field, "conduction"))
    for (int d = 0; d < cfg->dim; d++)
      if (cfg->tbc[d][0] == NAV_THERMAL_FIXED && cfg->tbc[d][1] == NAV_THERMAL_FIXED) {
        const double lo = cfg->tbc_value[d][0], hi = cfg->tbc_value[d][1];
        v = lo + (hi - lo) * (x[d] - org[d]) / len[d];
        break;
      }
  /* the perturbation of the Rayleigh-Benard onset mode */
  return v + cfg->t_amplitude * cos(2 * NAV_PI * (x[0] - org[0]) / len[0]) * sin(NAV_PI * (x[1] - org[1]) / len[1]);
}

static nav_err nav_heat_initial(const nav_flow_view *v, nav_scalar_slot *sc) {
  const nav_box *b = v->box;
  nav_real *host = calloc((size_t)b->ntot, sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the initial temperature");
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int ijk[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
        double x[3] = {0, 0, 0};
        for (int d = 0; d < v->dim; d++)
          x[d] = v->xf[d][ijk[d]] + 0.5 * v->w[d][ijk[d]];
        host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)nav_heat_initial_value(v->cfg, x);
      }
  const nav_err e = v->ops->from_host(sc->T, host, (size_t)b->ntot * sizeof *host);
  free(host);
  NAV_CALL(e);
  return nav_fill_temperature_ghosts(v->ops, b, v->halo, &sc->tbc, sc->T);
}

nav_err nav_heat_setup(nav_heat *h, nav_flow_view *v) {
  const nav_config *cfg = v->cfg;
  nav_scalar_slot *sc = v->scalar;
  h->sc = sc;
  const nav_kernel_ops *ops = v->ops;
  const size_t bytes = (size_t)v->box->ntot * sizeof(nav_real);
  nav_real **a[4] = {&sc->T, &sc->rhs_T, &sc->rhs_T_old, &sc->T_prev};
  for (int i = 0; i < 4; i++) {
    NAV_CALL(ops->alloc((void **)a[i], bytes));
    NAV_CALL(ops->set(v->box, *a[i], 0));
  }
  nav_temperature_bc_from_config(cfg, v->w, v->n, &sc->tbc);
  sc->kappa = cfg->diffusivity;
  if (cfg->diffusivity > *v->max_diffusivity) *v->max_diffusivity = cfg->diffusivity;
  /* the steady-state change is relative to the spread of the fixed temperatures (else max |T|) */
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->tbc[d][s] == NAV_THERMAL_FIXED) {
        lo = fmin(lo, cfg->tbc_value[d][s]);
        hi = fmax(hi, cfg->tbc_value[d][s]);
      }
  sc->t_scale = hi > lo ? hi - lo : 0;
  /* plane buffers of the monitors: the largest face plane of the block */
  size_t plane = 0;
  for (int d = 0; d < v->dim; d++) {
    const size_t len = (size_t)nav_face_points(v->box, d);
    if (len > plane) plane = len;
  }
  for (int i = 0; i < 2; i++) {
    NAV_CALL(ops->alloc((void **)&h->plane[i], plane * sizeof(nav_real)));
    h->plane_host[i] = malloc(plane * sizeof(double));
    NAV_CHECK(h->plane_host[i], NAV_ERR_MEMORY, "cannot allocate the monitor planes");
  }
  return nav_heat_initial(v, sc);
}

void nav_heat_free(nav_heat *h, nav_flow_view *v) {
  nav_scalar_slot *sc = v->scalar;
  nav_real *a[6] = {sc->T, sc->rhs_T, sc->rhs_T_old, sc->T_prev, h->plane[0], h->plane[1]};
  for (int i = 0; i < 6; i++)
    if (a[i]) v->ops->free(a[i]);
  sc->T = sc->rhs_T = sc->rhs_T_old = sc->T_prev = NULL;
  for (int i = 0; i < 2; i++)
    free(h->plane_host[i]);
}

/* Copy the plane `layer` of direction dir of x into h->plane_host[slot] (host doubles). */
static nav_err nav_heat_plane(nav_heat *h, const nav_flow_view *v, const nav_real *x, int dir, int layer, int slot) {
  const nav_box *b = v->box;
  const size_t len = (size_t)nav_face_points(b, dir);
  NAV_CALL(v->ops->pack_face(b, x, dir, layer > b->n[dir] / 2, layer, h->plane[slot]));
  if (sizeof(nav_real) == sizeof(double))
    return v->ops->to_host(h->plane_host[slot], h->plane[slot], len * sizeof(double));
  nav_real *tmp = malloc(len * sizeof *tmp);
  NAV_CHECK(tmp, NAV_ERR_MEMORY, "cannot allocate a monitor plane");
  const nav_err e = v->ops->to_host(tmp, h->plane[slot], len * sizeof *tmp);
  for (size_t i = 0; i < len; i++)
    h->plane_host[slot][i] = tmp[i];
  free(tmp);
  return e;
}

/* Nusselt numbers of the faces with fixed temperatures that differ across their direction. */
static nav_err nav_heat_nusselt(nav_heat *hm, const nav_flow_view *v) {
  const nav_config *cfg = v->cfg;
  const nav_box *b = v->box;
  nav_heat_diag *h = &hm->diag;
  const double len[3] = {cfg->lx, cfg->ly, cfg->lz};
  double sums[2 * NAV_HEAT_MAX_FACES] = {0};
  h->nfaces = 0;
  for (int d = 0; d < v->dim; d++) {
    const double dT = cfg->tbc_value[d][0] - cfg->tbc_value[d][1];
    if (cfg->tbc[d][0] != NAV_THERMAL_FIXED || cfg->tbc[d][1] != NAV_THERMAL_FIXED || dT == 0) continue;
    for (int s = 0; s < 2; s++) {
      const int m = h->nfaces++;
      h->face[m][0] = d;
      h->face[m][1] = s;
      const int touches = s ? b->g0[d] + b->n[d] == v->n[d] : b->g0[d] == 0;
      if (!touches) continue;
      const int adj = s ? b->n[d] - 1 : 0, ghost = s ? b->n[d] : -1;
      NAV_CALL(nav_heat_plane(hm, v, hm->sc->T, d, adj, 0));
      NAV_CALL(nav_heat_plane(hm, v, hm->sc->T, d, ghost, 1));
      const int G = s ? v->n[d] : 0; /* global face index */
      const double dc = 0.5 * (v->w[d][G - 1] + v->w[d][G]);
      int t0, t1;
      nav_face_plane(b, d, &t0, &t1);
      const int lo1 = v->dim == 3 ? -1 : 0, nq = v->dim == 3 ? b->n[t1] : 1;
      for (int q = 0; q < nq; q++)
        for (int r = 0; r < b->n[t0]; r++) {
          const nav_idx slot = nav_face_slot(b, t0, r, q, lo1);
          const double ta = hm->plane_host[0][slot], tg = hm->plane_host[1][slot];
          const double grad = s ? (tg - ta) / dc : (ta - tg) / dc; /* dT/dx_d at the face */
          const double area = v->w[t0][b->g0[t0] + r] * (v->dim == 3 ? v->w[t1][b->g0[t1] + q] : 1);
          sums[2 * m] += -grad * area * len[d] / dT;
          sums[2 * m + 1] += area;
        }
    }
  }
  nav_reduce_sum(v->comm, sums, 2 * h->nfaces);
  for (int m = 0; m < h->nfaces; m++)
    h->nusselt[m] = sums[2 * m + 1] > 0 ? sums[2 * m] / sums[2 * m + 1] : 0;
  return NAV_OK;
}

/* Index i and weight t of the point x between the positions pos(i) and pos(i+1), i in lo..hi-1. */
static void nav_heat_bracket(const double *pos, int lo, int hi, double x, int *i, double *t) {
  int k = lo;
  while (k + 1 < hi && pos[k + 1] <= x)
    k++;
  *i = k;
  *t = (x - pos[k]) / (pos[k + 1] - pos[k]);
  if (fabs(*t) < 1e-9) *t = 0; /* on a point: no interpolation across ranks */
  if (fabs(1 - *t) < 1e-9 && k + 1 < hi) {
    *i = k + 1;
    *t = 0;
  }
}

/* Largest velocity component c (0: u along y on x = mid; 1: v along x on y = mid; z = mid in 3D),
 * scaled by lx / kappa, and its position scaled by the length of the line's direction. */
static nav_err nav_heat_line_max(nav_heat *hm, const nav_flow_view *v, int c, double *vmax, double *pos) {
  const nav_config *cfg = v->cfg;
  const nav_box *b = v->box;
  const int a = 1 - c; /* the direction along the line */
  const double org[3] = {cfg->x0, cfg->y0, cfg->z0}, len[3] = {cfg->lx, cfg->ly, cfg->lz};
  const int N = v->n[a];
  const int ncen = (N > v->n[2] ? N : v->n[2]) + 2;
  double *prof = calloc((size_t)N, sizeof *prof), *cen = malloc((size_t)ncen * sizeof *cen);
  double *face = malloc((size_t)(v->n[c] + 1) * sizeof *face);
  NAV_CHECK(prof && cen && face, NAV_ERR_MEMORY, "cannot allocate a monitor line");
  /* the plane of faces of c at the mid-point, and the z centres around z = mid */
  for (int i = 0; i <= v->n[c]; i++)
    face[i] = v->xf[c][i];
  int I, K = 0;
  double tc, tz = 0;
  nav_heat_bracket(face, 0, v->n[c], org[c] + 0.5 * len[c], &I, &tc);
  if (v->dim == 3) {
    for (int k = -1; k <= v->n[2]; k++)
      cen[k + 1] = (k < 0         ? v->xf[2][0] - v->w[2][-1]
                    : k < v->n[2] ? v->xf[2][k]
                                  : v->xf[2][v->n[2]]) +
                   0.5 * v->w[2][k];
    nav_heat_bracket(cen + 1, -1, v->n[2], org[2] + 0.5 * len[2], &K, &tz);
  }
  const int own_c = b->g0[c] <= I && I < b->g0[c] + b->n[c];
  const int kk = K < 0 ? 0 : K;
  const int own_z = v->dim < 3 || (b->g0[2] <= kk && kk < b->g0[2] + b->n[2]);
  nav_err e = NAV_OK;
  if (own_c && own_z) {
    const int li = I - b->g0[c];
    e = nav_heat_plane(hm, v, v->u[c], c, li, 0);
    if (e == NAV_OK && tc > 0) e = nav_heat_plane(hm, v, v->u[c], c, li + 1, 1);
    int t0, t1;
    nav_face_plane(b, c, &t0, &t1); /* t0 == a */
    const int lo1 = v->dim == 3 ? -1 : 0, lk = K - b->g0[2];
    for (int r = 0; r < b->n[a] && e == NAV_OK; r++) {
      double val = 0;
      for (int s = 0; s < (tc > 0 ? 2 : 1); s++) {
        const double *pl = hm->plane_host[s];
        const double ws = s ? tc : 1 - tc;
        double x = pl[nav_face_slot(b, t0, r, v->dim == 3 ? lk : 0, lo1)];
        if (v->dim == 3) x = (1 - tz) * x + tz * pl[nav_face_slot(b, t0, r, lk + 1, lo1)];
        val += ws * x;
      }
      prof[b->g0[a] + r] = val;
    }
  }
  nav_reduce_sum(v->comm, prof, N); /* every rank, so that a failed copy cannot hang the others */
  /* discrete maximum, refined by the parabola through it and its neighbours */
  for (int j = 0; j < N; j++)
    cen[j] = v->xf[a][j] + 0.5 * v->w[a][j];
  int jm = 0;
  for (int j = 1; j < N; j++)
    if (prof[j] > prof[jm]) jm = j;
  double best = prof[jm], at = cen[jm];
  if (jm > 0 && jm < N - 1) {
    const double d1 = cen[jm - 1] - cen[jm], d3 = cen[jm + 1] - cen[jm];
    const double s1 = (prof[jm - 1] - prof[jm]) / d1, s3 = (prof[jm + 1] - prof[jm]) / d3;
    const double q = (s1 - s3) / (d1 - d3), l = s1 - q * d1; /* p(x) = p_m + l dx + q dx^2 */
    if (q < 0) {
      at = cen[jm] - l / (2 * q);
      best = prof[jm] - l * l / (4 * q);
    }
  }
  *vmax = best * cfg->lx / cfg->diffusivity;
  *pos = (at - org[a]) / len[a];
  free(prof);
  free(cen);
  free(face);
  NAV_CALL(e);
  return NAV_OK;
}

nav_err nav_heat_measure(nav_heat *h, nav_flow_view *v) {
  NAV_CALL(nav_heat_nusselt(h, v));
  NAV_CALL(nav_heat_line_max(h, v, 0, &h->diag.u_max, &h->diag.u_max_y));
  return nav_heat_line_max(h, v, 1, &h->diag.v_max, &h->diag.v_max_x);
}
