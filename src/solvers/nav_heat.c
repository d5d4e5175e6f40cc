/* Temperature set-up and convection monitors (see nav_heat.h). */
#include "solvers/nav_heat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_boundary.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_flow.h"

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

static nav_err nav_heat_initial(nav_flow *f) {
  const nav_box *b = &f->box;
  nav_real *host = calloc((size_t)b->ntot, sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the initial temperature");
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int ijk[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
        double x[3] = {0, 0, 0};
        for (int d = 0; d < f->dim; d++)
          x[d] = f->xf[d][ijk[d]] + 0.5 * f->w[d][ijk[d]];
        host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)nav_heat_initial_value(f->cfg, x);
      }
  const nav_err e = f->ops->from_host(f->T, host, (size_t)b->ntot * sizeof *host);
  free(host);
  NAV_CALL(e);
  return nav_fill_temperature_ghosts(f->ops, b, f->halo, &f->tbc, f->T);
}

nav_err nav_heat_create(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  if (strcmp(cfg->model, "boussinesq")) return NAV_OK;
  const nav_kernel_ops *ops = f->ops;
  const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
  nav_real **v[4] = {&f->T, &f->rhs_T, &f->rhs_T_old, &f->T_prev};
  for (int i = 0; i < 4; i++) {
    NAV_CALL(ops->alloc((void **)v[i], bytes));
    NAV_CALL(ops->set(&f->box, *v[i], 0));
  }
  nav_temperature_bc_from_config(cfg, f->w, f->n, &f->tbc);
  /* the steady-state change is relative to the spread of the fixed temperatures (else max |T|) */
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->tbc[d][s] == NAV_THERMAL_FIXED) {
        lo = fmin(lo, cfg->tbc_value[d][s]);
        hi = fmax(hi, cfg->tbc_value[d][s]);
      }
  f->t_scale = hi > lo ? hi - lo : 0;
  /* plane buffers of the monitors: the largest face plane of the block */
  size_t plane = 0;
  for (int d = 0; d < f->dim; d++) {
    const size_t len = (size_t)nav_face_points(&f->box, d);
    if (len > plane) plane = len;
  }
  for (int i = 0; i < 2; i++) {
    NAV_CALL(ops->alloc((void **)&f->plane[i], plane * sizeof(nav_real)));
    f->plane_host[i] = malloc(plane * sizeof(double));
    NAV_CHECK(f->plane_host[i], NAV_ERR_MEMORY, "cannot allocate the monitor planes");
  }
  NAV_CALL(nav_heat_initial(f));
  return nav_heat_diagnose(f);
}

void nav_heat_destroy(nav_flow *f) {
  nav_real *v[6] = {f->T, f->rhs_T, f->rhs_T_old, f->T_prev, f->plane[0], f->plane[1]};
  for (int i = 0; i < 6; i++)
    if (v[i]) f->ops->free(v[i]);
  for (int i = 0; i < 2; i++)
    free(f->plane_host[i]);
}

/* Copy the plane `layer` of direction dir of x into f->plane_host[slot] (host doubles). */
static nav_err nav_heat_plane(nav_flow *f, const nav_real *x, int dir, int layer, int slot) {
  const nav_box *b = &f->box;
  const size_t len = (size_t)nav_face_points(b, dir);
  NAV_CALL(f->ops->pack_face(b, x, dir, layer > b->n[dir] / 2, layer, f->plane[slot]));
  if (sizeof(nav_real) == sizeof(double))
    return f->ops->to_host(f->plane_host[slot], f->plane[slot], len * sizeof(double));
  nav_real *tmp = malloc(len * sizeof *tmp);
  NAV_CHECK(tmp, NAV_ERR_MEMORY, "cannot allocate a monitor plane");
  const nav_err e = f->ops->to_host(tmp, f->plane[slot], len * sizeof *tmp);
  for (size_t i = 0; i < len; i++)
    f->plane_host[slot][i] = tmp[i];
  free(tmp);
  return e;
}

