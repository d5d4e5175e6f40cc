/* The flow solver (see nav_flow.h for the scheme). */
#include "solvers/nav_flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_profile.h"
#include "core/nav_signal.h"
#include "grid/nav_geometry.h"
#include "grid/nav_reduce.h"
#include "grid/nav_spacing.h"
#include "solvers/nav_initial.h"
#include "solvers/nav_open.h"

/* halo_overlap = on: the multigrid levels whose blocks have at least this many cells overlap
 * their exchange (on smaller ones the extra launches of the split cost more than it hides) */
#define NAV_FLOW_OVERLAP_CELLS 32768

/* [pressure] initial_guess = extrapolated: p_old, where the pressure solve iterates from the p it is given (not the
 * direct FFT) and its unknown is p (not the increment phi of implicit diffusion, nor artificial compressibility's
 * pseudo-time march). p_old = p at the start, so that the first step starts from p^0. Measured in
 * docs/performance.md: 5-40 % fewer multigrid cycles per step than from p^n (the initial residual b^{n+1} - L p^n
 * ~ dt db/dt becomes ~ dt^2 d2b/dt2), but about 7x more CG iterations on the flying snake with mgpcg and point
 * smoothing (the error each solve leaves in slowly converging modes grows): not the default. */
static nav_err nav_flow_guess_create(nav_flow *f) {
  if (strcmp(f->cfg->initial_guess, "extrapolated") || f->ac || (f->diff && f->diff->implicit) ||
      !nav_psolver_iterative(f->poisson))
    return NAV_OK;
  const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
  NAV_CALL(f->ops->alloc((void **)&f->p_old, bytes));
  return f->ops->copy(f->p_old, f->p, bytes);
}

