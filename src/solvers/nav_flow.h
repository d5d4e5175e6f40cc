/* The incompressible flow solver: state, initial conditions and one time step.
 *
 * Time integration: second-order Adams-Bashforth (variable step) for advection and diffusion,
 * with one projection per step. With omega = dt_n / dt_{n-1}:
 *   u*      = u^n + dt_n [ (1 + omega/2) N(u^n) - (omega/2) N(u^{n-1}) ]   (forward Euler at step 1)
 *   L p     = div u* / dt_n                      (pressure, warm-started from the previous step)
 *   u^{n+1} = u* - dt_n grad p
 * Because every term is explicit and u^n is discretely divergence-free, this is exactly AB2 for
 * the projected equations du/dt = P N(u): second order in time with no splitting error, and
 * div u^{n+1} = dt_n (b - L p) vanishes to the solver tolerance. Stability: AB2 needs
 * nu dt sum_d 4/h_d^2 <= 1 (fourier <= 0.25); on the imaginary axis (central advection) it is
 * weakly unstable, so cfl is kept below 1 and viscosity damps the growth.
 * dt = min(cfl / max sum_d |u_d|/h_d, fourier / (max(nu, kappa) max sum_d 1/h_d^2)) or fixed.
 * [time] diffusion = implicit and a variable viscosity nu + nu_t: nav_diffusion.h (Crank-Nicolson
 * for the viscous and heat diffusion, incremental pressure correction, dt from the CFL number).
 * With a temperature (physics/heat/nav_heat.h) N(u) also holds the Boussinesq force -b (T^n - T_ref), and T
 * is advanced by the same AB2 with S(T) = kappa lap T - div(u T) at u^n, T^n, before the
 * projection: T^{n+1} = T^n + dt [ (1 + omega/2) S^n - (omega/2) S^{n-1} ].
 * Inflow and outflow faces (nav_open.h): before the predictor the outflow face values advance
 * from u^n and are flux-corrected; the ghosts of u* and u^{n+1} come from them. With
 * implicit diffusion the outflow faces advance inside the predictor (nav_diffusion.h).
 * The physics models (physics/nav_model.h: a turbulence model, ...) are called through their hooks
 * in the fixed order of nav_model.h; the step names none of them. */
#ifndef NAV_FLOW_H
#define NAV_FLOW_H

#include "backend/nav_kernels.h"
#include "core/nav_config.h"
#include "grid/nav_boundary.h"
#include "grid/nav_decomp.h"
#include "grid/nav_halo.h"
#include "solvers/nav_ac.h"
#include "solvers/nav_diffusion.h"
#include "solvers/poisson/nav_psolver.h"
#include "physics/nav_model.h"

typedef struct nav_flow {
  const nav_config *cfg;
  const nav_kernel_ops *ops;
  int dim;
  int n[3];           /* GLOBAL cells */
  double *w[3];       /* host cell widths of the global grid, index -1..n */
  double *xf[3];      /* host face coordinates of the global grid, 0..n */
  double volume;      /* global */
  nav_decomp dc;      /* this rank's block of the global grid (dc.n cells at dc.g0) */
  nav_halo *halo;     /* exchange with the neighbour ranks (NULL on one rank) */
  MPI_Comm comm;      /* reductions (MPI_COMM_NULL on one rank) */
  nav_box box;        /* this rank's block */
  nav_velocity_bc vbc;
  nav_scalar_bc pbc[3][2];
  nav_real *u[3], *rhs[3], *rhs_old[3], *u_prev[3];
  nav_real *p, *div;
  nav_real *p_old;    /* p^{n-1}, for the extrapolated initial guess of the pressure solve ([pressure] initial_guess);
                         NULL where the guess is p^n (nav_flow_guess_create) */
  nav_psolver *poisson;
  double t;
  long step;
  double dt_old;      /* the previous step (0 before the first) */
  double wall_rate;    /* max over wall velocity components U_c of |U_c| / smallest width along c: bounds the
                          advective rate */
  /* diagnostics of the last step */
  int p_iterations;     /* pressure iterations (multigrid cycles or CG iterations) */
  double p_relres;      /* final relative pressure residual */
  double max_div;       /* max |div u| after the last diagnosed step */
  double change;        /* max|u^{n+1} - u^n| / (dt max|u|), when measured (else -1); with a temperature
                           also max|T^{n+1} - T^n| / (dt t_scale), whichever is larger */
  /* the transported scalar (the temperature): filled by the model that owns it (physics/heat), read by
   * artificial compressibility and the output; scalar.T NULL when none */
  nav_scalar_slot scalar;
  /* artificial compressibility (nav_ac.h): NULL with the projection */
  struct nav_ac *ac;
  double res[3];        /* its residual norms R_m, R_c, R_T of the last diagnosed iteration */
  int stop_signal;      /* a SIGINT/SIGTERM reached some rank (set by nav_flow_dt on every rank), else 0 */
  /* inflow and outflow faces (nav_open.h): the plane arrays (NULL where a direction has none) */
  nav_real *open[3][3];
  double outflow_speed; /* U_c of the last step */
  nav_diffusion *diff;  /* implicit diffusion and variable viscosity (nav_diffusion.h); NULL: explicit, nu constant */
  nav_model_set models;  /* the active physics models (physics/nav_model.h), in registry order */
  nav_flow_view view;    /* what the models see of this flow (nav_flow_view_sync refreshes it) */
  double max_diffusivity; /* the largest diffusivity of the transported scalars (the models raise it) */
  /* a pressure solve whose NaN/Inf check of div u* is deferred (nav_psolver_deferred_bad): its step
   * (1-based, as the blow-up message counts), time and dt, for the message of nav_flow_dt/check */
  long deferred_step;
  double deferred_t, deferred_dt;
} nav_flow;

