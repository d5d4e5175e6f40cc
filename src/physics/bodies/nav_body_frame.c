/* Immersed bodies: the body frame in the world (signed distance, normal, bounds, rigid velocity) and the
 * positions and control volumes of the MAC faces that the forcings tag (contracts in nav_body.h). */
#include "physics/bodies/nav_body.h"

#include <math.h>

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

/* the rotated corners of the frame's bounds */
void nav_body_world_bounds(nav_body_one *o) {
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

void nav_body_face_x(const nav_flow_view *v, int c, const int g[3], double x[3]) {
  for (int d = 0; d < 3; d++) {
    if (d >= v->dim) {
      x[d] = 0;
      continue;
    }
    const double face = g[d] >= 0 ? v->xf[d][g[d]] : v->xf[d][0] - v->w[d][-1];
    x[d] = d == c ? face : face + 0.5 * v->w[d][g[d]];
  }
}

double nav_body_face_volume(const nav_flow_view *v, int c, const int g[3]) {
  double vol = 1;
  for (int d = 0; d < v->dim; d++) vol *= d == c ? 0.5 * (v->w[d][g[d] - 1] + v->w[d][g[d]]) : v->w[d][g[d]];
  return vol;
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
