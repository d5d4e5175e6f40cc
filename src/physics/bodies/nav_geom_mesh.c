/* Queries of closed triangulated surfaces (nav_geom.h): signed distance, winding number, samples.
 *
 * Distance: the closest point of the nearest triangle (the hierarchy; Ericson, Real-Time Collision
 * Detection, 5.1.5, which also tells the feature: face, edge or corner) and the angle-weighted pseudonormal
 * of that feature as the normal. The sign is the winding number's, not that of (x - q).N, which is exact in
 * exact arithmetic but flips where the distances to two features tie to round-off at sliver angles (found
 * by the fuzzer in 2D). Winding number: the triangles that the half-line from x along +x meets, +1 for those
 * whose outward normal points along +x, -1 against, found by a box query; the triangles are projected onto
 * the (y, z) plane and a point on a projected edge or vertex is given to exactly one triangle of each sheet
 * (a half-open rule with exactly antisymmetric edge functions: a symbolic perturbation of x), so a ray
 * through an edge or a vertex still counts each crossing of the surface once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/bodies/nav_geom.h"
#include "physics/bodies/nav_geom_bvh.h"
#include "physics/bodies/nav_geom_impl.h"

void nav_geom_mesh_destroy(nav_geom_mesh *m) {
  if (!m) return;
  free(m->v);
  free(m->tri);
  free(m->fn);
  free(m->en);
  free(m->vn);
  nav_geom_bvh_free(&m->bvh);
  free(m);
}

int nav_geom_mesh_triangles(const nav_geom_mesh *m) { return m->nt; }
int nav_geom_mesh_vertices(const nav_geom_mesh *m) { return m->nv; }
double nav_geom_mesh_volume(const nav_geom_mesh *m) { return m->volume; }
const double *nav_geom_mesh_vertex_xyz(const struct nav_geom_mesh *m) { return m->v; }
const int *nav_geom_mesh_triangle_vertices(const struct nav_geom_mesh *m) { return m->tri; }
void nav_geom_mesh_bounds(const nav_geom_mesh *m, double lo[3], double hi[3]) {
  for (int d = 0; d < 3; d++)
    lo[d] = m->lo[d], hi[d] = m->hi[d];
}

/* ---- distance ---------------------------------------------------------------------------------------------- */

/* Closest point q of triangle abc to p and its squared distance; feature: 0 the face, 1 + k the edge k
 * (corner k to corner k+1), 4 + k the corner k. Ericson, Real-Time Collision Detection, 5.1.5. */
static double nav_tri_dist2_feature(const double *a, const double *b, const double *c, const double *p, double q[3],
                                    int *feature) {
  double ab[3], ac[3], ap[3], bp[3], cp[3];
  nav_sub(b, a, ab);
  nav_sub(c, a, ac);
  nav_sub(p, a, ap);
  const double d1 = nav_dot(ab, ap), d2 = nav_dot(ac, ap);
  double v, w;
  if (d1 <= 0 && d2 <= 0) {
    memcpy(q, a, 3 * sizeof *q), *feature = 4;
    goto done;
  }
  nav_sub(p, b, bp);
  const double d3 = nav_dot(ab, bp), d4 = nav_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    memcpy(q, b, 3 * sizeof *q), *feature = 5;
    goto done;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    v = d1 / (d1 - d3);
    for (int d = 0; d < 3; d++)
      q[d] = a[d] + v * ab[d];
    *feature = 1;
    goto done;
  }
  nav_sub(p, c, cp);
  const double d5 = nav_dot(ab, cp), d6 = nav_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    memcpy(q, c, 3 * sizeof *q), *feature = 6;
    goto done;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    w = d2 / (d2 - d6);
    for (int d = 0; d < 3; d++)
      q[d] = a[d] + w * ac[d];
    *feature = 3;
    goto done;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int d = 0; d < 3; d++)
      q[d] = b[d] + w * (c[d] - b[d]);
    *feature = 2;
    goto done;
  }
  {
    const double den = 1 / (va + vb + vc);
    v = vb * den, w = vc * den;
    for (int d = 0; d < 3; d++)
      q[d] = a[d] + v * ab[d] + w * ac[d];
    *feature = 0;
  }
