/* The dissipation and enstrophy monitors (see nav_dissipation.h). */
#include "solvers/nav_dissipation.h"

#include "core/nav_error.h"
#include "grid/nav_reduce.h"

nav_err nav_flow_dissipation(nav_flow *f, double *eps, double *enstrophy) {
  int bnd = 0; /* the block's sides that are non-periodic faces of the global grid (nav_point_monitor.h) */
  for (int d = 0; d < f->dim; d++) {
    if (f->cfg->bc[d][1] != NAV_BC_PERIODIC && f->box.g0[d] + f->box.n[d] == f->n[d]) bnd |= 1 << d;
    if (f->cfg->bc[d][0] != NAV_BC_PERIODIC && f->box.g0[d] == 0) bnd |= 1 << (3 + d);
  }
  double s[2];
  NAV_CALL(f->ops->monitor_sums(&f->box, f->u, bnd, s));
  nav_reduce_sum(f->comm, s, 2);
  *eps = f->cfg->nu * s[0] / f->volume;
  *enstrophy = s[1] / f->volume;
  return NAV_OK;
}
