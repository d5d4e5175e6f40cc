/* The view of the flow that the physics models see (physics/nav_model.h, nav_flow.h), the solver's
 * services in it, and the steps of the solver that go through the models outside nav_flow_step (nu_t,
 * a restart). */
#include "solvers/nav_flow.h"

#include "core/nav_error.h"
#include "solvers/nav_open.h"

/* The solver's services of the view (nav_model.h). */
static nav_err nav_flow_response(void *solver, int c, double dt, const nav_real **r, double *bulk) {
  return nav_diffusion_response(solver, c, dt, r, bulk);
}

static nav_err nav_flow_response_into(void *solver, int c, double dt, nav_real *r, double *bulk) {
  return nav_diffusion_response_into(solver, c, dt, r, bulk);
}

static nav_err nav_flow_open_fluxes(void *solver, double flux[3][2]) { return nav_open_fluxes(solver, flux); }

static nav_err nav_flow_face_viscosities(void *solver) { return nav_diffusion_face_viscosities(solver); }

nav_flow_view *nav_flow_view_sync(nav_flow *f) {
  nav_flow_view *v = &f->view;
  v->cfg = f->cfg;
  v->ops = f->ops;
  v->dim = f->dim;
  v->n = f->n;
  v->w = f->w;
  v->xf = f->xf;
  v->volume = f->volume;
  v->dc = &f->dc;
  v->halo = f->halo;
  v->comm = f->comm;
  v->box = &f->box;
  v->vbc = &f->vbc;
  v->pbc = (const nav_scalar_bc(*)[2])f->pbc;
  for (int c = 0; c < 3; c++) {
    v->u[c] = f->u[c];
    v->rhs[c] = f->rhs[c];
    v->u_prev[c] = f->u_prev[c];
  }
  v->p = f->p;
  v->div = f->div;
  v->nut = f->diff ? f->diff->nut : NULL;
  for (int c = 0; c < 3; c++) v->kf[c] = f->diff ? f->diff->kf[c] : NULL;
  v->max_diffusivity = &f->max_diffusivity;
  v->implicit = f->diff && f->diff->implicit;
  v->scalar = &f->scalar;
  v->models = &f->models;
  v->solver = f;
  v->response = nav_flow_response;
  v->response_into = nav_flow_response_into;
  v->open_fluxes = nav_flow_open_fluxes;
  v->face_viscosities = nav_flow_face_viscosities;
  v->t = f->t;
  v->step = f->step;
  v->dt_old = f->dt_old;
  return v;
}

nav_err nav_flow_viscosity(nav_flow *f, nav_viscosity_when when) {
  int any;
  NAV_CALL(nav_models_viscosity(&f->models, nav_flow_view_sync(f), when, &any));
  if (!any) return NAV_OK;
  return nav_diffusion_viscosity_changed(f); /* (nu_max, the explicit limit: nav_flow_dt) */
}

nav_err nav_flow_restored(nav_flow *f) {
  NAV_CALL(nav_fill_velocity_ghosts(f->ops, &f->box, f->halo, &f->vbc, f->u));
  NAV_CALL(nav_fill_scalar_ghosts(f->ops, &f->box, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->p));
  if (f->diff && f->diff->implicit)
    NAV_CALL(nav_fill_scalar_ghosts(f->ops, &f->box, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->diff->phi));
  NAV_CALL(nav_models_restored(&f->models, nav_flow_view_sync(f)));
  NAV_CALL(nav_flow_viscosity(f, NAV_VISCOSITY_RESTART)); /* nu_t is state: its ghosts */
  f->change = -1;
  return NAV_OK;
}
