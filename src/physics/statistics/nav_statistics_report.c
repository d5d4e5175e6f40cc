/* The profiles of the DNS statistics at the end of a run (see nav_statistics.h): means, stresses, wall
 * units, DIR/statistics.csv (folded) and DIR/statistics_profile.csv (every cell). */
#include "physics/statistics/nav_statistics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"

/* The mean of quantity q at cell j: S[q][j] / (N A). */
static double nav_stat_mean(const nav_statistics *s, int q, int j) {
  return s->state[NAV_STAT_HEAD + (size_t)q * s->ne + j] / (s->state[NAV_STAT_SAMPLES] * s->area);
}

/* The product quantity of components a <= b (0..2) and the pressure's (a = b = 3), temperature's (4). */
static int nav_stat_product(int a, int b) {
  static const int t[3][3] = {{NAV_STAT_UU, NAV_STAT_UV, NAV_STAT_UW},
                              {NAV_STAT_UV, NAV_STAT_VV, NAV_STAT_VW},
                              {NAV_STAT_UW, NAV_STAT_VW, NAV_STAT_WW}};
  return a == 3 ? NAV_STAT_PP : a == 4 ? NAV_STAT_TT : t[a][b];
}

/* <a'b'> at cell j (a, b: 0..2 velocity components, 3 pressure, 4 temperature; a == b for 3, 4). */
static double nav_stat_cov(const nav_statistics *s, int a, int b, int j) {
  return nav_stat_moment(nav_stat_mean(s, nav_stat_product(a, b), j), nav_stat_mean(s, a, j), nav_stat_mean(s, b, j));
}

static nav_err nav_stat_close(FILE *out, const char *path) {
  const int bad = ferror(out);
  NAV_CHECK(fclose(out) == 0 && !bad, NAV_ERR_IO, "%s: write failed (disk full?)", path);
  return NAV_OK;
}

/* DIR/statistics_profile.csv: every cell along e, the flow's components and units. */
static nav_err nav_stat_write_cells(const nav_statistics *s, const nav_flow_view *v, const char *dir) {
  char path[1100];
  snprintf(path, sizeof path, "%s/statistics_profile.csv", dir);
  FILE *out = fopen(path, "w");
  NAV_CHECK(out, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  const int nut = s->nq > NAV_STAT_NUT;
  fprintf(out, "y,U,V,W,P,T,uu,vv,ww,uv,uw,vw,pp,TT%s\n", nut ? ",nut_over_nu" : "");
  const int e = s->e;
  for (int j = 0; j < s->ne; j++) {
    fprintf(out, "%.16e", v->xf[e][j] + 0.5 * v->w[e][j] - v->xf[e][0]);
    for (int q = 0; q <= NAV_STAT_T; q++) fprintf(out, ",%.16e", nav_stat_mean(s, q, j));
    static const int ab[8][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}, {3, 3}, {4, 4}};
    for (int i = 0; i < 8; i++) fprintf(out, ",%.16e", nav_stat_cov(s, ab[i][0], ab[i][1], j));
    if (nut) fprintf(out, ",%.16e", nav_stat_mean(s, NAV_STAT_NUT, j));
    fputc('\n', out);
  }
  return nav_stat_close(out, path);
}

