/* Validation against Ghia et al. (1982) and analytic solutions (see nav_validation.h). */
#include "io/nav_validation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "io/nav_output.h"
#include "grid/nav_geometry.h"
#include "physics/heat/nav_heat.h" /* the analytic temperature of the heat-wave verification */

extern const char nav_data_ghia1982_csv[];
extern const char nav_data_ghia1982_flags_csv[];

/* Gather the interior of the block array src of every rank into the new global host array *dst
 * (rank 0; ghosts 0). local and block are scratch of the local sizes, global of the global size. */
static nav_err nav_host_gather(nav_flow *f, const nav_real *src, nav_real *local, double *block, double *global,
                               const nav_box *gb, nav_real **dst) {
  const nav_box *lb = &f->box;
  NAV_CALL(f->ops->to_host(local, src, (size_t)lb->ntot * sizeof(nav_real)));
  nav_idx q = 0;
  for (int k = 0; k < lb->n[2]; k++)
    for (int j = 0; j < lb->n[1]; j++)
      for (int i = 0; i < lb->n[0]; i++) block[q++] = local[lb->off + i * lb->st[0] + j * lb->st[1] + k * lb->st[2]];
  NAV_CALL(nav_decomp_gather(&f->dc, block, global, 0));
  if (f->dc.rank != 0) return NAV_OK;
  *dst = calloc((size_t)gb->ntot, sizeof(nav_real));
  NAV_CHECK(*dst, NAV_ERR_MEMORY, "cannot allocate host fields");
  q = 0;
  for (int k = 0; k < gb->n[2]; k++)
    for (int j = 0; j < gb->n[1]; j++)
      for (int i = 0; i < gb->n[0]; i++) (*dst)[gb->off + i * gb->st[0] + j * gb->st[1] + k * gb->st[2]] = (nav_real)global[q++];
  return NAV_OK;
}

nav_err nav_host_fields_fetch(nav_flow *f, nav_host_fields *h) {
  memset(h, 0, sizeof *h);
  const nav_box *lb = &f->box;
  const int root = f->dc.rank == 0;
  const int zero[3] = {0, 0, 0};
  nav_box_layout(f->dim, f->n, zero, &h->box);
  const nav_box *gb = &h->box;
  const size_t nb = (size_t)lb->n[0] * lb->n[1] * lb->n[2], ng = (size_t)f->n[0] * f->n[1] * (f->dim == 3 ? f->n[2] : 1);
  nav_real *local = malloc((size_t)lb->ntot * sizeof *local);
  double *block = malloc(nb * sizeof *block), *global = root ? malloc(ng * sizeof *global) : NULL;
  nav_err e = local && block && (global || !root) ? NAV_OK : NAV_ERR_MEMORY;
  const int last = f->scalar.T ? f->dim : f->dim - 1; /* c == dim: the temperature */
  for (int c = -1; c <= last && e == NAV_OK; c++) {
    nav_real **dst = c < 0 ? &h->p : c == f->dim ? &h->T : &h->u[c];
    const nav_real *src = c < 0 ? f->p : c == f->dim ? f->scalar.T : f->u[c];
    e = nav_host_gather(f, src, local, block, global, gb, dst);
  }
  /* the values on inflow and outflow faces (solvers/nav_open.h), for the ghosts below */
  nav_velocity_bc vbc = f->vbc;
  for (int d = 0; d < 3 && e == NAV_OK; d++)
    for (int c = 0; c < 3 && e == NAV_OK; c++) {
      if (!f->open[d][c]) continue;
      e = nav_host_gather(f, f->open[d][c], local, block, global, gb, &h->open[d][c]);
      for (int s = 0; s < 2; s++)
        if (vbc.plane[d][s][c]) vbc.plane[d][s][c] = h->open[d][c];
    }
  free(local);
  free(block);
  free(global);
  NAV_CHECK(e != NAV_ERR_MEMORY, NAV_ERR_MEMORY, "cannot allocate host fields");
  NAV_CALL(e);
  if (!root) return NAV_OK;
  /* the ghosts of the global grid, as one block would have them */
  NAV_CALL(nav_fill_velocity_ghosts(&nav_kernel_ops_cpu, gb, NULL, &vbc, h->u));
  if (h->T) NAV_CALL(nav_fill_temperature_ghosts(&nav_kernel_ops_cpu, gb, NULL, &f->scalar.tbc, h->T));
  return nav_fill_scalar_ghosts(&nav_kernel_ops_cpu, gb, NULL, (const nav_scalar_bc(*)[2])f->pbc, h->p);
}

