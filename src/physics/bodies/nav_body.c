/* Immersed bodies: the model "bodies" (nav_model.h): set-up of the face tags and the forcing of each step (see
 * nav_body.h). */
#include "physics/bodies/nav_body.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_ibm.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"

_Static_assert(NAV_IBM_MAX_BODIES == NAV_MAX_BODIES, "one body count for the config and the kernels");

/* The tag of the face of component c at global index g: the owner of the largest solid fraction. */
static nav_real nav_body_face_tag(const nav_flow_view *v, const nav_body *B, int c, const int g[3]) {
  double x[3], ext[3] = {0, 0, 0}, margin = 0;
  nav_body_face_x(v, c, g, x);
  for (int d = 0; d < v->dim; d++) {
    ext[d] = d == c ? 0.5 * (v->w[d][g[d] - 1] + v->w[d][g[d]]) : v->w[d][g[d]];
    margin += ext[d];
  }
  double best = 0;
  int owner = 0;
  for (int k = 0; k < B->n; k++) {
    const nav_body_one *o = &B->b[k];
    if (!nav_body_near(o, v->dim, x, margin)) continue;
    const double phi = nav_body_distance(o, x);
    if (phi >= margin) continue;
    /* the ramp width along the normal (central differences of phi) */
    double n[3], delta = 0;
    const double nn = nav_body_normal(o, v->dim, x, 1e-6 * ext[0], n);
    for (int d = 0; d < v->dim; d++) delta += (nn > 0 ? fabs(n[d]) : 1.0 / v->dim) * ext[d];
    const double a = nav_ibm_fraction(phi, delta);
    if (a > best) {
      best = a;
      owner = k;
    }
  }
  return best > 0 ? nav_ibm_tag(owner, (nav_real)best) : 0;
}

/* The tags of this rank's faces for the bodies where they are now; the volume of each body (the solid
 * fractions of the u faces times their volumes, local). */
static nav_err nav_body_tags(nav_body *B, const nav_flow_view *v) {
  const nav_box *b = v->box;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  long forced = 0;
  for (int k = 0; k < B->n; k++) B->b[k].volume = 0;
  for (int c = 0; c < v->dim; c++) {
    memset(B->host, 0, bytes);
    if (B->rotating) memset(B->host_vel, 0, bytes);
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
          const nav_real t = nav_body_face_tag(v, B, c, g);
          B->host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = t;
          forced += t != 0;
          if (B->rotating && t != 0) {
            double x[3];
            nav_body_face_x(v, c, g, x);
            B->host_vel[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] =
                (nav_real)nav_body_rigid_velocity(&B->b[nav_ibm_owner(t)], c, x);
          }
          if (c == 0 && t != 0) {
            const int owner = nav_ibm_owner(t);
            B->b[owner].volume += (double)(t - (nav_real)(2 * owner)) * nav_body_face_volume(v, 0, g);
          }
        }
    NAV_CALL(v->ops->from_host(B->tag[c], B->host, bytes));
    if (B->rotating) NAV_CALL(v->ops->from_host(B->vel[c], B->host_vel, bytes));
  }
  B->forced_faces = forced;
  return NAV_OK;
}

/* Prescribed motion at time t: centre, surface velocity and acceleration of every body; then the tags
 * (at set-up, and each step when a body moves). */
static nav_err nav_body_place(nav_body *B, const nav_flow_view *v, double t) {
  for (int k = 0; k < B->n; k++) {
    const nav_body_config *c = &v->cfg->body[k];
    nav_body_one *o = &B->b[k];
    const double w = 2 * NAV_PI * c->motion_frequency, s = sin(w * t), co = cos(w * t);
    for (int d = 0; d < 3; d++) {
      const double base = d < v->dim ? c->center[d] : 0;
      o->center[d] = base + c->motion_velocity[d] * t + c->motion_amplitude[d] * s;
      o->velocity[d] = c->velocity[d] + c->motion_velocity[d] + c->motion_amplitude[d] * w * co;
      o->accel[d] = -c->motion_amplitude[d] * w * w * s;
    }
    const double wp = 2 * NAV_PI * c->pitch_frequency, deg = NAV_PI / 180;
    const double angle = c->angle + c->rotation_rate * t + c->pitch_amplitude * sin(wp * t);
    o->omega = (c->rotation_rate + c->pitch_amplitude * wp * cos(wp * t)) * deg;
    o->cosa = cos(angle * deg);
    o->sina = sin(angle * deg);
    nav_body_world_bounds(o);
  }
  return B->sharp ? nav_body_sharp_build(B, v) : nav_body_tags(B, v);
}