/* DIR/statistics.csv: the two halves folded, wall units, u streamwise, v wall-normal, w spanwise. */
static nav_err nav_stat_write_folded(const nav_statistics *s, const nav_flow_view *v, const char *dir) {
  char path[1100];
  snprintf(path, sizeof path, "%s/statistics.csv", dir);
  FILE *out = fopen(path, "w");
  NAV_CHECK(out, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  const int e = s->e, n = s->ne, cu = s->streamwise, cw = 3 - e - cu; /* cw: spanwise (3D) */
  const int temp = v->scalar && v->scalar->T, nut = s->nq > NAV_STAT_NUT;
  const double ut = s->u_tau, ut2 = ut * ut, nu = v->cfg->nu;
  fprintf(out, "y,y_plus,U_plus,uu_plus,vv_plus,ww_plus,uv_plus,uw_plus,vw_plus,u_rms_plus,v_rms_plus,w_rms_plus,"
               "p_rms_plus%s%s\n",
          temp ? ",T_mean,T_rms" : "", nut ? ",nut_over_nu" : "");
  for (int j = 0; j < (n + 1) / 2; j++) {
    const int i = n - 1 - j; /* the mirror cell; i == j: the middle cell of an odd n */
    const double y = 0.5 * ((v->xf[e][j] + 0.5 * v->w[e][j] - v->xf[e][0]) + (v->xf[e][n] - v->xf[e][i] - 0.5 * v->w[e][i]));
    const int hasw = cw >= 0 && cw < v->dim;
    /* even about the centre: the mean of the two cells; odd (a shear with the wall normal): the half difference */
    double U = 0, uu = 0, vv = 0, ww = 0, uv = 0, uw = 0, vw = 0, pp = 0, Tm = 0, TT = 0, nn = 0;
    for (int side = 0; side < 2; side++) {
      const int jj = side ? i : j;
      const double sgn = side ? -1.0 : 1.0; /* the wall-normal component flips with the wall */
      U += 0.5 * nav_stat_mean(s, cu, jj);
      uu += 0.5 * nav_stat_cov(s, cu, cu, jj);
      vv += 0.5 * nav_stat_cov(s, e, e, jj);
      ww += hasw ? 0.5 * nav_stat_cov(s, cw, cw, jj) : 0;
      uv += 0.5 * sgn * nav_stat_cov(s, cu < e ? cu : e, cu < e ? e : cu, jj);
      uw += hasw ? 0.5 * nav_stat_cov(s, cu < cw ? cu : cw, cu < cw ? cw : cu, jj) : 0;
      vw += hasw ? 0.5 * sgn * nav_stat_cov(s, e < cw ? e : cw, e < cw ? cw : e, jj) : 0;
      pp += 0.5 * nav_stat_cov(s, 3, 3, jj);
      Tm += 0.5 * nav_stat_mean(s, NAV_STAT_T, jj);
      TT += 0.5 * nav_stat_cov(s, 4, 4, jj);
      nn += nut ? 0.5 * nav_stat_mean(s, NAV_STAT_NUT, jj) : 0;
    }
    fprintf(out, "%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e", y, y * ut / nu,
            U / ut, uu / ut2, vv / ut2, ww / ut2, uv / ut2, uw / ut2, vw / ut2, sqrt(fmax(uu, 0)) / ut,
            sqrt(fmax(vv, 0)) / ut, sqrt(fmax(ww, 0)) / ut, sqrt(fmax(pp, 0)) / ut2);
    if (temp) fprintf(out, ",%.10e,%.10e", Tm, sqrt(fmax(TT, 0)));
    if (nut) fprintf(out, ",%.10e", nn);
    fputc('\n', out);
  }
  return nav_stat_close(out, path);
}

nav_err nav_statistics_profiles(nav_statistics *s, const nav_flow_view *v, const char *dir) {
  const nav_config *cfg = v->cfg;
  const int e = s->e, n = s->ne, cu = s->streamwise;
  /* wall shear of each wall from the first centre's mean streamwise velocity and the wall's */
  const double d0 = 0.5 * v->w[e][0], d1 = 0.5 * v->w[e][n - 1];
  s->tau_w[0] = cfg->nu * fabs(nav_stat_mean(s, cu, 0) - cfg->wall_velocity[e][0][cu]) / d0;
  s->tau_w[1] = cfg->nu * fabs(nav_stat_mean(s, cu, n - 1) - cfg->wall_velocity[e][1][cu]) / d1;
  const double tau = 0.5 * (s->tau_w[0] + s->tau_w[1]), width = v->xf[e][n] - v->xf[e][0];
  s->u_tau = sqrt(tau);
  s->re_tau = s->u_tau * 0.5 * width / cfg->nu;
  double ub = 0;
  for (int j = 0; j < n; j++) ub += nav_stat_mean(s, cu, j) * v->w[e][j];
  s->ub = fabs(ub / width);
  s->cf = s->ub > 0 ? 2 * tau / (s->ub * s->ub) : NAN;
  s->ub_plus = s->u_tau > 0 ? s->ub / s->u_tau : NAN;
  s->done = 1;
  if (v->dc->rank != 0) return NAV_OK;
  NAV_CALL(nav_stat_write_cells(s, v, dir));
  return nav_stat_write_folded(s, v, dir);
}