void nav_host_fields_free(nav_host_fields *h) {
  free(h->p);
  free(h->T);
  for (int c = 0; c < 3; c++) free(h->u[c]);
  for (int d = 0; d < 3; d++)
    for (int c = 0; c < 3; c++) free(h->open[d][c]);
  memset(h, 0, sizeof *h);
}

double nav_host_interpolate(const nav_flow *f, const nav_host_fields *h, int c, const double x[3]) {
  return nav_host_interpolate_grid(f->dim, f->n, f->xf, f->w, h, c, x);
}

/* Is (re, profile, coord) flagged SUSPECT_EXCLUDE? */
static int nav_ghia_excluded(int re, const char *profile, double coord) {
  const char *s = strchr(nav_data_ghia1982_flags_csv, '\n');
  while (s && *++s) {
    int r;
    char prof[64];
    double x;
    if (sscanf(s, "%d,%63[^,],%lf", &r, prof, &x) == 3 && r == re && !strcmp(prof, profile) &&
        fabs(x - coord) < 1e-9 && strstr(s, "SUSPECT_EXCLUDE") && strstr(s, "SUSPECT_EXCLUDE") < strchr(s, '\n'))
      return 1;
    s = strchr(s, '\n');
  }
  return 0;
}

static int nav_is_cavity(const nav_config *c, double *U) {
  if (c->dim != 2 || fabs(c->lx - c->ly) > 1e-12 * c->lx) return 0;
  for (int d = 0; d < 2; d++)
    for (int s = 0; s < 2; s++) {
      if (c->bc[d][s] != NAV_BC_WALL) return 0;
      for (int k = 0; k < 3; k++)
        if (!(d == 1 && s == 1 && k == 0) && c->wall_velocity[d][s][k] != 0) return 0;
    }
  *U = c->wall_velocity[1][1][0];
  return *U > 0 && !strcmp(c->initial, "rest");
}

/* Is x closer than output.error_margin to an outflow face? */
static int nav_near_outflow(const nav_flow *f, const double x[3]) {
  const double m = f->cfg->error_margin;
  for (int d = 0; d < f->dim && m > 0; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_OUTFLOW && fabs(x[d] - f->xf[d][s ? f->n[d] : 0]) < m) return 1;
  return 0;
}

/* Max (into *emax) and sum of squares (into *sum, *count points) of the error of the velocity
 * component c at its interior faces, or of the temperature (c < 0) at the cell centres, against the
 * analytic fields at f->t. Returns 0 (nothing added) when the case has no analytic field. */
/* max(a, b) that keeps a NaN (fmax drops it: a blown-up field would report an error of 0) */
static double nav_max_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmax(a, b); }

static int nav_error_norms(const nav_flow *f, const nav_host_fields *h, int c, double *emax, double *sum, long *count) {
  const nav_box *b = &h->box;
  const nav_real *q = c < 0 ? h->T : h->u[c];
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int ijk[3] = {i, j, k};
        double x[3] = {0, 0, 0}, ex;
        int has;
        for (int d = 0; d < f->dim; d++) x[d] = nav_host_coord(f->n, f->xf, f->w, d, ijk[d], d == c);
        if (c < 0)
          nav_flow_exact_temperature(f->cfg, x, f->t, &ex, &has);
        else
          nav_flow_exact_velocity(f->cfg, c, x, f->t, &ex, &has);
        if (!has) return 0;
        if (c >= 0 && nav_near_outflow(f, x)) continue;
        const double e = fabs(q[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] - ex);
        *emax = nav_max_nan(*emax, e);
        *sum += e * e;
        (*count)++;
      }
  return 1;
}