static int nav_body_active(const nav_config *cfg) { return cfg->nbodies > 0; }

static void nav_body_destroy(nav_model *m, nav_flow_view *v) {
  nav_body *B = m->data;
  if (!B) return;
  for (int c = 0; c < 3; c++) {
    if (B->tag[c]) v->ops->free(B->tag[c]);
    if (B->scratch[c]) v->ops->free(B->scratch[c]);
    if (B->vel[c]) v->ops->free(B->vel[c]);
  }
  nav_body_sharp_destroy(B, v->ops);
  for (int k = 0; k < B->n; k++) {
    nav_shape_destroy(&B->b[k].shape);
    free(B->b[k].hist);
  }
  free(B->host);
  free(B->host_vel);
  free(B);
  m->data = NULL;
}

static nav_err nav_body_create(nav_model *m, nav_flow_view *v) {
  const nav_config *cfg = v->cfg;
  nav_body *B = calloc(1, sizeof *B);
  NAV_CHECK(B, NAV_ERR_MEMORY, "cannot allocate the bodies");
  m->data = B;
  B->n = cfg->nbodies;
  B->area = v->dim == 2 ? cfg->reference_length : cfg->reference_area;
  for (int k = 0; k < B->n; k++) {
    const nav_body_config *c = &cfg->body[k];
    nav_body_one *o = &B->b[k];
    NAV_CALL(nav_shape_create(cfg, k, &o->shape));
    if (c->name[0])
      snprintf(o->name, sizeof o->name, "%s", c->name);
    else
      snprintf(o->name, sizeof o->name, "body%d", k + 1);
    o->scale = c->scale;
    const double a = c->angle * NAV_PI / 180;
    o->cosa = cos(a);
    o->sina = sin(a);
    for (int d = 0; d < 3; d++)
      B->moving = B->moving || c->motion_velocity[d] != 0 || (c->motion_amplitude[d] != 0 && c->motion_frequency > 0);
    B->rotating = B->rotating || c->rotation_rate != 0 || (c->pitch_amplitude != 0 && c->pitch_frequency > 0);
  }
  B->moving = B->moving || B->rotating;
  if (!strcmp(cfg->bodies_forcing, "sharp")) {
    NAV_CALL(nav_body_sharp_create(B));
  } else {
    const size_t bytes = (size_t)v->box->ntot * sizeof(nav_real);
    B->host = malloc(bytes);
    NAV_CHECK(B->host, NAV_ERR_MEMORY, "cannot allocate the body tags");
    if (B->rotating) {
      B->host_vel = malloc(bytes);
      NAV_CHECK(B->host_vel, NAV_ERR_MEMORY, "cannot allocate the body velocities");
    }
    for (int c = 0; c < v->dim; c++) {
      NAV_CALL(v->ops->alloc((void **)&B->tag[c], bytes));
      if (B->rotating) NAV_CALL(v->ops->alloc((void **)&B->vel[c], bytes));
    }
  }
  NAV_CALL(nav_body_place(B, v, v->t));
  double forced = (double)B->forced_faces;
  nav_reduce_sum(v->comm, &forced, 1);
  if (v->dc->rank == 0)
    for (int k = 0; k < B->n; k++)
      printf("body %d '%s': %s at (%g, %g, %g), scale %g, angle %g deg\n", k + 1, B->b[k].name, B->b[k].shape.kind,
             B->b[k].center[0], B->b[k].center[1], B->b[k].center[2], B->b[k].scale, cfg->body[k].angle);
  if (v->dc->rank == 0)
    printf(B->sharp ? "bodies: sharp forcing, %.0f forced faces (inside a body or next to one)\n"
                    : "bodies: %.0f forced faces (solid fraction > 0)\n",
           forced);
  return NAV_OK;
}

/* The forcing of one step on v->u (u*, before the projection; the solver fills its ghosts after the force hooks);
 * gscale = s->pdt as in nav_point_ibm.h. On monitor steps also the forces and coefficients of every body
 * (collective), from the slip that u^n (v->u_prev) leaves and the change of this step. */