nav_err nav_flow_create(const nav_config *cfg, const nav_kernel_ops *ops, nav_flow *f) {
  memset(f, 0, sizeof *f);
  f->dc.comm = MPI_COMM_NULL;
  NAV_CALL(nav_decomp_create(cfg, &f->dc));
  f->comm = f->dc.size > 1 ? f->dc.comm : MPI_COMM_NULL;
  f->cfg = cfg;
  f->ops = ops;
  f->dim = cfg->dim;
  nav_models_select(cfg, &f->models); /* the active models (their create comes after the solver's set-up) */
  const int nn[3] = {cfg->nx, cfg->ny, cfg->dim == 3 ? cfg->nz : 1};
  if (!strcmp(cfg->initial, "abc"))
    NAV_CHECK(cfg->lx == cfg->ly && cfg->ly == cfg->lz, NAV_ERR_INPUT,
              "%s: key 'physics.initial': abc needs a cubic box (lx = ly = lz)", cfg->source);
  nav_velocity_bc_from_config(cfg, &f->vbc);
  nav_pressure_bc_from_velocity(&f->vbc, f->dim, f->pbc);
  for (int d = 0; d < 3; d++) {
    f->n[d] = nn[d];
    if (d >= f->dim) continue;
    f->w[d] = nav_widths_alloc(nn[d]);
    f->xf[d] = calloc((size_t)nn[d] + 1, sizeof(double));
    NAV_CHECK(f->w[d] && f->xf[d], NAV_ERR_MEMORY, "cannot allocate the grid");
    char why[400];
    NAV_CHECK(!nav_spacing_faces(cfg, d, f->xf[d], f->w[d], why, sizeof why), NAV_ERR_INPUT, "%s: grid %c: %s",
              cfg->source, "xyz"[d], why);
    nav_widths_ghosts(f->w[d], nn[d], cfg->bc[d][0] == NAV_BC_PERIODIC);
  }
  const int g0[3] = {0, 0, 0};
  NAV_CALL(nav_box_create(ops, f->dim, f->dc.n, f->dc.g0, f->w, &f->box));
  char at[NAV_CONFIG_STR + 16]; /* "FILE:LINE" of the key, for the transport's input errors */
  nav_config_where(cfg, "run", "halo_transport", at, sizeof at);
  NAV_CALL(nav_transport_create(ops, f->comm, cfg->halo_transport, at, &f->dc.transport));
  NAV_CALL(nav_halo_create(ops, &f->dc, &f->box, &f->halo));
  f->volume = nav_box_volume(f->dim, f->n, g0, f->w);
  const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
  for (int c = 0; c < f->dim; c++) {
    nav_real **v[4] = {&f->u[c], &f->rhs[c], &f->rhs_old[c], &f->u_prev[c]};
    for (int i = 0; i < 4; i++) {
      NAV_CALL(ops->alloc((void **)v[i], bytes));
      NAV_CALL(ops->set(&f->box, *v[i], 0));
    }
  }
  NAV_CALL(ops->alloc((void **)&f->p, bytes));
  NAV_CALL(ops->set(&f->box, f->p, 0));
  NAV_CALL(ops->alloc((void **)&f->div, bytes));
  NAV_CALL(ops->set(&f->box, f->div, 0));
  /* a wall moving with U_c: the advective rate |U_c| / h_c of the cells along c (stretched grids: the
   * smallest width along c, not the smallest of all directions) */
  for (int c = 0; c < f->dim; c++) {
    double rmax = 0; /* 1 / the smallest global cell width along c */
    for (int i = 0; i < f->n[c]; i++) rmax = fmax(rmax, 1.0 / f->w[c][i]);
    for (int d = 0; d < f->dim; d++)
      for (int s = 0; s < 2; s++)
        if (cfg->bc[d][s] == NAV_BC_WALL || cfg->bc[d][s] == NAV_BC_INFLOW) f->wall_rate = fmax(f->wall_rate, fabs(cfg->wall_velocity[d][s][c]) * rmax);
  }
  nav_psolver_options po;
  memset(&po, 0, sizeof po);
  /* artificial compressibility marches on the multigrid's levels (nav_ac.h): auto is the multigrid there */
  const int ac = !strcmp(cfg->method, "artificial_compressibility");
  snprintf(po.solver, sizeof po.solver, "%s", ac && !strcmp(cfg->solver, "auto") ? "mg" : cfg->solver);
  snprintf(po.cycle, sizeof po.cycle, "%s", cfg->cycle);
  po.tolerance = cfg->tolerance;
  po.max_iterations = cfg->max_iterations;
  po.pre_smooth = cfg->pre_smooth;
  po.post_smooth = cfg->post_smooth;
  po.omega = cfg->omega;
  snprintf(po.smoother, sizeof po.smoother, "%s", cfg->smoother);
  /* artificial compressibility marches on the levels' double arrays (nav_ac.c): no float cycles there */
  snprintf(po.precision, sizeof po.precision, "%s", ac ? "double" : cfg->precision);
  /* artificial compressibility runs its multigrid in pseudo-time on the levels that stay on the flow's
   * backend (nav_ac.c): by default every level stays there */
  po.cpu_coarse_cells = cfg->cpu_coarse_cells == 0 && ac ? 1 : cfg->cpu_coarse_cells;
  po.overlap_cells = !strcmp(cfg->halo_overlap, "on") ? NAV_FLOW_OVERLAP_CELLS : 0;
  po.async = 1; /* the next step's dt reduction waits for the pressure solve */
  const nav_err pe = nav_psolver_create(ops, &f->dc, f->dim, f->n, f->w, (const nav_scalar_bc(*)[2])f->pbc, &po,
                                        &f->poisson);
  if (pe == NAV_ERR_INPUT && !strcmp(cfg->solver, "fft")) { /* the grid or backend rules the FFT solver out */
    char where[NAV_CONFIG_STR + 16], why[512];
    nav_config_where(cfg, "pressure", "solver", where, sizeof where);
    snprintf(why, sizeof why, "%s", nav_error_message());
    nav_error_clear();
    NAV_CHECK(0, NAV_ERR_INPUT, "%s: key 'pressure.solver': %s", where, why);
  }
  NAV_CALL(pe);
  f->change = -1;
  NAV_CALL(nav_open_create(f));
  NAV_CALL(nav_initial_set(f));
  NAV_CALL(nav_diffusion_create(f));
  NAV_CALL(nav_models_create(&f->models, nav_flow_view_sync(f)));
  NAV_CALL(nav_flow_viscosity(f, NAV_VISCOSITY_START));
  NAV_CALL(nav_models_diagnose(&f->models, nav_flow_view_sync(f))); /* the monitors of the initial state */
  NAV_CALL(nav_ac_create(f));
  return nav_flow_guess_create(f);
}