nav_err nav_validate(nav_flow *f, const nav_host_fields *h, nav_validation *v) {
  const nav_config *cfg = f->cfg;
  memset(v, 0, sizeof *v);
  double U;
  if (nav_is_cavity(cfg, &U)) {
    const double re = U * cfg->ly / cfg->nu;
    const int ire = (int)lround(re);
    if (fabs(re - ire) < 1e-6 * re && (ire == 100 || ire == 400 || ire == 1000)) {
      v->cavity = 1;
      v->re = ire;
      const char *s = strchr(nav_data_ghia1982_csv, '\n');
      while (s && *++s) {
        int r;
        char prof[64];
        double coord, val;
        if (sscanf(s, "%d,%63[^,],%lf,%lf", &r, prof, &coord, &val) == 4 && r == ire) {
          const int is_u = !strcmp(prof, "u_vertical_centerline");
          if (nav_ghia_excluded(r, prof, coord)) {
            v->excluded++;
          } else {
            const double x[3] = {cfg->x0 + (is_u ? 0.5 : coord) * cfg->lx, cfg->y0 + (is_u ? coord : 0.5) * cfg->ly, 0};
            const double dev = fabs(nav_host_interpolate(f, h, is_u ? 0 : 1, x) / U - val);
            if (is_u) {
              v->max_dev_u = nav_max_nan(v->max_dev_u, dev);
              v->points_u++;
            } else {
              v->max_dev_v = nav_max_nan(v->max_dev_v, dev);
              v->points_v++;
            }
          }
        }
        s = strchr(s, '\n');
      }
    }
  }
  /* analytic solutions: error at every interior face of the velocity, and at every cell centre of
   * the temperature */
  double sum = 0, tsum = 0;
  long count = 0, tcount = 0;
  if (h->T && nav_error_norms(f, h, -1, &v->t_err_max, &tsum, &tcount)) {
    v->t_analytic = 1;
    v->t_err_rms = sqrt(tsum / (double)tcount);
  }
  if (strcmp(cfg->turbulence_model, "off")) return NAV_OK; /* the laminar analytic fields are only a start then */
  if (cfg->nbodies > 0) return NAV_OK; /* a uniform initial stream is no solution around a body */
  for (int c = 0; c < f->dim; c++)
    if (!nav_error_norms(f, h, c, &v->err_max, &sum, &count)) return NAV_OK;
  v->analytic = 1;
  v->err_rms = sqrt(sum / (double)count);
  return NAV_OK;
}

void nav_validation_json(const nav_validation *v, FILE *out) {
  char a[2][32]; /* NaN or Inf (a blown-up run): null */
  if (v->cavity)
    fprintf(out,
            "  \"validation\": {\"reference\": \"ghia1982\", \"re\": %g, \"ghia_max_dev_u\": %s, "
            "\"ghia_max_dev_v\": %s, \"points_u\": %d, \"points_v\": %d, \"excluded\": %d}",
            v->re, nav_json_real(v->max_dev_u, "%.6g", a[0]), nav_json_real(v->max_dev_v, "%.6g", a[1]), v->points_u,
            v->points_v, v->excluded);
  else if (v->analytic) {
    fprintf(out, "  \"validation\": {\"reference\": \"analytic\", \"velocity_error_max\": %s, \"velocity_error_rms\": %s",
            nav_json_real(v->err_max, "%.6e", a[0]), nav_json_real(v->err_rms, "%.6e", a[1]));
    if (v->t_analytic)
      fprintf(out, ", \"temperature_error_max\": %s, \"temperature_error_rms\": %s",
              nav_json_real(v->t_err_max, "%.6e", a[0]), nav_json_real(v->t_err_rms, "%.6e", a[1]));
    fputc('}', out);
  }
}