static nav_err nav_body_force(nav_model *m, nav_flow_view *v, const nav_step_info *s) {
  nav_body *B = m->data;
  const double dt = s->dt, gscale = s->pdt;
  const int diagnose = s->diagnose;
  if (B->moving) NAV_CALL(nav_body_place(B, v, v->t + dt)); /* the bodies where they are at the end of the step */
  nav_ibm_params a;
  memset(&a, 0, sizeof a);
  a.nbody = B->n;
  a.gscale = (nav_real)gscale;
  for (int k = 0; k < B->n; k++)
    for (int c = 0; c < 3; c++) a.velocity[k][c] = (nav_real)B->b[k].velocity[c];
  double sums[NAV_IBM_NSUM], slip[2 * NAV_IBM_NSUM];
  const double dt_old = v->dt_old > 0 ? v->dt_old : dt;
  if (diagnose) { /* slip = sum alpha (V - u^n) dV: the forcing of a copy of u^n (v->u_prev on monitor steps) */
    const size_t bytes = (size_t)v->box->ntot * sizeof(nav_real);
    nav_ibm_params a0 = a;
    a0.gscale = 0;
    for (int c = 0; c < v->dim; c++) {
      if (!B->scratch[c]) NAV_CALL(v->ops->alloc((void **)&B->scratch[c], bytes));
      NAV_CALL(v->ops->copy(B->scratch[c], v->u_prev[c], bytes));
    }
    if (B->sharp) /* u^n's ghosts are current */
      NAV_CALL(nav_body_sharp_force(B, v, B->scratch, 0, 0, slip));
    else
      NAV_CALL(v->ops->ibm_force(v->box, B->scratch, B->tag, v->p, B->rotating ? B->vel : NULL, &a0, slip));
  }
  if (B->sharp) {
    NAV_CALL(nav_body_sharp_gauge(B, v));
    NAV_CALL(nav_body_sharp_force(B, v, v->u, gscale, 1, diagnose ? sums : NULL));
  } else
    NAV_CALL(v->ops->ibm_force(v->box, v->u, B->tag, v->p, B->rotating ? B->vel : NULL, &a, diagnose ? sums : NULL));
  if (!diagnose) return NAV_OK;
  memcpy(slip + NAV_IBM_NSUM, sums, sizeof sums);
  double vol[NAV_MAX_BODIES];
  for (int k = 0; k < NAV_MAX_BODIES; k++) vol[k] = k < B->n ? B->b[k].volume : 0;
  nav_reduce_sum(v->comm, slip, 2 * NAV_IBM_NSUM);
  nav_reduce_sum(v->comm, vol, NAV_MAX_BODIES);
  const double U = v->cfg->reference_velocity, t = v->t + dt; /* the forces of the step that ends at t + dt */
  for (int k = 0; k < B->n; k++) {
    nav_body_one *o = &B->b[k];
    for (int c = 0; c < 3; c++) {
      const double s0 = slip[3 * k + c], sk = slip[NAV_IBM_NSUM + 3 * k + c];
      /* plus the inner fluid's rate of momentum, volume times the prescribed acceleration */
      o->force[c] = c < v->dim ? -s0 / dt_old - (sk - s0) / dt + vol[k] * o->accel[c] : 0;
      o->coef[c] = 2 * o->force[c] / (U * U * B->area);
    }
    if (t < v->cfg->average_start * (1 - 1e-12)) continue;
    if (o->nhist == o->cap) {
      const int cap = o->cap ? 2 * o->cap : 1024;
      double *h = realloc(o->hist, (size_t)cap * 4 * sizeof *h);
      NAV_CHECK(h, NAV_ERR_MEMORY, "cannot grow the force history");
      o->hist = h;
      o->cap = cap;
    }
    double *row = o->hist + 4 * o->nhist++;
    row[0] = t;
    row[1] = o->coef[0];
    row[2] = o->coef[1];
    row[3] = o->coef[2];
  }
  return NAV_OK;
}

const nav_model_ops nav_model_bodies = {
    .name = "bodies",
    .sections = {"bodies", "body", "forces", NULL},
    .active = nav_body_active,
    .create = nav_body_create,
    .destroy = nav_body_destroy,
    .force = nav_body_force,
    .monitor_header = nav_body_monitor_header,
    .monitor_row = nav_body_monitor_row,
    .summary = nav_body_summary,
    .report = nav_body_report,
};
