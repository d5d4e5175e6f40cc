/* Steady flows by artificial compressibility (Chorin 1967): [run] method = artificial_compressibility.
 *
 * The discrete steady equations of the projection method (nav_flow.h: the same N(u), Boussinesq
 * force, S(T), divergence and gradient) are marched to their steady state in a pseudo-time tau,
 *   du_c/dtau = N_c(u) + B_c(T) - grad_c p,   dp/dtau = -beta^2 div u,   dT/dtau = S(T),
 * with a local step per point and a local beta (backend/common/nav_point_ac.h):
 *   beta^2 = ac_beta^2 max(|u|^2, u_ref^2),  u_ref = [run] ac_u_ref, or (0, automatic) the
 *   largest of max|u| (of the current state), the wall speeds, the buoyancy speed
 *   sqrt(|b| dT l_min) (dT the temperature range of the fixed faces) and max(nu, kappa) / l_min;
 *   dtau = ac_cfl / (sum_d (|u_d| + sqrt(u_d^2 + beta^2)) / h_d + 2 max(nu, kappa) sum_d 1/h_d^2).
 * One iteration is an ac_stages-stage low-storage scheme x = x0 + alpha_k dtau R(x), alpha_k =
 * 1/(m - k), k = 0..m-1 (m = 1: forward Euler; m = 4: Jameson's four stages). Inside a stage the
 * pressure and temperature are updated first, then the velocity with the new pressure (a
 * forward-backward update of the acoustic waves).
 *
 * Residual norms (measured in the first stage of a diagnosed iteration, on the state at its start,
 * the momentum one with the pressure of that stage; every rank gets the same values):
 *   R_m = max over interior faces |N_c + B_c - grad_c p| / U,   U = max |u| over the faces,
 *   R_c = max over cells |div u|,
 *   R_T = max over cells |S(T)| / dT_scale (the temperature range of the fixed faces; 0 without T),
 * all three of unit 1/time, like the projection's steady-state change max|u^{n+1}-u^n| / (dt U)
 * (which equals max|P N(u)| / U). The run stops when max(R_m, R_c, R_T) < [time] steady_tol. */
#ifndef NAV_AC_H
#define NAV_AC_H

#include <stddef.h>

#include "navier/nav_types.h"

struct nav_flow;

#define NAV_AC_MAX_STAGES 4

/* Set up the pseudo-time march when [run] method = artificial_compressibility (else nothing).
 * Collective. */
nav_err nav_ac_create(struct nav_flow *f);
void nav_ac_destroy(struct nav_flow *f);
/* One pseudo-time iteration; diagnose: also measure f->res[] (R_m, R_c, R_T), f->change = their
 * largest and f->max_div. f->step counts the iterations, f->t stays. Fails with NAV_ERR_BLOWUP
 * on NaN/Inf. On one rank of a backend with graphs (CUDA), an iteration that is not diagnosed runs as
 * one recorded CUDA graph (nav_ac.c) and is not checked for NaN/Inf by itself (that would wait for the
 * device): the next diagnosed iteration or nav_ac_check detects it, and its message names the
 * iteration it was detected after. Collective. */
nav_err nav_ac_step(struct nav_flow *f, int diagnose);
/* Check the state for NaN/Inf if iterations ran as graphs since the last check (NAV_ERR_BLOWUP, see
 * nav_ac_step); nothing otherwise or without artificial compressibility. Before the state is used
 * between iterations (snapshots, checkpoints, the end of a run): nav_flow_check calls it. Collective. */
nav_err nav_ac_check(struct nav_flow *f);
/* The largest local rate lambda = cfl / dtau (backend/common/nav_point_ac.h) of the finest level at
 * the last diagnosed iteration, taken at the largest speed max|u| and the smallest cell width of
 * each direction (an upper bound of the rates of the cells): the scale of the round-off of the
 * residuals (solvers/nav_run.c, the steady tolerance); 0 before the first diagnosed iteration or
 * without artificial compressibility. Not collective (every rank has the same value). */
double nav_ac_rate_max(const struct nav_flow *f);
/* The smoothing iterations so far (nested start included) in finest-grid work units: each
 * ac_stages-stage iteration on level l counts cells_l / cells_0; -1 without artificial
 * compressibility. Not collective. */
double nav_ac_work(const struct nav_flow *f);
/* One line for the log: the levels of the pseudo-time multigrid and the coarsest grid (this
 * rank's block), the stages, ac_cfl and ac_beta, and whether iterations run as CUDA graphs. */
void nav_ac_describe(const struct nav_flow *f, char *buf, size_t n);

#endif
