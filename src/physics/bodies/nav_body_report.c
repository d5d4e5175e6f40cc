/* Reports of the immersed bodies: monitor columns, the no-slip error and the recirculation length from
 * the final fields, the time statistics of the coefficients, and the "bodies" list of summary.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/nav_host_fields.h"
#include "physics/bodies/nav_body.h"

/* Component c (c < 0: pressure) of the global host fields h at x (nav_host_fields.h). */
static double nav_body_sample(const nav_flow_view *v, const nav_host_fields *h, int c, const double x[3]) {
  return nav_host_interpolate_grid(v->dim, v->n, v->xf, v->w, h, c, x);
}

void nav_body_monitor_header(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_body *B = m->data;
  for (int k = 0; k < B->n; k++) {
    fprintf(out, ",cd_%s,cl_%s", B->b[k].name, B->b[k].name);
    if (v->dim == 3) fprintf(out, ",cs_%s", B->b[k].name);
  }
}

void nav_body_monitor_row(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_body *B = m->data;
  for (int k = 0; k < B->n; k++)
    for (int c = 0; c < v->dim; c++) fprintf(out, ",%.15e", B->b[k].coef[c]);
}

/* Mean (trapezoidal in time), amplitude (half the range) of column col of the history; the Strouhal
 * number from the upward zero crossings of cl - mean (linear interpolation between rows), L / (U T) with
 * T the mean period between the first and the last crossing (NaN with fewer than two crossings). */
static double nav_hist_mean(const nav_body_one *o, int col) {
  if (o->nhist == 0) return NAN;
  if (o->nhist == 1) return o->hist[col];
  double s = 0, T = 0;
  for (int i = 1; i < o->nhist; i++) {
    const double *a = o->hist + 4 * (i - 1), *b = o->hist + 4 * i, dt = b[0] - a[0];
    s += 0.5 * (a[col] + b[col]) * dt;
    T += dt;
  }
  return T > 0 ? s / T : o->hist[col];
}

static void nav_hist_stats(const nav_flow_view *v, const nav_body_one *o, nav_body_stats *st) {
  st->cd_mean = nav_hist_mean(o, 1);
  st->cl_mean = nav_hist_mean(o, 2);
  st->cs_mean = nav_hist_mean(o, 3);
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (int i = 0; i < o->nhist; i++) {
    lo = fmin(lo, o->hist[4 * i + 2]);
    hi = fmax(hi, o->hist[4 * i + 2]);
  }
  st->cl_amplitude = o->nhist ? 0.5 * (hi - lo) : NAN;
  double first = NAN, last = NAN;
  int crossings = 0;
  for (int i = 1; i < o->nhist; i++) {
    const double *a = o->hist + 4 * (i - 1), *b = o->hist + 4 * i;
    const double ya = a[2] - st->cl_mean, yb = b[2] - st->cl_mean;
    if (ya < 0 && yb >= 0) {
      const double t = a[0] + (b[0] - a[0]) * (-ya) / (yb - ya);
      if (!crossings) first = t;
      last = t;
      crossings++;
    }
  }
  st->st = crossings >= 2 && st->cl_amplitude > 1e-6
               ? v->cfg->reference_length * (crossings - 1) / ((last - first) * v->cfg->reference_velocity)
               : NAN;
}

/* The no-slip error at the surface points of body k: the cell centres within half a cell of the surface,
 * projected onto it along the normal (central differences of the distance). Two measures: the velocity interpolated
 * there from the faces of both sides (slip_*: its interpolation across the kink of the profile is itself of first
 * order, about |du/dn| h / 4), and the velocity that the fluid side extrapolates to there, linearly from the points
 * 1.5 h and 3 h out along the normal (slip_ext_*: 2 u(1.5 h) - u(3 h), h the smallest width of the cell; the
 * interpolation cells of those points lie outside a flat surface, and the extrapolation errs by O(h^2), so it
 * measures the slip of the flow next to the body to second order). */
static void nav_body_slip(const nav_flow_view *v, const nav_host_fields *h, const nav_body_one *o, nav_body_stats *st) {
  double smax = 0, s2 = 0, xmax = 0, x2 = 0;
  int count = 0;
  const int n3 = v->dim == 3 ? v->n[2] : 1;
  for (int k = 0; k < n3; k++)
    for (int j = 0; j < v->n[1]; j++)
      for (int i = 0; i < v->n[0]; i++) {
        const int g[3] = {i, j, k};
        double x[3] = {0, 0, 0}, hmin = HUGE_VAL;
        int inside = 1;
        for (int d = 0; d < v->dim; d++) {
          x[d] = v->xf[d][g[d]] + 0.5 * v->w[d][g[d]];
          hmin = fmin(hmin, v->w[d][g[d]]);
          inside = inside && x[d] >= o->lo[d] - 2 * v->w[d][g[d]] && x[d] <= o->hi[d] + 2 * v->w[d][g[d]];
        }
        if (!inside) continue;
        const double phi = nav_body_distance(o, x);
        if (fabs(phi) > 0.5 * hmin) continue;
        double n[3];
        if (!(nav_body_normal(o, v->dim, x, 1e-6 * hmin, n) > 0)) continue;
        double xs[3] = {x[0], x[1], x[2]}, e2 = 0;
        for (int d = 0; d < v->dim; d++) xs[d] -= phi * n[d];
        double x1[3] = {xs[0], xs[1], xs[2]}, x2p[3] = {xs[0], xs[1], xs[2]}, ex2 = 0;
        for (int d = 0; d < v->dim; d++) {
          x1[d] += 1.5 * hmin * n[d];
          x2p[d] += 3 * hmin * n[d];
        }
        for (int c = 0; c < v->dim; c++) { /* against the rigid velocity of the surface there */
          const double vs = nav_body_rigid_velocity(o, c, xs);
          const double du = nav_body_sample(v, h, c, xs) - vs;
          const double dx = 2 * nav_body_sample(v, h, c, x1) - nav_body_sample(v, h, c, x2p) - vs;
          e2 += du * du;
          ex2 += dx * dx;
        }
        const double e = sqrt(e2) / v->cfg->reference_velocity, ex = sqrt(ex2) / v->cfg->reference_velocity;
        smax = fmax(smax, e);
        s2 += e * e;
        xmax = fmax(xmax, ex);
        x2 += ex * ex;
        count++;
      }
  st->samples = count;
  st->slip_max = count ? smax : NAN;
  st->slip_rms = count ? sqrt(s2 / count) : NAN;
  st->slip_ext_max = count ? xmax : NAN;
  st->slip_ext_rms = count ? sqrt(x2 / count) : NAN;
}