void nav_flow_destroy(nav_flow *f) {
  if (!f->ops) return;
  nav_ac_destroy(f);
  nav_models_destroy(&f->models, nav_flow_view_sync(f));
  nav_diffusion_destroy(f);
  nav_open_destroy(f);
  nav_psolver_destroy(f->poisson);
  for (int c = 0; c < f->dim; c++) {
    nav_real *v[4] = {f->u[c], f->rhs[c], f->rhs_old[c], f->u_prev[c]};
    for (int i = 0; i < 4; i++)
      if (v[i]) f->ops->free(v[i]);
  }
  if (f->p) f->ops->free(f->p);
  if (f->p_old) f->ops->free(f->p_old);
  if (f->div) f->ops->free(f->div);
  nav_halo_destroy(f->halo);
  nav_box_destroy(f->ops, &f->box);
  for (int d = 0; d < f->dim; d++) {
    nav_widths_free(f->w[d]);
    free(f->xf[d]);
  }
  nav_decomp_destroy(&f->dc);
  memset(f, 0, sizeof *f);
}

/* The blow-up of step `step` at time t: velocity NaN or Inf (bad != 0). The one message of both
 * checks of div u*: at once from the pressure solve, or deferred (nav_flow_deferred). */
static nav_err nav_flow_blowup(int bad, long step, double t, double dt) {
  NAV_CHECK(!bad, NAV_ERR_BLOWUP,
            "the flow blew up at step %ld, time %.6g (dt %.3e): the velocity is NaN or Inf; reduce [time] dt, cfl "
            "or fourier",
            step, t, dt);
  return NAV_OK;
}

/* The deferred check of the last step's div u* (nav_psolver_deferred_bad): after a host wait. */
static nav_err nav_flow_deferred(nav_flow *f) {
  return nav_flow_blowup(nav_psolver_deferred_bad(f->poisson), f->deferred_step, f->deferred_t, f->deferred_dt);
}

nav_err nav_flow_check(nav_flow *f) {
  NAV_CALL(f->ops->sync());
  NAV_CALL(nav_ac_check(f)); /* the iterations of artificial compressibility run as graphs */
  return nav_flow_deferred(f);
}

/* The predictor in one pass where nothing is added to N(u^n) between its parts and the update and no one
 * keeps the flow's array pointers across steps (the pass rotates u, rhs and rhs_old): explicit diffusion
 * (not implicit), no temperature (buoyancy), no model that adds to N(u) (nav_models_rhs_on), no inflow or
 * outflow faces (nav_open_advance reads u^n in between), not artificial compressibility (nav_ac.c keeps the
 * pointers). NAV_FUSED_CONSTANT: a constant viscosity (no f->diff), ops->momentum_advance; NAV_FUSED_EDDY:
 * nu + nu_t in stress form (f->diff: a prescribed nu_t or an LES closure), the viscous table's advance_stress
 * (f->diff's arrays, nu_t and the face viscosities, are its own; the models see the pointers through the
 * view, synced at each hook). The one place that states the condition. */
enum { NAV_FUSED_NONE, NAV_FUSED_CONSTANT, NAV_FUSED_EDDY };
static int nav_flow_fused(const nav_flow *f) {
  if ((f->diff && f->diff->implicit) || f->ac || nav_models_rhs_on(&f->models)) return NAV_FUSED_NONE;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (f->cfg->bc[d][s] == NAV_BC_INFLOW || f->cfg->bc[d][s] == NAV_BC_OUTFLOW) return NAV_FUSED_NONE;
  return f->diff ? NAV_FUSED_EDDY : NAV_FUSED_CONSTANT;
}

