/* The Helmholtz solves of transported quantities (see nav_helmholtz.h). */
#include "physics/nav_helmholtz.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"

void nav_helmholtz_options(const nav_config *cfg, nav_psolver_options *po) {
  memset(po, 0, sizeof *po);
  snprintf(po->solver, sizeof po->solver, "mg");
  snprintf(po->cycle, sizeof po->cycle, "v");
  po->tolerance = cfg->diffusion_tolerance;
  po->max_iterations = cfg->max_iterations;
  po->pre_smooth = po->post_smooth = 2;
  po->cpu_coarse_cells = cfg->cpu_coarse_cells;
  po->helmholtz = 1;
  po->sweeps = cfg->diffusion_sweeps;
}

nav_err nav_helmholtz_solve(const nav_config *cfg, const nav_kernel_ops *ops, const nav_box *b, nav_psolver *ps,
                            double sigma, double kscale, double scale, double dt, nav_real *x, nav_real *rhs,
                            long step, double t, int *iterations) {
  const double s = sigma / kscale, tol = cfg->diffusion_tolerance;
  const double F = fmin(1, dt * fmax(1, 0.1 * cfg->steady_tol / tol));
  NAV_CALL(ops->axpby(b, (nav_real)-s, rhs, 0, rhs));
  NAV_CALL(nav_psolver_set_shift(ps, s));
  nav_psolver_set_floor(ps, s * scale * F);
  nav_psolver_stats st;
  NAV_CALL(nav_psolver_solve(ps, x, rhs, &st));
  NAV_CHECK(isfinite(st.relres), NAV_ERR_BLOWUP,
            "the flow blew up at step %ld, time %.6g: the implicit diffusion right-hand side is NaN or Inf; reduce "
            "[time] dt or cfl",
            step, t);
  NAV_CHECK(st.converged, NAV_ERR_CONVERGENCE,
            "implicit diffusion solve did not converge at step %ld, time %.6g: relative residual %.3e after %d "
            "cycles (tolerance %.1e); raise [pressure] max_iterations or [time] diffusion_tolerance",
            step, t, st.relres, st.iterations, cfg->diffusion_tolerance);
  if (st.iterations > *iterations) *iterations = st.iterations;
  return NAV_OK;
}

nav_err nav_helmholtz_rms(const nav_kernel_ops *ops, const nav_box *b, MPI_Comm comm, double volume,
                          const nav_real *x, double *rms) {
  double s;
  NAV_CALL(ops->dot(b, x, x, &s));
  nav_reduce_sum(comm, &s, 1);
  *rms = sqrt(fmax(s, 0) / volume);
  return NAV_OK;
}
