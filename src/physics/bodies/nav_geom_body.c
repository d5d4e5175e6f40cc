/* Geometry module: the placed body that the immersed-boundary code queries, a polygon or a mesh under a
 * rigid placement (contracts in nav_geom.h; the placement X = c + R (s x - c) + t in nav_geom.c). */
#include "physics/bodies/nav_geom.h"

#include <math.h>
#include <stdlib.h>

#include "physics/bodies/nav_geom_impl.h"

/* w = R v: a direction of the file (a normal) in the domain. */
static void nav_geom_turn(const nav_geom_xform *xf, const double v[3], double w[3]) {
  for (int d = 0; d < 3; d++)
    w[d] = xf->rot[d][0] * v[0] + xf->rot[d][1] * v[1] + xf->rot[d][2] * v[2];
}

/* ---- placed body ---------------------------------------------------------------------------------- */

nav_err nav_geom_body_check(const nav_geom_body *b, char *msg, size_t size) {
  if (!b->poly == !b->mesh)
    return nav_geom_fail(NAV_ERR_INTERNAL, msg, size, "a body needs exactly one shape (polygon or mesh)");
  if (b->poly && (b->xf.angle[0] != 0 || b->xf.angle[1] != 0))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size,
                         "a points body turns about z only (its rotation about x and y must be 0)");
  return NAV_OK;
}

double nav_geom_body_distance(const nav_geom_body *b, const double X[3], double cp[3], double normal[3]) {
  double x[3], c[3] = {0, 0, 0}, n[3] = {0, 0, 0}, d;
  nav_geom_xform_inverse(&b->xf, X, x);
  if (b->poly) {
    d = nav_geom_poly_distance(b->poly, x, c, n);
    c[2] = x[2]; /* the prism: the closest point lies in the plane of X */
  } else {
    d = nav_geom_mesh_distance(b->mesh, x, c, n);
  }
  if (cp) nav_geom_xform_apply(&b->xf, c, cp);
  if (cp && b->poly) cp[2] = X[2];
  if (normal) nav_geom_turn(&b->xf, n, normal);
  return b->xf.scale * d;
}

int nav_geom_body_inside(const nav_geom_body *b, const double X[3]) {
  double x[3];
  nav_geom_xform_inverse(&b->xf, X, x);
  if (b->poly) return nav_geom_poly_winding(b->poly, x) != 0;
  return nav_geom_mesh_inside(b->mesh, x);
}

void nav_geom_body_bounds(const nav_geom_body *b, double lo[3], double hi[3]) {
  const double *v;
  int n, stride;
  if (b->poly)
    v = nav_geom_poly_points(b->poly), n = nav_geom_poly_count(b->poly), stride = 2;
  else
    v = nav_geom_mesh_vertex_xyz(b->mesh), n = nav_geom_mesh_vertices(b->mesh), stride = 3;
  for (int d = 0; d < 3; d++)
    lo[d] = HUGE_VAL, hi[d] = -HUGE_VAL;
  for (int i = 0; i < n; i++) {
    const double x[3] = {v[stride * i], v[stride * i + 1], stride == 3 ? v[stride * i + 2] : 0};
    double X[3];
    nav_geom_xform_apply(&b->xf, x, X);
    for (int d = 0; d < 3; d++)
      lo[d] = fmin(lo[d], X[d]), hi[d] = fmax(hi[d], X[d]);
  }
  if (b->poly) lo[2] = -HUGE_VAL, hi[2] = HUGE_VAL;
}

nav_err nav_geom_body_sample(const nav_geom_body *b, double h, int *n, double **X, double **normal, double **w,
                             char *msg, size_t size) {
  double *x = NULL, *nr = NULL;
  *X = *normal = NULL;
  const int dim = b->poly ? 2 : 3;
  nav_err err = b->poly ? nav_geom_poly_sample(b->poly, h / b->xf.scale, n, &x, &nr, w, msg, size)
                        : nav_geom_mesh_sample(b->mesh, h / b->xf.scale, n, &x, &nr, w, msg, size);
  if (err != NAV_OK) return err;
  *X = malloc((size_t)*n * 3 * sizeof **X), *normal = malloc((size_t)*n * 3 * sizeof **normal);
  if (!*X || !*normal) {
    free(*X), free(*normal), free(*w), free(x), free(nr);
    *X = *normal = *w = NULL, *n = 0;
    return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "out of memory (samples)");
  }
  const double ws = dim == 2 ? b->xf.scale : b->xf.scale * b->xf.scale;
  for (int i = 0; i < *n; i++) {
    const double xi[3] = {x[dim * i], x[dim * i + 1], dim == 3 ? x[dim * i + 2] : 0};
    const double ni[3] = {nr[dim * i], nr[dim * i + 1], dim == 3 ? nr[dim * i + 2] : 0};
    nav_geom_xform_apply(&b->xf, xi, *X + 3 * i);
    nav_geom_turn(&b->xf, ni, *normal + 3 * i);
    if (dim == 2) (*X)[3 * i + 2] = 0;
    (*w)[i] *= ws;
  }
  free(x), free(nr);
  return NAV_OK;
}
