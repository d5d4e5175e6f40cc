/* Immersed bodies: set-up of the face tags and the forcing of each step (see nav_body.h). */
#include "physics/nav_body.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_ibm.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_flow.h"

_Static_assert(NAV_IBM_MAX_BODIES == NAV_MAX_BODIES, "one body count for the config and the kernels");

double nav_body_distance(const nav_body_one *o, const double x[3]) {
  const double r[3] = {x[0] - o->center[0], x[1] - o->center[1], x[2] - o->center[2]};
  /* q = R(-angle) r / scale */
  const double q[3] = {(o->cosa * r[0] + o->sina * r[1]) / o->scale, (-o->sina * r[0] + o->cosa * r[1]) / o->scale,
                       r[2] / o->scale};
  return o->scale * o->shape.distance(o->shape.data, q);
}

double nav_body_normal(const nav_body_one *o, int dim, const double x[3], double eps, double n[3]) {
  double nn = 0;
  n[0] = n[1] = n[2] = 0;
  for (int d = 0; d < dim; d++) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[d] += eps;
    xm[d] -= eps;
    n[d] = (nav_body_distance(o, xp) - nav_body_distance(o, xm)) / (2 * eps);
    nn += n[d] * n[d];
  }
  nn = sqrt(nn);
  for (int d = 0; d < dim; d++) n[d] = nn > 0 ? n[d] / nn : 0;
  return nn;
}

/* The world bounding box of a body: the rotated corners of its frame's bounds. */
static void nav_body_world_bounds(nav_body_one *o) {
  double lo[3], hi[3];
  o->shape.bounds(o->shape.data, lo, hi);
  for (int d = 0; d < 3; d++) {
    o->lo[d] = HUGE_VAL;
    o->hi[d] = -HUGE_VAL;
  }
  for (int corner = 0; corner < 4; corner++) {
    const double qx = o->scale * (corner & 1 ? hi[0] : lo[0]), qy = o->scale * (corner & 2 ? hi[1] : lo[1]);
    const double x = o->center[0] + o->cosa * qx - o->sina * qy, y = o->center[1] + o->sina * qx + o->cosa * qy;
    o->lo[0] = fmin(o->lo[0], x);
    o->hi[0] = fmax(o->hi[0], x);
    o->lo[1] = fmin(o->lo[1], y);
    o->hi[1] = fmax(o->hi[1], y);
  }
  o->lo[2] = o->center[2] + o->scale * lo[2];
  o->hi[2] = o->center[2] + o->scale * hi[2];
}

void nav_body_face_x(const nav_flow *f, int c, const int g[3], double x[3]) {
  for (int d = 0; d < 3; d++) {
    if (d >= f->dim) {
      x[d] = 0;
      continue;
    }
    const double face = g[d] >= 0 ? f->xf[d][g[d]] : f->xf[d][0] - f->w[d][-1];
    x[d] = d == c ? face : face + 0.5 * f->w[d][g[d]];
  }
}

double nav_body_face_volume(const nav_flow *f, int c, const int g[3]) {
  double v = 1;
  for (int d = 0; d < f->dim; d++) v *= d == c ? 0.5 * (f->w[d][g[d] - 1] + f->w[d][g[d]]) : f->w[d][g[d]];
  return v;
}

double nav_body_rigid_velocity(const nav_body_one *o, int c, const double x[3]) {
  const double rot = c == 0 ? -o->omega * (x[1] - o->center[1]) : c == 1 ? o->omega * (x[0] - o->center[0]) : 0;
  return o->velocity[c] + rot;
}

int nav_body_near(const nav_body_one *o, int dim, const double x[3], double margin) {
  int near = 1;
  for (int d = 0; d < dim; d++) near = near && x[d] >= o->lo[d] - margin && x[d] <= o->hi[d] + margin;
  return near;
}

