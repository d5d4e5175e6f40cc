/* The dissipation and enstrophy monitors (see nav_dissipation.h). */
#include "solvers/nav_dissipation.h"

#include "backend/nav_monitor_kernels.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"

nav_err nav_flow_dissipation(nav_flow *f, double *eps, double *enstrophy) {
  const int bnd = nav_boundary_sides(&f->box, f->n, &f->vbc); /* nav_point_monitor.h */
  double s[2];
  NAV_CALL(nav_monitor_kernels_of(f->ops)->monitor_sums(&f->box, f->u, bnd, s));
  nav_reduce_sum(f->comm, s, 2);
  *eps = f->cfg->nu * s[0] / f->volume;
  *enstrophy = s[1] / f->volume;
  return NAV_OK;
}