/* 2D: the recirculation length behind body o along y = center_y, in units of reference_length. */
static double nav_body_wake(const nav_flow_view *v, const nav_host_fields *h, const nav_body_one *o) {
  if (v->dim != 2) return NAN;
  double hmin = HUGE_VAL;
  for (int i = 0; i < v->n[0]; i++) hmin = fmin(hmin, v->w[0][i]);
  const double step = 0.25 * hmin, xend = v->xf[0][v->n[0]] - v->w[0][v->n[0] - 1];
  double x[3] = {o->hi[0], o->center[1], 0};
  /* march from the rear: the wake region of u < 0 must start within a cell of it */
  double u = nav_body_sample(v, h, 0, x);
  const double limit = o->hi[0] + 2 * v->w[0][0] + 4 * hmin;
  while (u >= 0 && x[0] < limit && x[0] < xend) {
    x[0] += step;
    u = nav_body_sample(v, h, 0, x);
  }
  if (u >= 0) return 0;
  double xprev = x[0], uprev = u;
  while (u < 0 && x[0] < xend) {
    xprev = x[0];
    uprev = u;
    x[0] += step;
    u = nav_body_sample(v, h, 0, x);
  }
  const double xz = u >= 0 ? xprev + (x[0] - xprev) * (-uprev) / (u - uprev) : x[0];
  return (xz - o->hi[0]) / v->cfg->reference_length;
}

nav_err nav_body_report(nav_model *m, nav_flow_view *v, const nav_host_fields *h, const char *dir) {
  (void)dir;
  nav_body *B = m->data;
  nav_body_stats *st = B->stats;
  if (v->dc->rank != 0 || !h->p) return NAV_OK; /* the global fields are on rank 0 (none: the gather failed) */
  for (int c = 0; c < v->dim; c++)
    if (!h->u[c]) return NAV_OK;
  B->reported = 1;
  for (int k = 0; k < B->n; k++) {
    const nav_body_one *o = &B->b[k];
    memset(&st[k], 0, sizeof st[k]);
    nav_hist_stats(v, o, &st[k]);
    nav_body_slip(v, h, o, &st[k]);
    st[k].lw_over_d = nav_body_wake(v, h, o);
    printf("body %s: cd %.5f cl %.5f (mean over %d monitor rows from t = %g), cl amplitude %.5f, St %.5f, "
           "L_w/D %.4f, no-slip error max %.3e rms %.3e (extrapolated from the fluid: max %.3e rms %.3e; %d surface "
           "points)\n",
           o->name, st[k].cd_mean, st[k].cl_mean, o->nhist, v->cfg->average_start, st[k].cl_amplitude, st[k].st,
           st[k].lw_over_d, st[k].slip_max, st[k].slip_rms, st[k].slip_ext_max, st[k].slip_ext_rms, st[k].samples);
  }
  return NAV_OK;
}

/* ", \"key\": value" of one number of summary.json (null when not finite). */
static void nav_json_num(FILE *out, const char *key, double x) {
  char buf[32];
  fprintf(out, ", \"%s\": %s", key, nav_json_real(x, "%.10g", buf));
}

void nav_body_summary(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_body *B = m->data;
  const nav_body_stats *st = B->stats;
  if (!B->reported) return;
  fprintf(out, ",\n  \"bodies\": [");
  for (int k = 0; k < B->n; k++) {
    const nav_body_one *o = &B->b[k];
    fprintf(out, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"rows\": %d", k ? "," : "", o->name, o->shape.kind,
            o->nhist);
    nav_json_num(out, "cd_mean", st[k].cd_mean);
    nav_json_num(out, "cl_mean", st[k].cl_mean);
    if (v->dim == 3) nav_json_num(out, "cs_mean", st[k].cs_mean);
    nav_json_num(out, "cl_amplitude", st[k].cl_amplitude);
    nav_json_num(out, "st", st[k].st);
    nav_json_num(out, "lw_over_d", st[k].lw_over_d);
    nav_json_num(out, "slip_max", st[k].slip_max);
    nav_json_num(out, "slip_rms", st[k].slip_rms);
    nav_json_num(out, "slip_ext_max", st[k].slip_ext_max);
    nav_json_num(out, "slip_ext_rms", st[k].slip_ext_rms);
    fprintf(out, ", \"slip_points\": %d", st[k].samples);
    nav_json_num(out, "cd", o->coef[0]);
    nav_json_num(out, "cl", o->coef[1]);
    fprintf(out, "}");
  }
  fprintf(out, "\n  ]");
}
