/* Implicit diffusion and variable viscosity of the flow solver (nav_flow.h).
 *
 * Variable viscosity: the momentum equation takes nu(x) = nu + nu_t(x) in stress form,
 *   du/dt = -div(u u) - grad p + div( nu (grad u + grad u^T) ) (+ buoyancy),
 * with nu_t cell-centred (nav_diffusion.nut; prescribed by [physics] nu_t here, filled by a
 * turbulence model later) and the discretisation of backend/common/nav_point_viscous.h:
 * V = V_diag + V_cross, V_diag_c = sum_d d_d(nu d_d u_c), V_cross_c = sum_d d_d(nu d_c u_d).
 * Without nu_t (constant nu) V = nu lap u, the cross part nu grad(div u) being dropped (0).
 *
 * [time] diffusion = explicit: V is part of N(u) of the AB2 scheme of nav_flow.h (unchanged).
 * [time] diffusion = implicit: Crank-Nicolson for V_diag and for kappa lap T, AB2 for advection,
 * buoyancy and V_cross (so the cross terms stay second order), with the incremental
 * pressure-correction projection in rotational form (Timmermans, Minev & Van de Vosse 1996; Guermond,
 * Minev & Shen 2006; the term -theta nu div u* = -theta nu dt lap phi, with the molecular nu, is
 * the Kim-Moin relation between phi and the pressure; it takes out the numerical boundary layer of
 * the standard form at walls):
 *   H^n      = -div(u^n u^n) + V_cross(u^n) - b (T^n - T_ref),       S^n = -div(u^n T^n)
 *   T^{n+1} - T^n = dt [ AB2(S) + kappa lap T^n ] + theta dt kappa lap (T^{n+1} - T^n)
 *   du = u* - u^n:  du - theta dt V_diag(du) = dt [ AB2(H) + V_diag(u^n) - grad p^{n-1/2} ]
 *   L phi = div u* / dt,   u^{n+1} = u* - dt grad phi,   p^{n+1/2} = p^{n-1/2} + phi - theta nu div u*
 * theta = 1/2 (Crank-Nicolson; [time] diffusion_theta, 1 = backward Euler for pseudo-time marching), except the first NAV_DIFFUSION_EULER_STEPS steps of a run (theta = 1,
 * backward Euler: the start-up of Rannacher 1984, which damps the stiff modes of an impulsive
 * start that Crank-Nicolson only flips; a fixed number of first-order steps keeps the global
 * order 2). The boundary values are constant in time, so the increments du and dT have
 * homogeneous boundary conditions. Outflow faces (nav_open.h), whose values move: before the
 * solve their planes advance to t^{n+1} (nav_open_advance: convective update and flux correction,
 * explicit, from u^n), and with u~^n = u^n with the ghosts of the new face values (inflow values
 * are constant) the increment du = u* - u~^n has homogeneous boundary conditions again; the viscous
 * term splits as theta V(u~^n) + (1 - theta) V(u^n):
 *   du - theta dt V_diag(du) = dt [ AB2(H) + theta V_diag(u~^n) + (1 - theta) V_diag(u^n)
 *                                   - grad p^{n-1/2} ],
 * the new face values being the Dirichlet data of the solve. Each increment is one Helmholtz
 * problem for the multigrid of solvers/poisson (nav_psolver_set_shift, nav_psolver_set_coefficient):
 *   k lap(du_c) - sigma du_c = -sigma rhs_c,   sigma = 1 / (theta dt)   (k = nu; nu_t: div(k grad) with
 *   the face viscosity k_c of nav_point_viscous.h),
 * one solver per velocity component on its own staggered levels (opt.staggered: the control
 * volumes of its faces; walls: tangential Dirichlet, the wall-normal face pinned; free slip:
 * tangential Neumann; periodic wrap) and one for the temperature (fixed: Dirichlet, flux:
 * Neumann). The adaptive dt comes from the CFL number alone (nav_flow_dt): the first step takes
 * the explicit limit, then dt grows by at most NAV_DIFFUSION_DT_GROWTH per step up to cfl / max
 * sum_d |u_d| / h_d. The state of a run (nav_flow_state) gains the last increments du and phi (and the
 * temperature model its dT, physics/heat/nav_heat.h)
 * (warm starts of the next solves, so restarts are bit for bit).
 *
 * The response to a unit mean pressure gradient (forcing = flow_rate, physics/drive/nav_drive.h): the velocity
 * increment of a uniform body force e_c over one step, with the operator and the homogeneous
 * boundary conditions of the increments,
 *   r - theta dt V_diag(r) = dt e_c,
 * solved from zero (the same bits after a restart) and cached while theta dt and the viscosity are
 * unchanged. By linearity the step with the mean gradient G is u* + G r. */
#ifndef NAV_DIFFUSION_H
#define NAV_DIFFUSION_H

#include "core/nav_config.h"
#include "navier/nav_types.h"
#include "backend/nav_viscous_kernels.h"
#include "physics/nav_model.h"
#include "solvers/poisson/nav_psolver.h"

struct nav_flow;

#define NAV_DIFFUSION_EULER_STEPS 2
#define NAV_DIFFUSION_DT_GROWTH 1.1