/* The tag of the face of component c at global index g: the owner of the largest solid fraction. */
static nav_real nav_body_face_tag(const nav_flow *f, const nav_body *B, int c, const int g[3]) {
  double x[3], ext[3] = {0, 0, 0}, margin = 0;
  nav_body_face_x(f, c, g, x);
  for (int d = 0; d < f->dim; d++) {
    ext[d] = d == c ? 0.5 * (f->w[d][g[d] - 1] + f->w[d][g[d]]) : f->w[d][g[d]];
    margin += ext[d];
  }
  double best = 0;
  int owner = 0;
  for (int k = 0; k < B->n; k++) {
    const nav_body_one *o = &B->b[k];
    if (!nav_body_near(o, f->dim, x, margin)) continue;
    const double phi = nav_body_distance(o, x);
    if (phi >= margin) continue;
    /* the ramp width along the normal (central differences of phi) */
    double n[3], delta = 0;
    const double nn = nav_body_normal(o, f->dim, x, 1e-6 * ext[0], n);
    for (int d = 0; d < f->dim; d++) delta += (nn > 0 ? fabs(n[d]) : 1.0 / f->dim) * ext[d];
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
static nav_err nav_body_tags(nav_flow *f) {
  nav_body *B = f->body;
  const nav_box *b = &f->box;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  long forced = 0;
  for (int k = 0; k < B->n; k++) B->b[k].volume = 0;
  for (int c = 0; c < f->dim; c++) {
    memset(B->host, 0, bytes);
    if (B->rotating) memset(B->host_vel, 0, bytes);
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
          const nav_real t = nav_body_face_tag(f, B, c, g);
          B->host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = t;
          forced += t != 0;
          if (B->rotating && t != 0) {
            double x[3];
            nav_body_face_x(f, c, g, x);
            B->host_vel[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] =
                (nav_real)nav_body_rigid_velocity(&B->b[nav_ibm_owner(t)], c, x);
          }
          if (c == 0 && t != 0) {
            const int owner = nav_ibm_owner(t);
            B->b[owner].volume += (double)(t - (nav_real)(2 * owner)) * nav_body_face_volume(f, 0, g);
          }
        }
    NAV_CALL(f->ops->from_host(B->tag[c], B->host, bytes));
    if (B->rotating) NAV_CALL(f->ops->from_host(B->vel[c], B->host_vel, bytes));
  }
  B->forced_faces = forced;
  return NAV_OK;
}

/* Prescribed motion at time t: centre, surface velocity and acceleration of every body; then the tags
 * (at set-up, and each step when a body moves). */
static nav_err nav_body_place(nav_flow *f, double t) {
  nav_body *B = f->body;
  for (int k = 0; k < B->n; k++) {
    const nav_body_config *c = &f->cfg->body[k];
    nav_body_one *o = &B->b[k];
    const double w = 2 * NAV_PI * c->motion_frequency, s = sin(w * t), co = cos(w * t);
    for (int d = 0; d < 3; d++) {
      const double base = d < f->dim ? c->center[d] : 0;
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
  return B->sharp ? nav_body_sharp_build(f) : nav_body_tags(f);
}

nav_err nav_body_create(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  f->body = NULL;
  if (cfg->nbodies == 0) return NAV_OK;
  nav_body *B = calloc(1, sizeof *B);
  NAV_CHECK(B, NAV_ERR_MEMORY, "cannot allocate the bodies");
  f->body = B;
  B->n = cfg->nbodies;
  B->area = f->dim == 2 ? cfg->reference_length : cfg->reference_area;
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
    NAV_CALL(nav_body_sharp_create(f));
  } else {
    const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
    B->host = malloc(bytes);
    NAV_CHECK(B->host, NAV_ERR_MEMORY, "cannot allocate the body tags");
    if (B->rotating) {
      B->host_vel = malloc(bytes);
      NAV_CHECK(B->host_vel, NAV_ERR_MEMORY, "cannot allocate the body velocities");
    }
    for (int c = 0; c < f->dim; c++) {
      NAV_CALL(f->ops->alloc((void **)&B->tag[c], bytes));
      if (B->rotating) NAV_CALL(f->ops->alloc((void **)&B->vel[c], bytes));
    }
  }
  NAV_CALL(nav_body_place(f, f->t));
  double forced = (double)B->forced_faces;
  nav_reduce_sum(f->comm, &forced, 1);
  if (f->dc.rank == 0)
    for (int k = 0; k < B->n; k++)
      printf("body %d '%s': %s at (%g, %g, %g), scale %g, angle %g deg\n", k + 1, B->b[k].name, B->b[k].shape.kind,
             B->b[k].center[0], B->b[k].center[1], B->b[k].center[2], B->b[k].scale, cfg->body[k].angle);
  if (f->dc.rank == 0)
    printf(B->sharp ? "bodies: sharp forcing, %.0f forced faces (inside a body or next to one)\n"
                    : "bodies: %.0f forced faces (solid fraction > 0)\n",
           forced);
  return NAV_OK;
}

void nav_body_destroy(nav_flow *f) {
  nav_body *B = f->body;
  if (!B) return;
  for (int c = 0; c < 3; c++) {
    if (B->tag[c]) f->ops->free(B->tag[c]);
    if (B->scratch[c]) f->ops->free(B->scratch[c]);
    if (B->vel[c]) f->ops->free(B->vel[c]);
  }
  nav_body_sharp_destroy(f);
  for (int k = 0; k < B->n; k++) {
    nav_shape_destroy(&B->b[k].shape);
    free(B->b[k].hist);
  }
  free(B->host);
  free(B->host_vel);
  free(B);
  f->body = NULL;
}

nav_err nav_body_force(nav_flow *f, double dt, double gscale, int diagnose, nav_real *const *ref) {
  nav_body *B = f->body;
  if (!B) return NAV_OK;
  if (B->moving) NAV_CALL(nav_body_place(f, f->t + dt)); /* the bodies where they are at the end of the step */
  nav_ibm_params a;
  memset(&a, 0, sizeof a);
  a.nbody = B->n;
  a.gscale = (nav_real)gscale;
  for (int k = 0; k < B->n; k++)
    for (int c = 0; c < 3; c++) a.velocity[k][c] = (nav_real)B->b[k].velocity[c];
  double sums[NAV_IBM_NSUM], slip[2 * NAV_IBM_NSUM];
  const double dt_old = f->dt_old > 0 ? f->dt_old : dt;
  if (diagnose) { /* slip = sum alpha (V - u^n) dV: the forcing of a copy of u^n (f->u_prev on monitor steps) */
    const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
    nav_ibm_params a0 = a;
    a0.gscale = 0;
    for (int c = 0; c < f->dim; c++) {
      if (!B->scratch[c]) NAV_CALL(f->ops->alloc((void **)&B->scratch[c], bytes));
      NAV_CALL(f->ops->copy(B->scratch[c], f->u_prev[c], bytes));
    }
    if (B->sharp) /* u^n's ghosts are current */
      NAV_CALL(nav_body_sharp_force(f, B->scratch, 0, 0, slip));
    else
      NAV_CALL(f->ops->ibm_force(&f->box, B->scratch, B->tag, f->p, B->rotating ? B->vel : NULL, &a0, slip));
  }
  if (B->sharp) {
    NAV_CALL(nav_body_sharp_gauge(f));
    NAV_CALL(nav_body_sharp_force(f, f->u, gscale, 1, diagnose ? sums : NULL));
  } else
    NAV_CALL(f->ops->ibm_force(&f->box, f->u, B->tag, f->p, B->rotating ? B->vel : NULL, &a, diagnose ? sums : NULL));
  if (!diagnose) return NAV_OK;
  /* With implicit diffusion the predictor of a step whose dt differs from the last one's puts part of the forced
   * faces' change on the fluid faces beside them ((I - theta dt nu L)^-1 spreads it by another amount), where the
   * forcing does not see it (it returns over the next steps): the force of this step is then that of the
   * predictor at the last dt, ref (docs/validation.md, "the force after a change of dt"). */
  double rate = dt;
  if (ref) {
    const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
    for (int c = 0; c < f->dim; c++) NAV_CALL(f->ops->copy(B->scratch[c], ref[c], bytes));
    if (B->sharp)
      NAV_CALL(nav_body_sharp_force(f, B->scratch, gscale, 1, sums));
    else
      NAV_CALL(f->ops->ibm_force(&f->box, B->scratch, B->tag, f->p, B->rotating ? B->vel : NULL, &a, sums));
    rate = dt_old;
  }
  memcpy(slip + NAV_IBM_NSUM, sums, sizeof sums);
  double vol[NAV_MAX_BODIES];
  for (int k = 0; k < NAV_MAX_BODIES; k++) vol[k] = k < B->n ? B->b[k].volume : 0;
  nav_reduce_sum(f->comm, slip, 2 * NAV_IBM_NSUM);
  nav_reduce_sum(f->comm, vol, NAV_MAX_BODIES);
  const double U = f->cfg->reference_velocity, t = f->t + dt; /* the forces of the step that ends at t + dt */
  for (int k = 0; k < B->n; k++) {
    nav_body_one *o = &B->b[k];
    for (int c = 0; c < 3; c++) {
      const double s0 = slip[3 * k + c], s = slip[NAV_IBM_NSUM + 3 * k + c];
      /* plus the inner fluid's rate of momentum, volume times the prescribed acceleration */
      o->force[c] = c < f->dim ? -s0 / dt_old - (s - s0) / rate + vol[k] * o->accel[c] : 0;
      o->coef[c] = 2 * o->force[c] / (U * U * B->area);
    }
    if (t < f->cfg->average_start * (1 - 1e-12)) continue;
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