nav_err nav_flow_dt(nav_flow *f, double *dt, double *cfl) {
  /* the models' nu_t (their viscosity hooks wrote it): its max for the explicit limit, in the same pass */
  const nav_real *nut = nav_models_viscous(&f->models) ? f->diff->nut : NULL;
  double adv, diff, nut_max;
  NAV_CALL(f->ops->time_rates(&f->box, f->u, nut, &adv, &diff, &nut_max));
  NAV_CALL(nav_flow_deferred(f)); /* the reduction waited for the backend */
  /* the stop flag of a signal rides on this reduction: every rank learns it at the same step */
  double rates[4] = {adv, diff, nut_max, (double)nav_signal_pending()};
  nav_reduce_max(f->comm, rates, 4);
  adv = rates[0];
  diff = rates[1];
  if (nut) f->diff->nu_max = f->cfg->nu + rates[2];
  f->stop_signal = (int)rates[3];
  /* the walls' own speed bounds the velocity next to them (the lid of a cavity at rest) */
  adv = fmax(adv, f->wall_rate);
  if (f->cfg->dt > 0) {
    *dt = f->cfg->dt;
  } else if (f->diff && f->diff->implicit) {
    /* the CFL number alone; the first step at the explicit limit, then a bounded growth */
    double limit = f->dt_old > 0 ? NAV_DIFFUSION_DT_GROWTH * f->dt_old
                                 : f->cfg->fourier / (nav_diffusion_max_diffusivity(f) * diff);
    if (adv > 0) limit = fmin(limit, f->cfg->cfl / adv);
    *dt = limit;
  } else {
    double limit = f->cfg->fourier / (nav_diffusion_max_diffusivity(f) * diff);
    if (adv > 0) limit = fmin(limit, f->cfg->cfl / adv); /* the smaller of the two limits */
    *dt = limit;
  }
  *cfl = adv * *dt;
  return NAV_OK;
}

