/* The temperature of Boussinesq flows, the model "heat" of physics/nav_model.h ([temperature]
 * model = boussinesq): its set-up (boundaries, initial field), its time step, the analytic field of
 * the advection-diffusion verification, and the convection monitors.
 *
 * The temperature T is cell-centred and lives in the flow's scalar slot (nav_scalar_slot: the
 * pseudo-time march of artificial compressibility and the output read it there). The rhs hook
 * (nav_heat_model.c) adds the Boussinesq force -b (T^n - T_ref) to N(u^n) and advances T with
 * S(T) = kappa lap T - div(u T) at u^n, T^n (with an LES closure, physics/turbulence/nav_les.h:
 * div((kappa + nu_t^n / Pr_t) grad T), Pr_t the key turbulence.prandtl_t, no eddy flux through the
 * non-periodic faces; explicit diffusion only, nav_point_scalar.h):
 *   explicit diffusion: the velocity's variable-step AB2 (solvers/nav_flow.h),
 *     T^{n+1} = T^n + dt [ (1 + omega/2) S^n - (omega/2) S^{n-1} ];
 *   implicit diffusion: Crank-Nicolson for kappa lap T (solvers/nav_diffusion.h), AB2 for the
 *     advection, the increment dT = T^{n+1} - T^n one Helmholtz solve (nav_helmholtz.h) with
 *     homogeneous boundary kinds (fixed: Dirichlet, flux: Neumann).
 * Its boundaries are in nav_boundary.h, its point formulas in backend/common/nav_point_scalar.h.
 * Hooks: create, destroy, rhs, diagnose (also on the pseudo-time march's monitor iterations),
 * change (max|T^{n+1} - T^n| / (dt t_scale)), monitor columns, summary "convection", log, state
 * (T, rhs_T_old; dT with implicit diffusion), restored.
 *
 * Monitors (the diagnose hook, on monitor steps; collective, the same on every rank):
 *   - Nusselt number of every fixed-temperature face (d, s) whose opposite face is fixed at
 *     another temperature: Nu = mean over the face of (-dT/dx_d) l_d / (T_low - T_high), the
 *     wall gradient from the ghost and adjacent cells (the scheme's own wall flux: at steady
 *     state the discrete heat flux is the same through every plane), positive when heat flows
 *     from the hotter to the colder face;
 *   - the largest u on the plane x = x0 + lx/2 along y, and the largest v on y = y0 + ly/2 along
 *     x (z = z0 + lz/2 in 3D, interpolated linearly where the plane falls between points), each
 *     refined by the parabola through the discrete maximum and its two neighbours; velocities
 *     in the de Vahl Davis scaling u lx / kappa, positions scaled by the domain length
 *     ((y - y0)/ly, (x - x0)/lx). */
#ifndef NAV_HEAT_H
#define NAV_HEAT_H

#include "backend/nav_heat_kernels.h"
#include "physics/nav_model.h"
#include "solvers/poisson/nav_psolver.h"

#define NAV_HEAT_MAX_FACES 6

typedef struct nav_heat_diag {
  int nfaces;                      /* faces with a Nusselt number */
  int face[NAV_HEAT_MAX_FACES][2]; /* their (dir, side) */
  double nusselt[NAV_HEAT_MAX_FACES];
  double u_max, u_max_y; /* u lx / kappa on x = mid, at (y - y0)/ly */
  double v_max, v_max_x; /* v lx / kappa on y = mid, at (x - x0)/lx */
} nav_heat_diag;

/* The model's data. */
typedef struct nav_heat {
  const nav_heat_kernels *k; /* its kernel table of the flow's backend */
  nav_scalar_slot *sc;     /* the flow's slot that holds T and its AB2 history */
  double rprt;             /* 1 / Pr_t of the eddy diffusivity nu_t / Pr_t under an LES closure (0: none) */
  int bnd;                 /* its block sides on non-periodic faces (nav_boundary_sides): no eddy flux there */
  nav_heat_diag diag;      /* monitors of the last diagnosed step */
  nav_real *plane[2];      /* backend buffers of two face planes (the monitors) */
  double *plane_host[2];
  /* implicit diffusion: */
  nav_psolver *solver;     /* the Helmholtz solver of the increment */
  nav_real *dT;            /* the last increment T^{n+1} - T^n (state: its warm start) */
  nav_real *rhs;           /* the solve's right-hand side (work) */
  int iterations;          /* multigrid cycles of the last solve */
} nav_heat;

/* The model. */
extern const nav_model_ops nav_model_heat;

/* Set-up and monitors (nav_heat.c), for the hooks of nav_heat_model.c. */
/* Allocate T and its AB2 history in v->scalar, the monitor planes; set the boundaries and the
 * initial field (ghosts filled). Collective. */
nav_err nav_heat_setup(nav_heat *h, nav_flow_view *v);
void nav_heat_free(nav_heat *h, nav_flow_view *v);
/* Measure h->diag from the current T and u (filled ghosts). Collective. */
nav_err nav_heat_measure(nav_heat *h, nav_flow_view *v);
/* The analytic temperature at x and time t: initial = wave (every face periodic), advected by
 * the uniform velocity of physics.initial = uniform (else at rest); *has = 0 for the others. */
void nav_flow_exact_temperature(const nav_config *cfg, const double x[3], double t, double *value, int *has);

#endif