typedef struct nav_diffusion {
  const nav_viscous_kernels *k; /* the variable-viscosity kernels of the flow's backend */
  int implicit;          /* [time] diffusion = implicit */
  nav_psolver *solver[3];  /* Helmholtz solvers of the velocity components (implicit) */
  nav_real *du[3];         /* the last increments u* - u^n (state) */
  nav_real *phi;           /* the last pressure increment (state) */
  nav_real *rhs[3];        /* right-hand sides of the solves (work) */
  nav_real *nut;           /* eddy viscosity at the cells, ghosts filled (NULL: none) */
  nav_real *kf[3];         /* nu + nu_t at the faces of each component, ghosts filled (NULL: no nu_t); stale while
                              kf_stale (nav_diffusion_face_viscosities fills them) */
  int kf_stale;            /* the face viscosities lag nut: the one-pass predictor makes them from the cells */
  double nu_max;           /* max of nu + nu_t (explicit time-step limit) */
  int iterations;          /* most multigrid cycles of the solves of the last step */
  double theta;            /* the implicit weight of the last step (1: backward Euler, 1/2: Crank-Nicolson) */
  long version;            /* counts the changes of the viscosity (nav_diffusion_viscosity_changed) */
  nav_real *resp;          /* the response r to a unit mean pressure gradient (NULL until needed) */
  double resp_bulk;        /* (1/V) sum r dV_c: its bulk velocity */
  double resp_key;         /* theta dt of r (0: none yet) */
  long resp_version;       /* version of the viscosity of r */
  int keep_rhs;            /* set by the step: the next predictor keeps its right-hand sides in keep */
  double uscale;           /* the scale of the stopping rule of the last predictor's solves */
  nav_real *keep[3];       /* the kept right-hand sides (work; NULL until needed) */
  nav_real *ref[3];        /* u^n + the increment at a reference step (nav_diffusion_reference; NULL until needed) */
} nav_diffusion;

/* Set up f->diff (NULL when diffusion = explicit and nu_t = none): the eddy viscosity, the face
 * viscosities and, for implicit diffusion, the solvers and increments. Called by nav_flow_create
 * after the temperature. Collective. */
nav_err nav_diffusion_create(struct nav_flow *f);
void nav_diffusion_destroy(struct nav_flow *f);
/* After f->diff->nut changed (interior values): refill its ghosts, the face viscosities and the
 * solvers' coefficients; where the predictor makes the face viscosities from the cells
 * (nav_diffusion_cells), it only marks them stale. Collective. */
nav_err nav_diffusion_viscosity_changed(struct nav_flow *f);
/* The face viscosities f->diff->kf of the current nut, filled if stale (for the readers other than the
 * one-pass predictor: the unfused explicit term, the models' diagnostics). Collective. */
nav_err nav_diffusion_face_viscosities(struct nav_flow *f);
/* 1 if the one-pass predictor may make the face viscosities from the cells (the viscous table's
 * advance_stress with kf = NULL): explicit diffusion, no halo face, every face periodic or zero-gradient
 * for the pressure; *ends: bit d set for a periodic direction d, NAV_ENDS_WALL(d, s) for a no-slip wall where
 * a turbulence model's nu_t vanishes (common/nav_point_viscous.h). */
int nav_diffusion_cells(const struct nav_flow *f, int *ends);
/* The one-pass explicit predictor with nu + nu_t in stress form (the viscous table's advance_stress, AB2 weights
 * a, c, into f->rhs and f->rhs_old): the face viscosities from the cells where nav_diffusion_cells
 * allows, else from f->diff->kf (filled if stale). */
nav_err nav_diffusion_advance_stress(struct nav_flow *f, nav_real a, nav_real c);
/* Explicit diffusion with nu_t: rhs += V(u) (both parts; f->u ghosts filled). */
nav_err nav_diffusion_explicit(struct nav_flow *f, nav_real *const *rhs);
/* Implicit diffusion: the predictor of nav_flow_step, u^n -> u* (ghosts NOT filled) and T^n ->
 * T^{n+1} (ghosts filled), with the AB2 weights si->ca, si->cb of H^n, H^{n-1}, the models' rhs hooks
 * on v (synced) adding to H^n; swaps the AB2 histories. Collective. */
nav_err nav_diffusion_predict(struct nav_flow *f, nav_flow_view *v, const nav_step_info *si);
/* Implicit diffusion: the response r to a unit mean pressure gradient along c over the last step
 * (theta of the last nav_diffusion_predict, dt) and its bulk velocity (see above); *r is backend
 * memory owned by f->diff, valid until the next call. Collective. */
nav_err nav_diffusion_response(struct nav_flow *f, int c, double dt, const nav_real **r, double *bulk);
/* The same response computed into r (backend memory of the block's size), not cached; the right-hand sides of
 * f->diff are its work. Collective. */
nav_err nav_diffusion_response_into(struct nav_flow *f, int c, double dt, nav_real *r, double *bulk);
/* Implicit diffusion: the predictor of the last step (of dt, whose right-hand sides rhs were kept: keep_rhs set)
 * at the step dt_ref: f->diff->ref[c] = u^n + e_c, (I - theta dt_ref V_diag) e_c = (dt_ref / dt) rhs_c (u^n in
 * f->u_prev, ghosts not filled). At a steady state e is the increment of a step of dt_ref, where the predictor of
 * dt spreads part of it from the forced faces of a body over the fluid faces beside them (the force report after a
 * change of dt, nav_body_force). Changes nothing of the step (the solvers' shift is set by every solve); the kept
 * right-hand sides are overwritten. Collective. */
nav_err nav_diffusion_reference(struct nav_flow *f, double dt, double dt_ref);
/* The largest stable explicit step's diffusivity: max(nu + nu_t, kappa (+ nu_t / Pr_t with an eddy diffusivity)). */
double nav_diffusion_max_diffusivity(const struct nav_flow *f);

#endif