/* Nusselt numbers of the faces with fixed temperatures that differ across their direction. */
static nav_err nav_heat_nusselt(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  const nav_box *b = &f->box;
  nav_heat_diag *h = &f->heat;
  const double len[3] = {cfg->lx, cfg->ly, cfg->lz};
  double sums[2 * NAV_HEAT_MAX_FACES] = {0};
  h->nfaces = 0;
  for (int d = 0; d < f->dim; d++) {
    const double dT = cfg->tbc_value[d][0] - cfg->tbc_value[d][1];
    if (cfg->tbc[d][0] != NAV_THERMAL_FIXED || cfg->tbc[d][1] != NAV_THERMAL_FIXED || dT == 0) continue;
    for (int s = 0; s < 2; s++) {
      const int m = h->nfaces++;
      h->face[m][0] = d;
      h->face[m][1] = s;
      const int touches = s ? b->g0[d] + b->n[d] == f->n[d] : b->g0[d] == 0;
      if (!touches) continue;
      const int adj = s ? b->n[d] - 1 : 0, ghost = s ? b->n[d] : -1;
      NAV_CALL(nav_heat_plane(f, f->T, d, adj, 0));
      NAV_CALL(nav_heat_plane(f, f->T, d, ghost, 1));
      const int G = s ? f->n[d] : 0; /* global face index */
      const double dc = 0.5 * (f->w[d][G - 1] + f->w[d][G]);
      int t0, t1;
      nav_face_plane(b, d, &t0, &t1);
      const int lo1 = f->dim == 3 ? -1 : 0, nq = f->dim == 3 ? b->n[t1] : 1;
      for (int q = 0; q < nq; q++)
        for (int r = 0; r < b->n[t0]; r++) {
          const nav_idx slot = nav_face_slot(b, t0, r, q, lo1);
          const double ta = f->plane_host[0][slot], tg = f->plane_host[1][slot];
          const double grad = s ? (tg - ta) / dc : (ta - tg) / dc; /* dT/dx_d at the face */
          const double area = f->w[t0][b->g0[t0] + r] * (f->dim == 3 ? f->w[t1][b->g0[t1] + q] : 1);
          sums[2 * m] += -grad * area * len[d] / dT;
          sums[2 * m + 1] += area;
        }
    }
  }
  nav_reduce_sum(f->comm, sums, 2 * h->nfaces);
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
static nav_err nav_heat_line_max(nav_flow *f, int c, double *vmax, double *pos) {
  const nav_config *cfg = f->cfg;
  const nav_box *b = &f->box;
  const int a = 1 - c; /* the direction along the line */
  const double org[3] = {cfg->x0, cfg->y0, cfg->z0}, len[3] = {cfg->lx, cfg->ly, cfg->lz};
  const int N = f->n[a];
  const int ncen = (N > f->n[2] ? N : f->n[2]) + 2;
  double *prof = calloc((size_t)N, sizeof *prof), *cen = malloc((size_t)ncen * sizeof *cen);
  double *face = malloc((size_t)(f->n[c] + 1) * sizeof *face);
  NAV_CHECK(prof && cen && face, NAV_ERR_MEMORY, "cannot allocate a monitor line");
  /* the plane of faces of c at the mid-point, and the z centres around z = mid */
  for (int i = 0; i <= f->n[c]; i++)
    face[i] = f->xf[c][i];
  int I, K = 0;
  double tc, tz = 0;
  nav_heat_bracket(face, 0, f->n[c], org[c] + 0.5 * len[c], &I, &tc);
  if (f->dim == 3) {
    for (int k = -1; k <= f->n[2]; k++)
      cen[k + 1] = (k < 0         ? f->xf[2][0] - f->w[2][-1]
                    : k < f->n[2] ? f->xf[2][k]
                                  : f->xf[2][f->n[2]]) +
                   0.5 * f->w[2][k];
    nav_heat_bracket(cen + 1, -1, f->n[2], org[2] + 0.5 * len[2], &K, &tz);
  }
  const int own_c = b->g0[c] <= I && I < b->g0[c] + b->n[c];
  const int kk = K < 0 ? 0 : K;
  const int own_z = f->dim < 3 || (b->g0[2] <= kk && kk < b->g0[2] + b->n[2]);
  nav_err e = NAV_OK;
  if (own_c && own_z) {
    const int li = I - b->g0[c];
    e = nav_heat_plane(f, f->u[c], c, li, 0);
    if (e == NAV_OK && tc > 0) e = nav_heat_plane(f, f->u[c], c, li + 1, 1);
    int t0, t1;
    nav_face_plane(b, c, &t0, &t1); /* t0 == a */
    const int lo1 = f->dim == 3 ? -1 : 0, lk = K - b->g0[2];
    for (int r = 0; r < b->n[a] && e == NAV_OK; r++) {
      double v = 0;
      for (int s = 0; s < (tc > 0 ? 2 : 1); s++) {
        const double *pl = f->plane_host[s];
        const double ws = s ? tc : 1 - tc;
        double x = pl[nav_face_slot(b, t0, r, f->dim == 3 ? lk : 0, lo1)];
        if (f->dim == 3) x = (1 - tz) * x + tz * pl[nav_face_slot(b, t0, r, lk + 1, lo1)];
        v += ws * x;
      }
      prof[b->g0[a] + r] = v;
    }
  }
  nav_reduce_sum(f->comm, prof, N); /* every rank, so that a failed copy cannot hang the others */
  /* discrete maximum, refined by the parabola through it and its neighbours */
  for (int j = 0; j < N; j++)
    cen[j] = f->xf[a][j] + 0.5 * f->w[a][j];
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

nav_err nav_heat_diagnose(nav_flow *f) {
  if (!f->T) return NAV_OK;
  NAV_CALL(nav_heat_nusselt(f));
  NAV_CALL(nav_heat_line_max(f, 0, &f->heat.u_max, &f->heat.u_max_y));
  return nav_heat_line_max(f, 1, &f->heat.v_max, &f->heat.v_max_x);
}