/* Build the decomposition of the grid over the computing ranks (nav_compute_comm) ([run] decomposition), this rank's
 * block, allocate the fields with ops and set the initial condition. Collective; every function
 * below is collective too, and every global quantity (dt, max|div u|, energy, change, pressure
 * diagnostics) is the same on every rank. */
nav_err nav_flow_create(const nav_config *cfg, const nav_kernel_ops *ops, nav_flow *f);
void nav_flow_destroy(nav_flow *f);
/* The stable time step for the current velocity (or the fixed dt). Its reduction waits for the
 * backend, so it also completes the deferred blow-up check of the previous step (nav_flow_step):
 * NAV_ERR_BLOWUP with that step, time and dt when its velocity became NaN or Inf. */
nav_err nav_flow_dt(nav_flow *f, double *dt, double *cfl);
/* Advance by dt. diagnose (monitor steps): also measure f->max_div and f->change (two passes
 * over the velocity that most steps do without; between them the fields keep the last values).
 * Fails with NAV_ERR_CONVERGENCE when the pressure does not converge and NAV_ERR_BLOWUP when the
 * velocity is NaN or Inf (message with step, time and residual). On a step that is not diagnosed,
 * one rank with the one-transform FFT solve (nav_psolver_rhs_sum), the NaN/Inf check waits for the
 * next host synchronisation instead of stalling the host: the next nav_flow_dt or nav_flow_check
 * reports it (the run loop calls nav_flow_check before a snapshot or checkpoint; a checkpoint also
 * refuses a NaN state by itself, nav_checkpoint.h). Collective. */
nav_err nav_flow_step(nav_flow *f, double dt, int diagnose);
/* Wait for the backend and complete a deferred blow-up check (see nav_flow_step; artificial
 * compressibility: nav_ac_check): before using the state between steps other than through nav_flow_dt
 * (snapshots, checkpoints). Collective. */
nav_err nav_flow_check(nav_flow *f);
/* Mean kinetic energy (1/V) sum 1/2 |u|^2 dV. */
nav_err nav_flow_kinetic_energy(nav_flow *f, double *ke);
/* max |p| over every rank's cells. Collective. */
nav_err nav_flow_max_abs_pressure(nav_flow *f, double *pmax);
/* The state of a run (nav_flow_state.c): every array whose values the next steps read, by name,
 * in a fixed order. A checkpoint is these arrays (interior points, global order) plus t, step and
 * dt_old; ghosts are refilled from them by nav_flow_restored. */
#define NAV_FLOW_MAX_STATE NAV_STATE_MAX
typedef nav_state_array nav_flow_array; /* "u", "v", "w", "rhs_old_u", ..., "p", "T", "rhs_T_old"; then the models' */
/* Fill a[] with the state arrays (the current pointers: the AB2 history swaps every step);
 * returns their count. Not collective. */
int nav_flow_state(nav_flow *f, nav_flow_array a[NAV_FLOW_MAX_STATE]);
/* After the interior points of the state arrays were set (restart): refill the ghosts of the
 * velocity and the pressure (halo exchange and boundaries). Collective. */
nav_err nav_flow_restored(nav_flow *f);
/* Where the state is bad, for a blow-up message: the first non-finite value of the state arrays
 * (fields in nav_flow_state order, points in global x-fastest order), else (all finite) the
 * largest |u_c| / h_c, the point that sets the CFL number. Writes "field u at face (i,j,k) =
 * (..), x = (..): value" to msg. Collective. */
nav_err nav_flow_locate_bad(nav_flow *f, char *msg, size_t n);
/* Refresh f->view (the current field pointers, time and step) before a round of model hooks. Not collective. */
nav_flow_view *nav_flow_view_sync(nav_flow *f);
/* The models' nu_t (their viscosity hooks, physics/nav_model.h) at `when`: then, as
 * nav_diffusion_viscosity_changed, the ghosts, face viscosities and solver coefficients (the explicit
 * limit nu_max follows in the next nav_flow_dt). Nothing without a viscous model. Collective. */
nav_err nav_flow_viscosity(nav_flow *f, nav_viscosity_when when);

#endif
