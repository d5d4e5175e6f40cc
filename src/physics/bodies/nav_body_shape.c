/* The built-in shapes of immersed bodies, as signed distances in the body frame (negative inside):
 *   circle, cylinder (axis z)   phi = |(q_x, q_y)| - r
 *   sphere                      phi = |q| - r
 *   box (half edges e)          phi = |max(|q| - e, 0)| + min(max_d (|q_d| - e_d), 0)   (exact outside and inside)
 * A 2D box ignores z. points (a closed 2D polyline, extruded along z in 3D) and stl (a closed
 * triangulated surface): the file's coordinates are the body frame, the exact signed distance of the
 * readers of physics/bodies/nav_geom.h, which check the file (FILE:LINE: key 'body.N.file': PATH:LINE: reason,
 * an input error before the first step). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_table.h"
#include "physics/bodies/nav_body.h"
#include "physics/bodies/nav_geom.h"

typedef struct nav_round {
  double r;
  int ndir; /* the directions the distance sees: 2 (circle, cylinder) or 3 (sphere) */
} nav_round;

static double nav_round_distance(const void *shape, const double q[3]) {
  const nav_round *s = shape;
  double r2 = 0;
  for (int d = 0; d < s->ndir; d++) r2 += q[d] * q[d];
  return sqrt(r2) - s->r;
}

static void nav_round_bounds(const void *shape, double lo[3], double hi[3]) {
  const nav_round *s = shape;
  for (int d = 0; d < 3; d++) {
    lo[d] = d < s->ndir ? -s->r : -HUGE_VAL;
    hi[d] = d < s->ndir ? s->r : HUGE_VAL;
  }
}

typedef struct nav_block {
  double e[3]; /* half edges */
  int ndir;
} nav_block;

static double nav_block_distance(const void *shape, const double q[3]) {
  const nav_block *s = shape;
  double out = 0, in = -HUGE_VAL;
  for (int d = 0; d < s->ndir; d++) {
    const double a = fabs(q[d]) - s->e[d];
    if (a > 0) out += a * a;
    in = fmax(in, a);
  }
  return sqrt(out) + fmin(in, 0);
}

static void nav_block_bounds(const void *shape, double lo[3], double hi[3]) {
  const nav_block *s = shape;
  for (int d = 0; d < 3; d++) {
    lo[d] = d < s->ndir ? -s->e[d] : -HUGE_VAL;
    hi[d] = d < s->ndir ? s->e[d] : HUGE_VAL;
  }
}

static double nav_poly_distance(const void *shape, const double q[3]) {
  return nav_geom_poly_distance(shape, q, NULL, NULL);
}

static void nav_poly_bounds(const void *shape, double lo[3], double hi[3]) {
  nav_geom_poly_bounds(shape, lo, hi);
  lo[2] = -HUGE_VAL; /* extruded along z */
  hi[2] = HUGE_VAL;
}

static void nav_poly_free(void *data) { nav_geom_poly_destroy(data); }

static double nav_mesh_distance(const void *shape, const double q[3]) {
  return nav_geom_mesh_distance(shape, q, NULL, NULL);
}

static void nav_mesh_bounds(const void *shape, double lo[3], double hi[3]) { nav_geom_mesh_bounds(shape, lo, hi); }

static void nav_mesh_free(void *data) { nav_geom_mesh_destroy(data); }

nav_err nav_shape_create(const nav_config *cfg, int n, nav_shape *s) {
  const nav_body_config *b = &cfg->body[n];
  memset(s, 0, sizeof *s);
  s->kind = b->kind;
  s->destroy = free;
  if (!strcmp(b->kind, "circle") || !strcmp(b->kind, "cylinder") || !strcmp(b->kind, "sphere")) {
    nav_round *r = malloc(sizeof *r);
    NAV_CHECK(r, NAV_ERR_MEMORY, "cannot allocate a shape");
    r->r = b->radius;
    r->ndir = !strcmp(b->kind, "sphere") ? 3 : 2;
    s->data = r;
    s->distance = nav_round_distance;
    s->bounds = nav_round_bounds;
    return NAV_OK;
  }
  if (!strcmp(b->kind, "box")) {
    nav_block *r = malloc(sizeof *r);
    NAV_CHECK(r, NAV_ERR_MEMORY, "cannot allocate a shape");
    for (int d = 0; d < 3; d++) r->e[d] = 0.5 * b->size[d];
    r->ndir = cfg->dim;
    s->data = r;
    s->distance = nav_block_distance;
    s->bounds = nav_block_bounds;
    return NAV_OK;
  }
  char where[NAV_CONFIG_STR + 32], section[24], path[2 * NAV_CONFIG_STR + 2], msg[NAV_GEOM_MSG];
  snprintf(section, sizeof section, "body.%d", n + 1);
  nav_table_path(cfg->source, b->file, path, sizeof path);
  nav_err e = NAV_ERR_INPUT;
  if (!strcmp(b->kind, "points")) {
    nav_geom_poly *p = NULL;
    e = nav_geom_poly_read(path, &p, msg, sizeof msg);
    s->data = p;
    s->distance = nav_poly_distance;
    s->bounds = nav_poly_bounds;
    s->destroy = nav_poly_free;
  } else if (!strcmp(b->kind, "stl")) {
    nav_geom_mesh *m = NULL;
    e = nav_geom_mesh_read(path, &m, msg, sizeof msg);
    s->data = m;
    s->distance = nav_mesh_distance;
    s->bounds = nav_mesh_bounds;
    s->destroy = nav_mesh_free;
  } else {
    snprintf(msg, sizeof msg, "unknown kind '%s'", b->kind);
  }
  if (e == NAV_OK) return NAV_OK;
  nav_config_where(cfg, section, "file", where, sizeof where);
  NAV_CHECK(0, NAV_ERR_INPUT, "%s: key 'body.%d.file': %s", where, n + 1, msg);
}

void nav_shape_destroy(nav_shape *s) {
  if (s->data && s->destroy) s->destroy(s->data);
  memset(s, 0, sizeof *s);
}
