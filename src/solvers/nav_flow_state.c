/* The state of a run: the list of arrays a restart needs, their ghosts after a restart, and where
 * a bad state went bad (see nav_flow.h).
 *
 * The list is the one place that says what a checkpoint holds: the velocity u^n (every
 * component), the Adams-Bashforth history N(u^{n-1}) (rhs_old) and the pressure, which warm-starts
 * the next Poisson solve (so it changes the iterates, and the bits of the result), with the previous
 * step's pressure where that start is extrapolated (p_old, nav_flow.c). Only interior
 * points are state: the kernels write and read the history at interior points only, and the
 * ghosts of u and p are functions of the interior points (halo exchange, boundary conditions).
 * Then the solver's inflow/outflow planes and implicit increments, then the models' arrays in registry
 * order (their state hook, physics/nav_model.h: the temperature T and its history rhs_T_old, k and
 * omega, ...); a model refills its ghosts in its restored hook. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "solvers/nav_flow.h"

int nav_flow_state(nav_flow *f, nav_flow_array a[NAV_FLOW_MAX_STATE]) {
  static const char *const uname[3] = {"u", "v", "w"}, *const hname[3] = {"rhs_old_u", "rhs_old_v", "rhs_old_w"};
  int n = 0;
  for (int c = 0; c < f->dim; c++)
    a[n++] = (nav_flow_array){uname[c], f->u[c]};
  for (int c = 0; c < f->dim; c++)
    a[n++] = (nav_flow_array){hname[c], f->rhs_old[c]};
  a[n++] = (nav_flow_array){"p", f->p};
  if (f->p_old) a[n++] = (nav_flow_array){"p_old", f->p_old}; /* the extrapolated guess's p^{n-1} */
  static const char *const oname[3][3] = {
      {"open_x_u", "open_x_v", "open_x_w"}, {"open_y_u", "open_y_v", "open_y_w"}, {"open_z_u", "open_z_v", "open_z_w"}};
  for (int d = 0; d < 3; d++) /* inflow and outflow faces: the values on them (nav_open.h) */
    for (int c = 0; c < 3; c++)
      if (f->open[d][c]) a[n++] = (nav_flow_array){oname[d][c], f->open[d][c]};
  if (f->diff && f->diff->implicit) { /* the warm starts of the implicit solves (nav_diffusion.h) */
    static const char *const dname[3] = {"du_u", "du_v", "du_w"};
    for (int c = 0; c < f->dim; c++)
      a[n++] = (nav_flow_array){dname[c], f->diff->du[c]};
    a[n++] = (nav_flow_array){"phi", f->diff->phi};
  }
  return nav_models_state(&f->models, a, n); /* the models' (nav_model.h): k, omega, ... */
}

nav_err nav_flow_state_restored(nav_flow *f) {
  NAV_CALL(nav_fill_velocity_ghosts(f->ops, &f->box, f->halo, &f->vbc, f->u));
  NAV_CALL(nav_fill_scalar_ghosts(f->ops, &f->box, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->p));
  if (f->diff && f->diff->implicit)
    NAV_CALL(nav_fill_scalar_ghosts(f->ops, &f->box, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->diff->phi));
  NAV_CALL(nav_models_restored(&f->models, nav_flow_view_sync(f)));
  NAV_CALL(nav_flow_viscosity(f, NAV_VISCOSITY_RESTART)); /* nu_t is state: its ghosts */
  f->change = -1;
  return NAV_OK;
}

/* Global linear index (x fastest) of local interior point (i,j,k). */
static double nav_flow_global_index(const nav_flow *f, int i, int j, int k) {
  const nav_box *b = &f->box;
  return (double)(b->g0[0] + i) + (double)f->n[0] * ((double)(b->g0[1] + j) + (double)f->n[1] * (b->g0[2] + k));
}

nav_err nav_flow_locate_bad(nav_flow *f, char *msg, size_t n) {
  nav_flow_array a[NAV_FLOW_MAX_STATE];
  const int na = nav_flow_state(f, a);
  const nav_box *b = &f->box;
  nav_real *host = malloc((size_t)b->ntot * sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the blow-up scan");
  /* per rank: [0] field index + the first bad point as (field * total + global index), or the
   * largest rate as its negative (a max-reduction then picks the first bad point, if any, else
   * the largest rate); the point and value travel with it */
  const double total = (double)f->n[0] * f->n[1] * (f->dim == 3 ? f->n[2] : 1);
  double best_key = -HUGE_VAL, best_value = 0;
  int best_field = -1, best_ijk[3] = {0, 0, 0};
  for (int q = 0; q < na; q++) {
    nav_err e = f->ops->to_host(host, a[q].data, (size_t)b->ntot * sizeof *host);
    if (e != NAV_OK) {
      free(host);
      NAV_CALL(e);
    }
    const int velocity = q < f->dim;
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const double v = host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]];
          const int ijk[3] = {i, j, k};
          double key;
          if (!isfinite(v))
            key = 2 * total * NAV_FLOW_MAX_STATE - (q * total + nav_flow_global_index(f, i, j, k));
          else if (velocity)
            key = -1.0 / (fabs(v) / f->w[q][b->g0[q] + ijk[q]] + 1e-300);
          else
            continue;
          if (key > best_key) {
            best_key = key;
            best_value = v;
            best_field = q;
            memcpy(best_ijk, ijk, sizeof best_ijk);
          }
        }
  }
  free(host);
  /* the winner's rank tells the others: max-reduce the key, then the rank that holds it sends */
  double all = best_key;
  if (f->comm != MPI_COMM_NULL) MPI_Allreduce(&best_key, &all, 1, MPI_DOUBLE, MPI_MAX, f->comm);
  int owner = all == best_key ? f->dc.rank : f->dc.size, root = owner;
  if (f->comm != MPI_COMM_NULL) MPI_Allreduce(&owner, &root, 1, MPI_INT, MPI_MIN, f->comm);
  double info[6] = {best_field, best_ijk[0] + b->g0[0], best_ijk[1] + b->g0[1], best_ijk[2] + b->g0[2], best_value,
                    all};
  if (f->comm != MPI_COMM_NULL) MPI_Bcast(info, 6, MPI_DOUBLE, root, f->comm);
  const int q = (int)info[0], g[3] = {(int)info[1], (int)info[2], (int)info[3]};
  if (q < 0) {
    snprintf(msg, n, "no bad value found");
    return NAV_OK;
  }
  /* position: faces along the component's direction for velocity and history, centres for p */
  const int comp = q < 2 * f->dim ? q % f->dim : -1;
  double x[3] = {0, 0, 0};
  for (int d = 0; d < f->dim; d++)
    x[d] = f->xf[d][g[d]] + (d == comp ? 0 : 0.5 * f->w[d][g[d]]);
  const int bad = !isfinite(info[4]);
  if (!bad && info[4] == 0) {
    snprintf(msg, n, "all values finite and the velocity zero everywhere: the wall speeds set the CFL number");
    return NAV_OK;
  }
  snprintf(msg, n, "%s field %s at %s (i,j,k) = (%d,%d,%d), (x,y,z) = (%.6g,%.6g,%.6g): %s %.6g",
           bad ? "first non-finite value:" : "no NaN or Inf in the state yet; largest velocity / cell width:",
           a[q].name, comp >= 0 ? "face" : "cell", g[0], g[1], g[2], x[0], x[1], x[2], bad ? "value" : "|value|",
           bad ? info[4] : fabs(info[4]));
  return NAV_OK;
}