done:;
  double r[3];
  nav_sub(p, q, r);
  return nav_dot(r, r);
}

static double nav_mesh_tri_dist2(const void *ctx, int t, const double p[3]) {
  const nav_geom_mesh *m = ctx;
  double q[3];
  int f;
  return nav_tri_dist2_feature(m->v + 3 * m->tri[3 * t], m->v + 3 * m->tri[3 * t + 1], m->v + 3 * m->tri[3 * t + 2], p,
                               q, &f);
}

double nav_geom_mesh_distance(const nav_geom_mesh *m, const double x[3], double cp[3], double normal[3]) {
  double d2, q[3];
  int feature;
  const int t = nav_geom_bvh_nearest(&m->bvh, x, nav_mesh_tri_dist2, m, &d2);
  const int *T = m->tri + 3 * t;
  d2 = nav_tri_dist2_feature(m->v + 3 * T[0], m->v + 3 * T[1], m->v + 3 * T[2], x, q, &feature);
  const double *N =
      feature == 0 ? m->fn + 3 * t : (feature < 4 ? m->en + 9 * t + 3 * (feature - 1) : m->vn + 3 * T[feature - 4]);
  if (cp) memcpy(cp, q, 3 * sizeof *cp);
  if (normal) memcpy(normal, N, 3 * sizeof *normal);
  /* the sign from the winding number, not from (x - q).N: see nav_geom_poly_distance */
  const double d = sqrt(d2);
  return nav_geom_mesh_winding(m, x) != 0 ? -d : d;
}

/* ---- winding number ------------------------------------------------------------------------------------ */

/* orient2 of the edge (u, v) and the point p in the (y, z) plane, computed with the edge's end points in a
 * fixed order so that the two triangles of an edge get exactly opposite values */
static double nav_edge_fn(const double *u, const double *v, const double *p) {
  const int swap = u[1] > v[1] || (u[1] == v[1] && u[2] > v[2]);
  const double *a = swap ? v : u, *b = swap ? u : v;
  const double e = (b[1] - a[1]) * (p[2] - a[2]) - (b[2] - a[2]) * (p[1] - a[1]);
  return swap ? -e : e;
}

/* The point p is covered by the edge (u, v) of a counter-clockwise triangle: strictly on its inner side, or
 * on the edge when the edge runs "up" (dy > 0, or dy == 0 and dz < 0); of the two directions of an edge
 * exactly one runs up, so a point on a shared edge or vertex is covered by exactly one triangle of a fan. */
static int nav_edge_covers(const double *u, const double *v, const double *p) {
  const double e = nav_edge_fn(u, v, p);
  const double dy = v[1] - u[1], dz = v[2] - u[2];
  return e > 0 || (e == 0 && (dy > 0 || (dy == 0 && dz < 0)));
}

typedef struct nav_mesh_wind {
  const nav_geom_mesh *m;
  const double *x;
  int w;
} nav_mesh_wind;

static int nav_mesh_wind_tri(void *ctx, int t) {
  nav_mesh_wind *c = ctx;
  const int *T = c->m->tri + 3 * t;
  const double *a = c->m->v + 3 * T[0], *b = c->m->v + 3 * T[1], *cc = c->m->v + 3 * T[2], *p = c->x;
  const double s = (b[1] - a[1]) * (cc[2] - a[2]) - (b[2] - a[2]) * (cc[1] - a[1]);
  if (s == 0) return 0; /* seen edge-on from the ray */
  if (s < 0) {          /* the projection runs clockwise: look at it the other way round */
    const double *t2 = b;
    b = cc, cc = t2;
  }
  if (!nav_edge_covers(a, b, p) || !nav_edge_covers(b, cc, p) || !nav_edge_covers(cc, a, p)) return 0;
  /* where the ray meets the triangle's plane: barycentric weights of the projection */
  const double la = nav_edge_fn(b, cc, p), lb = nav_edge_fn(cc, a, p), lc = nav_edge_fn(a, b, p);
  const double xs = (la * a[0] + lb * b[0] + lc * cc[0]) / (la + lb + lc);
  if (xs > p[0]) c->w += s > 0 ? 1 : -1;
  return 0;
}

