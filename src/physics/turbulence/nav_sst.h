/* RANS turbulence: Menter's k-omega SST model (SST-2003 form; the point formulas and the citation are
 * in backend/common/nav_point_sst.h) as two cell-centred transported scalars of the flow solver.
 *
 * State: k and omega at the cells (ghosts filled), the last increments dk, domega (the warm starts of
 * their solves) and the eddy viscosity f->diff->nut of the variable-viscosity momentum equation
 * (solvers/nav_diffusion.h, filled through the model's viscosity hook): after every step nu_t <- alpha nu_t(model) + (1 - alpha) nu_t with the model's
 * nu_t = a1 k / max(a1 omega, S F2) and alpha = [turbulence] nut_relaxation. With large implicit
 * steps the momentum answers a change of nu_t at once (S ~ tau / (nu + nu_t), so P = nu_t S^2 ~ 1 /
 * nu_t): k then flips between two states each step (measured: the Re_tau 550 channel at dt = 1 and
 * the 5200 one at dt = 0.1 never converged with alpha = 1); a smaller alpha damps that mode (the 5200
 * channel: 3220 steps with alpha = 0.5, 370 with 0.2, 320 with 0.1). A steady state is the same for
 * every alpha (nu_t = nu_t(model) there); alpha = 1 is the time-accurate choice.
 *
 * Time step (the after_projection hook, nav_model.h, with u^{n+1}): each of
 * phi = k, omega is advanced by one linearised backward-Euler step in delta form,
 *   (1/dt + c) dphi - div(Gamma grad dphi) = R(phi^n) = q - c phi^n + div(Gamma grad phi^n),
 * with q >= 0, c >= 0, Gamma = nu + sigma nu_t from nav_sst_cell at (u^{n+1}, k^n, omega^n) (Jacobi
 * coupling of the two equations). Upwind advection split into its inflow part (in q) and outflow part
 * (in c), production in q, destruction beta* omega k and beta omega^2 (Picard: c = beta omega^n) in
 * c: the left-hand side is an M-matrix and the explicit side non-negative, so k, omega stay
 * non-negative for any dt (to the solver tolerance). At a steady state dphi = 0 and R(phi) = 0 is
 * the discrete steady equation, whatever dt. The solve is one Helmholtz problem of the multigrid
 * (nav_psolver: coefficient Gamma, shift 1/dt, variable shift c) with homogeneous boundary values.
 *
 * Boundaries (mirror ghosts, nav_fill_temperature_ghosts): walls k = 0 and omega = 60 nu / (beta1
 * d1^2) at the wall face (d1: wall to the first cell centre; the value of the reference, sst_model.md);
 * inflow faces k = 1.5 (I |U|)^2, omega = sqrt(k) / (beta*^(1/4) L) at the face; outflow and free-slip
 * faces zero normal gradient; periodic wrap.
 * Wall distance: the distance from each cell centre to the nearest wall face of the box (exact for a
 * box; immersed bodies will add their surfaces once they exist); 1e30 without walls (F1 = F2 = 0).
 *
 * Steady-state change (diagnosed steps): max(max|dk| / max k, max|domega| / max omega) / dt, max
 * norms over the grid, folded into the flow's change with the velocity's (the change hook).
 *
 * A model of the interface of physics/nav_model.h ("sst", key section [turbulence]): create, destroy,
 * after_projection (k, omega), viscosity (nu_t), change, summary ("turbulence"), state (k, omega, dk,
 * domega, nu_t), fields (k, omega, nut), restored. */
#ifndef NAV_SST_H
#define NAV_SST_H

#include "physics/nav_model.h"
#include "solvers/poisson/nav_psolver.h"

typedef struct nav_sst {
  nav_real *k, *w;       /* state: k and omega at the cells, ghosts filled */
  nav_real *dk, *dw;     /* the last increments (state: warm starts) */
  nav_real *wd;          /* wall distance at the cells */
  nav_real *out[8];      /* nav_sst_point arrays: the model's nu_t, F1, Gamma_k, Gamma_w, q_k, q_w, c_k, c_w */
  nav_real *rhs;         /* work */
  nav_real *nut;         /* the flow's eddy viscosity (the view's nut; state: relaxed) */
  nav_psolver *solver;   /* Helmholtz solver of both increments */
  nav_temperature_bc bc[2]; /* mirror ghosts of k and omega */
  nav_scalar_bc ibc[3][2];  /* boundary kinds of the increments */
  double nut_max;        /* max nu_t (momentum equation's) of the last update */
  double k_max, w_max;   /* max k, max omega of the last diagnosed step (summary.json "turbulence") */
  double change;         /* the steady-state change of the last diagnosed step (-1: none) */
  int iterations;        /* most multigrid cycles of the two solves of the last step */
} nav_sst;

/* The model ([turbulence] model = k_omega_sst). */
extern const nav_model_ops nav_model_sst;

#endif
