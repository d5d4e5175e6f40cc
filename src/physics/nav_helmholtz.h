/* The Helmholtz solves of transported quantities (implicit diffusion of u and T, the k and omega
 * increments of turbulence models): the options of their multigrid and the stopping rule with a
 * floor, shared by the solver (solvers/nav_diffusion.c) and the models (physics/).
 *
 * The increment's right-hand side vanishes at a steady state, so the stopping rule has a floor: the
 * error of x is about |r| / s, and |r| <= tol s scale F (scale: the size of the unknown) bounds it
 * by tol scale F. It adds tol F / dt to the steady-state change |dx| / (dt |x|): F = dt max(1,
 * steady_tol / (10 tol)), at most 1, keeps that below a tenth of steady_tol (and below tol without
 * a steady stop). */
#ifndef NAV_HELMHOLTZ_H
#define NAV_HELMHOLTZ_H

#include "core/nav_config.h"
#include "solvers/poisson/nav_psolver.h"

/* The options of the Helmholtz solves (multigrid V(2,2) cycles to diffusion_tolerance, cell-centred;
 * the caller sets staggered). Not collective. */
void nav_helmholtz_options(const nav_config *cfg, nav_psolver_options *po);
/* Solve k lap(x) - sigma x = -sigma rhs (rhs overwritten) with the Helmholtz solver ps of a block b,
 * warm started from x; k = kscale (constant) or the solver's coefficient (kscale = 1); scale: the
 * size of x for the floor (0: none). step, t: for the messages (the step being computed). *iterations
 * = max(*iterations, the cycles taken). Collective. */
nav_err nav_helmholtz_solve(const nav_config *cfg, const nav_kernel_ops *ops, const nav_box *b, nav_psolver *ps,
                            double sigma, double kscale, double scale, double dt, nav_real *x, nav_real *rhs,
                            long step, double t, int *iterations);

/* RMS of x over the interior points of the block b, reduced over the ranks of comm (volume: of the
 * global domain): the size of an unknown for the floor. Collective. */
nav_err nav_helmholtz_rms(const nav_kernel_ops *ops, const nav_box *b, MPI_Comm comm, double volume,
                          const nav_real *x, double *rms);

#endif
