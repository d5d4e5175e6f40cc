/* The profile and summary of a driven channel (see nav_channel.h). */
#include "physics/drive/nav_channel.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"

#define NAV_CHANNEL_Q 4 /* u, k, omega, nu_t */

nav_err nav_channel_profile(const nav_flow_view *v, int e, double re_tau, double ub, const char *dir,
                            nav_channel_diag *c) {
  memset(c, 0, sizeof *c);
  const nav_config *cfg = v->cfg;
  const int fc = cfg->forcing_direction[0] - 'x';
  const int n = v->n[e];
  const nav_box *b = v->box;
  double *sum = calloc((size_t)n * NAV_CHANNEL_Q, sizeof *sum);
  nav_real *host = malloc((size_t)b->ntot * sizeof *host);
  nav_err err = sum && host ? NAV_OK : NAV_ERR_MEMORY;
  /* a turbulence model's fields (nav_model.h fields hook), if any */
  const nav_real *src[NAV_CHANNEL_Q] = {v->u[fc], nav_models_field(v->models, v, "k"),
                                        nav_models_field(v->models, v, "omega"), nav_models_field(v->models, v, "nut")};
  const int turb = src[1] != NULL, eddy = src[3] != NULL; /* k and omega (SST); nu_t (SST, LES) */
  for (int q = 0; q < NAV_CHANNEL_Q && err == NAV_OK; q++) {
    if (!src[q]) continue;
    err = v->ops->to_host(host, src[q], (size_t)b->ntot * sizeof *host);
    for (int k = 0; k < b->n[2] && err == NAV_OK; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int ijk[3] = {i, j, k};
          const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          /* the velocity at the cell centre: the mean of its two faces along fc */
          const double v = q ? host[p] : 0.5 * ((double)host[p] + host[p + b->st[fc]]);
          sum[(size_t)q * n + b->g0[e] + ijk[e]] += v;
        }
  }
  free(host);
  NAV_CHECK(err != NAV_ERR_MEMORY, NAV_ERR_MEMORY, "cannot allocate the channel profile");
  if (err != NAV_OK) {
    free(sum);
    NAV_CALL(err);
  }
  if (v->comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, sum, n * NAV_CHANNEL_Q, MPI_DOUBLE, MPI_SUM, v->comm);
  double others = 1; /* cells per plane of constant index along e */
  for (int d = 0; d < v->dim; d++)
    if (d != e) others *= v->n[d];
  for (int i = 0; i < n * NAV_CHANNEL_Q; i++) sum[i] /= others;
  const double width = v->xf[e][n] - v->xf[e][0], h = 0.5 * width, nu = cfg->nu;
  c->on = 1;
  c->re_tau = re_tau;
  c->u_tau = re_tau * nu / h;
  ub = fabs(ub);
  c->cf = ub > 0 ? 2 * (c->u_tau / ub) * (c->u_tau / ub) : NAN;
  c->ub_plus = c->u_tau > 0 ? ub / c->u_tau : NAN;
  /* the centre line: between cells n/2 - 1 and n/2 (even n), else the middle cell */
  const double yc = v->xf[e][0] + h;
  double uc = sum[n / 2];
  if (n % 2 == 0) {
    const double y0 = v->xf[e][n / 2 - 1] + 0.5 * v->w[e][n / 2 - 1], y1 = v->xf[e][n / 2] + 0.5 * v->w[e][n / 2];
    uc = sum[n / 2 - 1] + (sum[n / 2] - sum[n / 2 - 1]) * (yc - y0) / (y1 - y0);
  }
  c->uc_plus = c->u_tau > 0 ? fabs(uc) / c->u_tau : NAN;
  if (v->dc->rank == 0) {
    char path[1100];
    snprintf(path, sizeof path, "%s/channel_profile.csv", dir);
    FILE *out = fopen(path, "w");
    if (!out) {
      free(sum);
      NAV_CHECK(0, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    }
    const double ut = c->u_tau, ut2 = ut * ut;
    fprintf(out, "y,y_plus,u_plus%s%s\n", turb ? ",k_plus,omega_plus" : "", eddy ? ",nut_over_nu" : "");
    for (int j = 0; j < n; j++) {
      const double y = v->xf[e][j] + 0.5 * v->w[e][j] - v->xf[e][0];
      fprintf(out, "%.10e,%.10e,%.10e", y, y * ut / nu, sum[j] / ut);
      if (turb) fprintf(out, ",%.10e,%.10e", sum[n + j] / ut2, sum[2 * n + j] * nu / ut2);
      if (eddy) fprintf(out, ",%.10e", sum[3 * n + j] / nu);
      fputc('\n', out);
    }
    const int bad = ferror(out);
    if (fclose(out) != 0 || bad) {
      free(sum);
      NAV_CHECK(0, NAV_ERR_IO, "%s: write failed (disk full?)", path);
    }
    printf("channel: u_tau %.6f, Re_tau %.2f, C_f %.6e, U_b+ %.4f, U_c+ %.4f; profile in %s\n", c->u_tau, c->re_tau,
           c->cf, c->ub_plus, c->uc_plus, path);
  }
  free(sum);
  return NAV_OK;
}