int nav_geom_mesh_winding(const nav_geom_mesh *m, const double x[3]) {
  const double lo[3] = {x[0], x[1], x[2]}, hi[3] = {HUGE_VAL, x[1], x[2]};
  nav_mesh_wind c = {m, x, 0};
  nav_geom_bvh_visit(&m->bvh, lo, hi, nav_mesh_wind_tri, &c);
  return c.w;
}

int nav_geom_mesh_inside(const nav_geom_mesh *m, const double x[3]) { return nav_geom_mesh_winding(m, x) != 0; }

/* ---- samples ------------------------------------------------------------------------------------------- */

nav_err nav_geom_mesh_sample(const nav_geom_mesh *m, double h, int *n, double **xyz, double **normal, double **w,
                             char *msg, size_t size) {
  *n = 0, *xyz = *normal = *w = NULL;
  if (!(h > 0) || !isfinite(h)) return nav_geom_fail(NAV_ERR_INPUT, msg, size, "sample spacing %g: must be > 0", h);
  double total = 0;
  int *cuts = malloc((size_t)m->nt * sizeof *cuts);
  if (!cuts) return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "out of memory (%d triangles)", m->nt);
  for (int t = 0; t < m->nt; t++) {
    const int *T = m->tri + 3 * t;
    double e2 = 0;
    for (int k = 0; k < 3; k++) {
      double e[3];
      nav_sub(m->v + 3 * T[(k + 1) % 3], m->v + 3 * T[k], e);
      e2 = fmax(e2, nav_dot(e, e));
    }
    const double k = fmax(1, ceil(sqrt(e2) / h));
    total += k * k;
    cuts[t] = total > (1 << 28) ? 0 : (int)k;
  }
  if (total > (1 << 28)) {
    free(cuts);
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "sample spacing %g: %.3g samples, more than 2^28", h, total);
  }
  const int ns = (int)total;
  *xyz = malloc((size_t)ns * 3 * sizeof **xyz), *normal = malloc((size_t)ns * 3 * sizeof **normal);
  *w = malloc((size_t)ns * sizeof **w);
  if (!*xyz || !*normal || !*w) {
    free(*xyz), free(*normal), free(*w), free(cuts);
    *xyz = *normal = *w = NULL;
    return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "out of memory (%d samples)", ns);
  }
  int s = 0;
  for (int t = 0; t < m->nt; t++) {
    const int *T = m->tri + 3 * t, k = cuts[t];
    const double *a = m->v + 3 * T[0];
    double ab[3], ac[3], c[3];
    nav_sub(m->v + 3 * T[1], a, ab);
    nav_sub(m->v + 3 * T[2], a, ac);
    nav_cross(ab, ac, c);
    const double area = 0.5 * sqrt(nav_dot(c, c)) / ((double)k * k);
    /* the small triangles of the lattice a + (i ab + j ac) / k: k(k+1)/2 upright ones, centroid (i + 1/3,
       j + 1/3), and k(k-1)/2 upside-down ones, centroid (i + 2/3, j + 2/3) */
    for (int up = 1; up >= 0; up--)
      for (int i = 0; i < k; i++)
        for (int j = 0; i + j < k - (up ? 0 : 1); j++, s++) {
          const double f = up ? 1.0 / 3 : 2.0 / 3, u = (i + f) / k, v = (j + f) / k;
          for (int d = 0; d < 3; d++) {
            (*xyz)[3 * s + d] = a[d] + u * ab[d] + v * ac[d];
            (*normal)[3 * s + d] = m->fn[3 * t + d];
          }
          (*w)[s] = area;
        }
  }
  free(cuts);
  *n = ns;
  return NAV_OK;
}