nav_err nav_flow_step(nav_flow *f, double dt, int diagnose) {
  const nav_kernel_ops *ops = f->ops;
  const nav_box *b = &f->box;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  if (diagnose) {
    for (int c = 0; c < f->dim; c++) NAV_CALL(ops->copy(f->u_prev[c], f->u[c], bytes));
  }
  /* u* = u + a N(u^n) + c N(u^{n-1}): variable-step AB2, forward Euler at the first step */
  nav_profile_enter(NAV_PHASE_PREDICTOR);
  const double omega = f->dt_old > 0 ? dt / f->dt_old : 0;
  const nav_real ca = (nav_real)(dt * (1 + 0.5 * omega)), cb = (nav_real)(-dt * 0.5 * omega);
  nav_profile_work(NAV_PHASE_PREDICTOR);
  const int implicit = f->diff && f->diff->implicit;
  /* the implicit weight: backward Euler for the first steps (nav_diffusion.h), then diffusion_theta */
  const double theta = !implicit ? 0 : f->step < NAV_DIFFUSION_EULER_STEPS ? 1.0 : f->cfg->diffusion_theta;
  nav_step_info si = {.dt = dt, .ca = ca, .cb = cb, .pdt = implicit ? 0 : dt, .implicit = implicit,
                      .theta = theta, .diagnose = diagnose};
  /* the force report of an implicit run after a change of dt: the predictor at the previous dt too (nav_model.h) */
  const int force_ref =
      implicit && diagnose && nav_models_force_reference(&f->models) && f->dt_old > 0 && dt != f->dt_old;
  if (implicit) {
    f->diff->keep_rhs = force_ref;
    NAV_CALL(nav_diffusion_predict(f, nav_flow_view_sync(f), &si));
    if (force_ref) {
      NAV_CALL(nav_diffusion_reference(f, dt, f->dt_old));
      si.ref = f->diff->ref;
      si.ref_work = f->diff->keep; /* free after nav_diffusion_reference */
      si.dt_ref = f->dt_old;
    }
    goto project;
  }
  const int fused = nav_flow_fused(f);
  if (fused != NAV_FUSED_NONE) {
    /* N(u^n) into rhs, u* over rhs_old; then u <- that storage, rhs_old <- N(u^n) (the previous
     * step's at the next step), rhs <- the storage of u^n (free) */
    if (fused == NAV_FUSED_EDDY) /* N(u^n) with nu + nu_t in stress form, as nav_diffusion_explicit adds it */
      NAV_CALL(nav_diffusion_advance_stress(f, ca, cb));
    else
      NAV_CALL(ops->momentum_advance(b, f->u, (nav_real)f->cfg->nu, ca, cb, f->rhs, f->rhs_old));
    for (int c = 0; c < f->dim; c++) {
      nav_real *un = f->u[c];
      f->u[c] = f->rhs_old[c];
      f->rhs_old[c] = f->rhs[c];
      f->rhs[c] = un;
    }
    goto project;
  }
  NAV_CALL(ops->momentum_rhs(b, f->u, f->diff ? 0 : (nav_real)f->cfg->nu, f->rhs));
  if (f->diff) NAV_CALL(nav_diffusion_explicit(f, f->rhs)); /* nu + nu_t in stress form */
  /* the models' terms of N(u^n) (a Boussinesq force, a mean pressure gradient) and their explicit parts
   * (a transported temperature to T^{n+1}) */
  NAV_CALL(nav_models_rhs(&f->models, nav_flow_view_sync(f), &si));
  NAV_CALL(nav_open_advance(f, dt)); /* outflow faces to t^{n+1}, flux correction (nav_open.h) */
  NAV_CALL(ops->advance(b, f->u, f->rhs, f->rhs_old, ca, cb));
  for (int c = 0; c < f->dim; c++) { /* N(u^n) becomes the previous step's */
    nav_real *tmp = f->rhs[c];
    f->rhs[c] = f->rhs_old[c];
    f->rhs_old[c] = tmp;
  }
project:
  /* the models' forcing of u* (a held flow rate, immersed bodies): the explicit predictor lacks grad p^n
   * (si.pdt = dt), the implicit one has grad p^{n-1/2} (0) */
  NAV_CALL(nav_models_force(&f->models, nav_flow_view_sync(f), &si));
  /* u*'s ghosts for its divergence only (the correction reads its owned faces, and the fill after it all) */
  NAV_CALL(nav_fill_velocity_normal_ghosts(ops, b, f->halo, &f->vbc, f->u));
  /* L p = div u* / dt; u = u* - dt grad p (implicit: the increment phi, p += phi) */
  nav_profile_enter(NAV_PHASE_POISSON);
  if (implicit) { /* the increment phi vanishes at a steady state: stop relative to L p^{n+1/2} ~ L p^{n-1/2} */
    double s;
    NAV_CALL(ops->laplacian(b, f->p, f->div));
    NAV_CALL(ops->dot(b, f->div, f->div, &s));
    nav_reduce_sum(f->comm, &s, 1);
    nav_psolver_set_floor(f->poisson, sqrt(fmax(s, 0) / f->volume));
  }
  /* with its sum for the solve (nav_psolver_rhs_sum), unless div is read after the solve (implicit) */
  NAV_CALL(ops->divergence(b, f->u, (nav_real)(1.0 / dt), f->div, NULL,
                           implicit ? NULL : nav_psolver_rhs_sum(f->poisson)));
  nav_psolver_stats st;
  nav_profile_work(NAV_PHASE_POISSON);
  nav_real *const q = implicit ? f->diff->phi : f->p;
  if (f->p_old) /* the initial guess p^n + (dt / dt_old) (p^n - p^{n-1}), and p_old = p^n (the first step: p^n) */
    NAV_CALL(ops->extrapolate(b, (nav_real)(f->dt_old > 0 ? dt / f->dt_old : 0), f->p, f->p_old));
  nav_psolver_measure_next(f->poisson, diagnose); /* the residual of the monitor steps (FFT: nav_psolver.h) */
  NAV_CALL(nav_psolver_solve(f->poisson, q, f->div, &st));
  f->p_iterations = st.iterations;
  f->p_relres = st.relres;
  NAV_CALL(nav_flow_blowup(!isfinite(st.relres), f->step + 1, f->t, dt));
  if (st.deferred) { /* checked by the next nav_flow_dt or nav_flow_check */
    f->deferred_step = f->step + 1;
    f->deferred_t = f->t;
    f->deferred_dt = dt;
  }
  NAV_CHECK(st.converged, NAV_ERR_CONVERGENCE,
            "pressure solve did not converge at step %ld, time %.6g: relative residual %.3e after %d iterations "
            "(tolerance %.1e); raise [pressure] max_iterations or check the case",
            f->step + 1, f->t, st.relres, st.iterations, f->cfg->tolerance);
  nav_profile_enter(NAV_PHASE_CORRECTION);
  nav_profile_work(NAV_PHASE_CORRECTION);
  NAV_CALL(ops->correct(b, f->u, q, (nav_real)dt));
  NAV_CALL(nav_fill_velocity_ghosts(ops, b, f->halo, &f->vbc, f->u));
  if (implicit) { /* p^{n+1/2} = p^{n-1/2} + phi - theta nu div u* (rotational form, nav_diffusion.h) */
    NAV_CALL(ops->axpby(b, (nav_real)(-f->diff->theta * f->cfg->nu * dt), f->div, 1, f->p));
    NAV_CALL(ops->axpby(b, 1, q, 1, f->p));
    NAV_CALL(nav_fill_scalar_ghosts(ops, b, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->p));
  }
  /* the models after the projection (k, omega with u^{n+1}; statistics), then nu_t of the next step */
  NAV_CALL(nav_models_after_projection(&f->models, nav_flow_view_sync(f), &si));
  NAV_CALL(nav_flow_viscosity(f, NAV_VISCOSITY_STEP));
  nav_profile_enter(NAV_PHASE_OTHER);
  f->dt_old = dt;
  f->t += dt;
  f->step++;
  f->change = -1;
  if (diagnose) {
    NAV_CALL(ops->divergence(b, f->u, 1, NULL, &f->max_div, NULL));
    nav_reduce_max(f->comm, &f->max_div, 1);
    double dmax = 0, umax = 0;
    for (int c = 0; c < f->dim; c++) {
      double d, m;
      int bad;
      NAV_CALL(ops->max_abs_diff(b, f->u[c], f->u_prev[c], &d, &m, &bad));
      double v[3] = {d, m, bad};
      nav_reduce_max(f->comm, v, 3);
      NAV_CHECK(!v[2], NAV_ERR_BLOWUP, "velocity component %d is NaN or Inf after step %ld (time %.6g)", c, f->step,
                f->t);
      dmax = fmax(dmax, v[0]);
      umax = fmax(umax, v[1]);
    }
    f->change = umax > 0 ? dmax / (dt * umax) : 0;
    NAV_CALL(nav_models_diagnose(&f->models, nav_flow_view_sync(f))); /* the models' monitors */
    NAV_CALL(nav_models_change(&f->models, nav_flow_view_sync(f), dt, &f->change));
  }
  return NAV_OK;
}

nav_err nav_flow_kinetic_energy(nav_flow *f, double *ke) {
  double s;
  NAV_CALL(f->ops->kinetic_energy(&f->box, f->u, &s));
  nav_reduce_sum(f->comm, &s, 1);
  *ke = s / f->volume;
  return NAV_OK;
}

nav_err nav_flow_max_abs_pressure(nav_flow *f, double *pmax) {
  NAV_CALL(f->ops->max_abs_diff(&f->box, f->p, NULL, NULL, pmax, NULL));
  nav_reduce_max(f->comm, pmax, 1);
  return NAV_OK;
}
