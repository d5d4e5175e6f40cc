/* Closed triangulated surfaces of `stl` bodies: ASCII and binary STL reading, welding and validation
 * (contracts and the file format in nav_geom.h; the queries are in nav_geom_mesh.c).
 *
 * Welding: corners closer than tol = NAV_GEOM_WELD_TOL * diagonal (max norm) are one vertex (cells of size
 * tol sorted; the corners of a cell are one vertex, the distinct positions of neighbouring cells compared;
 * union-find; at most 64 distinct positions per cell). Closed: each undirected edge of the welded mesh
 * belongs to exactly two triangles, which run along it in opposite directions. Each connected component
 * (triangles joined by edges) is a closed surface of volume V = sum (a-o).((b-o)x(c-o)) / 6 (o: the box
 * centre); a component with V < 0 is turned outward (all its triangles flipped): the body is the union of
 * the solids that the components enclose (a void inside a solid cannot be described). Self-intersection:
 * two triangles that share no vertex may not meet (an edge of one crossing or touching the other,
 * orientation tests; in one plane, 2D edge crossings and corners inside), checked for the pairs whose boxes
 * overlap (the hierarchy); triangles with a common vertex are not compared. Normals: the face normals, the
 * edge pseudonormals (the sum of the two face normals of an edge) and the vertex pseudonormals (the face
 * normals at a vertex weighted by the corner angles; Baerentzen & Aanaes 2005). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/bodies/nav_geom.h"
#include "physics/bodies/nav_geom_bvh.h"
#include "physics/bodies/nav_geom_impl.h"

#define NAV_GEOM_MAX_TRIANGLES (1 << 24)

/* ---- where a triangle came from, for messages ------------------------------------------------------ */

typedef struct nav_mesh_src {
  const char *name;
  const int *line; /* ASCII: the line of each facet; NULL otherwise */
  int binary;      /* binary STL: name the byte offset */
} nav_mesh_src;

static const char *nav_where(const nav_mesh_src *s, int t, char *buf, size_t n) {
  if (s->line)
    snprintf(buf, n, "%s:%d", s->name, s->line[t]);
  else if (s->binary)
    snprintf(buf, n, "%s: triangle %d (byte %lld)", s->name, t + 1, 84 + 50 * (long long)t);
  else
    snprintf(buf, n, "%s: triangle %d", s->name, t + 1);
  return buf;
}

/* ---- welding ---------------------------------------------------------------------------------------- */

typedef struct nav_wkey {
  int64_t k[3]; /* the cell of the corner */
  double x[3];  /* the corner */
  int c;        /* its index */
} nav_wkey;

static int nav_key_cmp(const int64_t *p, const int64_t *q) {
  for (int d = 0; d < 3; d++)
    if (p[d] != q[d]) return p[d] < q[d] ? -1 : 1;
  return 0;
}
static int nav_same_point(const double *p, const double *q) { return p[0] == q[0] && p[1] == q[1] && p[2] == q[2]; }
/* by cell, then by position (equal corners side by side), then by index */
static int nav_wkey_cmp(const void *a, const void *b) {
  const nav_wkey *p = a, *q = b;
  const int r = nav_key_cmp(p->k, q->k);
  if (r) return r;
  for (int d = 0; d < 3; d++)
    if (p->x[d] != q->x[d]) return p->x[d] < q->x[d] ? -1 : 1;
  return (p->c > q->c) - (p->c < q->c);
}
static int nav_find(int *parent, int i) {
  while (parent[i] != i)
    parent[i] = parent[parent[i]], i = parent[i];
  return i;
}
static void nav_union(int *parent, int a, int b) {
  const int r1 = nav_find(parent, a), r2 = nav_find(parent, b);
  if (r1 != r2) parent[r1 > r2 ? r1 : r2] = r1 < r2 ? r1 : r2; /* the root: the smallest corner */
}

#define NAV_WELD_MAX_DISTINCT 64 /* distinct positions in one welding cell */

/* id[c] <- the welded vertex of corner c (0..*nv-1, numbered by first appearance). Cells of size tol: the
 * corners of one cell are within tol of each other (one vertex); two neighbouring cells are one vertex when
 * some pair of their distinct positions is within tol. More than NAV_WELD_MAX_DISTINCT distinct positions in
 * one cell (a surface far too fine for its extent, or an outlier coordinate that inflates the box) is refused
 * with *crowded = a corner of that cell, which also bounds the work by 26 * 64 comparisons per position. */
static nav_err nav_mesh_weld(const double *x, int m, const double lo[3], double tol, int *id, int *nv, int *crowded) {
  nav_wkey *w = malloc((size_t)m * sizeof *w);
  int *parent = malloc((size_t)m * sizeof *parent), *cell = malloc((size_t)(m + 1) * sizeof *cell);
  nav_err err = NAV_OK;
  *crowded = -1;
  if (!w || !parent || !cell) {
    err = NAV_ERR_MEMORY;
    goto done;
  }
  for (int c = 0; c < m; c++) {
    w[c].c = c, parent[c] = c;
    for (int d = 0; d < 3; d++) {
      w[c].x[d] = x[3 * c + d];
      w[c].k[d] = (int64_t)floor((x[3 * c + d] - lo[d]) / tol);
    }
  }
  qsort(w, (size_t)m, sizeof *w, nav_wkey_cmp);
  /* the cells: cell[i] .. cell[i + 1] - 1 in w; one vertex each */
  int ncell = 0;
  for (int s = 0; s < m; s++) {
    if (s > 0 && !nav_key_cmp(w[s].k, w[s - 1].k)) {
      nav_union(parent, w[cell[ncell - 1]].c, w[s].c);
      continue;
    }
    cell[ncell++] = s;
  }
  cell[ncell] = m;
  for (int i = 0; i < ncell; i++) {
    int distinct = 0;
    for (int s = cell[i]; s < cell[i + 1]; s++)
      distinct += s == cell[i] || !nav_same_point(w[s].x, w[s - 1].x);
    if (distinct > NAV_WELD_MAX_DISTINCT) {
      *crowded = w[cell[i]].c;
      err = NAV_ERR_INPUT;
      goto done;
    }
  }
  /* neighbouring cells: the 13 that sort after this one suffice (the relation is symmetric) */
  for (int i = 0; i < ncell; i++) {
    const nav_wkey *ci = w + cell[i];
    for (int nb = 14; nb < 27; nb++) {
      const int64_t k[3] = {ci->k[0] + nb / 9 - 1, ci->k[1] + (nb / 3) % 3 - 1, ci->k[2] + nb % 3 - 1};
      int a = i + 1, b = ncell; /* the cell k, if any, sorts after cell i */
      while (a < b) {
        const int h = a + (b - a) / 2;
        if (nav_key_cmp(w[cell[h]].k, k) < 0)
          a = h + 1;
        else
          b = h;
      }
      if (a >= ncell || nav_key_cmp(w[cell[a]].k, k) != 0) continue;
      int joined = 0;
      for (int s = cell[i]; s < cell[i + 1] && !joined; s++) {
        if (s > cell[i] && nav_same_point(w[s].x, w[s - 1].x)) continue;
        for (int e = cell[a]; e < cell[a + 1] && !joined; e++) {
          if (e > cell[a] && nav_same_point(w[e].x, w[e - 1].x)) continue;
          if (fabs(w[e].x[0] - w[s].x[0]) <= tol && fabs(w[e].x[1] - w[s].x[1]) <= tol &&
              fabs(w[e].x[2] - w[s].x[2]) <= tol)
            nav_union(parent, w[s].c, w[e].c), joined = 1;
        }
      }
    }
  }
  int n = 0;
  for (int c = 0; c < m; c++) {
    const int r = nav_find(parent, c);
    id[c] = r == c ? n++ : id[r];
  }
  *nv = n;
done:
  free(w), free(parent), free(cell);
  return err;
}

/* ---- validation and build ------------------------------------------------------------------------------ */

typedef struct nav_edge {
  int a, b; /* a < b */
  int t, k; /* triangle, edge k of it */
  int fwd;  /* the triangle runs a -> b */
} nav_edge;

static int nav_edge_cmp(const void *p, const void *q) {
  const nav_edge *e = p, *f = q;
  if (e->a != f->a) return e->a < f->a ? -1 : 1;
  if (e->b != f->b) return e->b < f->b ? -1 : 1;
  return e->t != f->t ? (e->t < f->t ? -1 : 1) : e->k - f->k;
}

/* ---- self-intersection ------------------------------------------------------------------------------ */

/* (b - a) x (c - a) . (d - a): six times the signed volume of the tetrahedron abcd */
static double nav_orient3(const double *a, const double *b, const double *c, const double *d) {
  double ab[3], ac[3], ad[3], n[3];
  nav_sub(b, a, ab);
  nav_sub(c, a, ac);
  nav_sub(d, a, ad);
  nav_cross(ab, ac, n);
  return nav_dot(n, ad);
}

/* 1 when the segment pq meets the triangle abc (closed sets) and is not in its plane; the point in at */
static int nav_seg_tri(const double *p, const double *q, const double *a, const double *b, const double *c,
                       double at[3]) {
  const double sp = nav_orient3(a, b, c, p), sq = nav_orient3(a, b, c, q);
  if ((sp > 0 && sq > 0) || (sp < 0 && sq < 0) || (sp == 0 && sq == 0)) return 0;
  /* the line pq passes through the triangle when it turns the same way about its three edges */
  const double s[3] = {nav_orient3(p, q, a, b), nav_orient3(p, q, b, c), nav_orient3(p, q, c, a)};
  const int pos = s[0] > 0 || s[1] > 0 || s[2] > 0, neg = s[0] < 0 || s[1] < 0 || s[2] < 0;
  if ((pos && neg) || (!pos && !neg)) return 0;
  const double t = sp / (sp - sq);
  for (int d = 0; d < 3; d++)
    at[d] = p[d] + t * (q[d] - p[d]);
  return 1;
}

/* 2D helpers for two triangles in one plane, projected along the axis k of the largest normal component */
static double nav_orient2(const double *a, const double *b, const double *c, int i, int j) {
  return (b[i] - a[i]) * (c[j] - a[j]) - (b[j] - a[j]) * (c[i] - a[i]);
}
static int nav_in_tri2(const double *p, const double *a, const double *b, const double *c, int i, int j) {
  const double s1 = nav_orient2(a, b, p, i, j), s2 = nav_orient2(b, c, p, i, j), s3 = nav_orient2(c, a, p, i, j);
  return !((s1 < 0 || s2 < 0 || s3 < 0) && (s1 > 0 || s2 > 0 || s3 > 0));
}
static int nav_coplanar_overlap(const double *const T[3], const double *const U[3], const double *n, double at[3]) {
  const int k = fabs(n[0]) > fabs(n[1]) ? (fabs(n[0]) > fabs(n[2]) ? 0 : 2) : (fabs(n[1]) > fabs(n[2]) ? 1 : 2);
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  for (int e = 0; e < 3; e++)
    for (int f = 0; f < 3; f++) {
      const double *a = T[e], *b = T[(e + 1) % 3], *c = U[f], *d = U[(f + 1) % 3];
      const double d1 = nav_orient2(c, d, a, i, j), d2 = nav_orient2(c, d, b, i, j);
      const double d3 = nav_orient2(a, b, c, i, j), d4 = nav_orient2(a, b, d, i, j);
      if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
        memcpy(at, a, 3 * sizeof *at);
        return 1;
      }
    }
  for (int e = 0; e < 3; e++) {
    if (nav_in_tri2(T[e], U[0], U[1], U[2], i, j)) return memcpy(at, T[e], 3 * sizeof *at), 1;
    if (nav_in_tri2(U[e], T[0], T[1], T[2], i, j)) return memcpy(at, U[e], 3 * sizeof *at), 1;
  }
  return 0;
}

typedef struct nav_mesh_cross {
  const nav_geom_mesh *m;
  int t, u; /* the triangle checked; the one found crossing it */
  double at[3];
} nav_mesh_cross;

/* Visit callback: 1 when triangle u (> t, sharing no vertex with t) meets triangle t. */
static int nav_mesh_cross_visit(void *ctx, int u) {
  nav_mesh_cross *c = ctx;
  const int *A = c->m->tri + 3 * c->t, *B = c->m->tri + 3 * u;
  if (u <= c->t) return 0;
  for (int k = 0; k < 3; k++)
    if (B[k] == A[0] || B[k] == A[1] || B[k] == A[2]) return 0;
  const double *v = c->m->v;
  const double *const T[3] = {v + 3 * A[0], v + 3 * A[1], v + 3 * A[2]};
  const double *const U[3] = {v + 3 * B[0], v + 3 * B[1], v + 3 * B[2]};
  if (nav_orient3(T[0], T[1], T[2], U[0]) == 0 && nav_orient3(T[0], T[1], T[2], U[1]) == 0 &&
      nav_orient3(T[0], T[1], T[2], U[2]) == 0) {
    double e1[3], e2[3], n[3];
    nav_sub(T[1], T[0], e1);
    nav_sub(T[2], T[0], e2);
    nav_cross(e1, e2, n);
    if (!nav_coplanar_overlap(T, U, n, c->at)) return 0;
    c->u = u;
    return 1;
  }
  for (int k = 0; k < 3; k++)
    if (nav_seg_tri(T[k], T[(k + 1) % 3], U[0], U[1], U[2], c->at) ||
        nav_seg_tri(U[k], U[(k + 1) % 3], T[0], T[1], T[2], c->at)) {
      c->u = u;
      return 1;
    }
  return 0;
}

/* Validate the nt triangles raw[9 nt] and build the mesh. */
static nav_err nav_mesh_build(const double *raw, int nt, const nav_mesh_src *src, nav_geom_mesh **out, char *msg,
                              size_t size) {
  nav_err err = NAV_OK;
  nav_geom_mesh *m = NULL;
  int *id = NULL;
  nav_edge *edge = NULL;
  int *comp = NULL;
  double *box_lo = NULL, *box_hi = NULL, *cvol6 = NULL;
  char where[400], w2[400];
  const char *name = src->name;
  if (nt < 1) return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: no triangles", name);
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int c = 0; c < 3 * nt; c++)
    for (int d = 0; d < 3; d++)
      lo[d] = fmin(lo[d], raw[3 * c + d]), hi[d] = fmax(hi[d], raw[3 * c + d]);
  const double diag =
      sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
  if (!(diag > 0) || !isfinite(diag))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: the triangles span %s", name,
                         diag > 0 ? "more than the largest finite number" : "a single point");
  m = calloc(1, sizeof *m);
  id = malloc((size_t)nt * 3 * sizeof *id);
  if (!m || !id) goto nomem;
  int crowded;
  err = nav_mesh_weld(raw, 3 * nt, lo, NAV_GEOM_WELD_TOL * diag, id, &m->nv, &crowded);
  if (err == NAV_ERR_INPUT) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                        "%s: more than %d distinct corners within the welding distance (%g of the box diagonal %g) "
                        "of this triangle's corner (%.6g, %.6g, %.6g): triangles far too small for the extent of "
                        "the file (a stray coordinate?)",
                        nav_where(src, crowded / 3, where, sizeof where), NAV_WELD_MAX_DISTINCT, NAV_GEOM_WELD_TOL,
                        diag, raw[3 * crowded], raw[3 * crowded + 1], raw[3 * crowded + 2]);
    goto cleanup;
  }
  if (err != NAV_OK) goto nomem;
  m->nt = nt;
  m->v = malloc((size_t)m->nv * 3 * sizeof *m->v);
  m->tri = malloc((size_t)nt * 3 * sizeof *m->tri);
  m->fn = malloc((size_t)nt * 3 * sizeof *m->fn);
  m->en = malloc((size_t)nt * 9 * sizeof *m->en);
  m->vn = calloc((size_t)m->nv * 3, sizeof *m->vn);
  edge = malloc((size_t)nt * 3 * sizeof *edge);
  if (!m->v || !m->tri || !m->fn || !m->en || !m->vn || !edge) goto nomem;
  for (int c = 0; c < 3 * nt; c++) {
    m->tri[c] = id[c];
    for (int d = 0; d < 3; d++)
      m->v[3 * id[c] + d] = raw[3 * c + d]; /* the last corner of a class: any */
  }
  /* degenerate triangles */
  for (int t = 0; t < nt; t++) {
    const int *T = m->tri + 3 * t;
    if (T[0] == T[1] || T[1] == T[2] || T[2] == T[0]) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: degenerate triangle: two of its corners coincide",
                          nav_where(src, t, where, sizeof where));
      goto cleanup;
    }
    double e1[3], e2[3], e3[3], n[3];
    nav_sub(m->v + 3 * T[1], m->v + 3 * T[0], e1);
    nav_sub(m->v + 3 * T[2], m->v + 3 * T[0], e2);
    nav_sub(m->v + 3 * T[2], m->v + 3 * T[1], e3);
    nav_cross(e1, e2, n);
    const double emax2 = fmax(nav_dot(e1, e1), fmax(nav_dot(e2, e2), nav_dot(e3, e3)));
    if (!(sqrt(nav_dot(n, n)) > 1e-12 * emax2)) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: degenerate triangle: its corners are collinear",
                          nav_where(src, t, where, sizeof where));
      goto cleanup;
    }
    for (int k = 0; k < 3; k++) {
      const int a = T[k], b = T[(k + 1) % 3];
      edge[3 * t + k] = (nav_edge){a < b ? a : b, a < b ? b : a, t, k, a < b};
    }
  }
  /* closed: each edge in exactly two triangles, in opposite directions */
  qsort(edge, (size_t)nt * 3, sizeof *edge, nav_edge_cmp);
  for (int s = 0; s < 3 * nt;) {
    int e = s + 1;
    while (e < 3 * nt && edge[e].a == edge[s].a && edge[e].b == edge[s].b)
      e++;
    const double *A = m->v + 3 * edge[s].a, *B = m->v + 3 * edge[s].b;
    if (e - s != 2) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                          e - s == 1 ? "%s: not closed: the edge from (%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g) "
                                       "belongs to this triangle only (a hole in the surface)"
                                     : "%s: not closed: the edge from (%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g) "
                                       "belongs to %d triangles (not a closed 2-manifold)",
                          nav_where(src, edge[s].t, where, sizeof where), A[0], A[1], A[2], B[0], B[1], B[2], e - s);
      goto cleanup;
    }
    if (edge[s].fwd == edge[s + 1].fwd) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                          "%s: inconsistent orientation: this triangle and the one at %s run along the edge from "
                          "(%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g) in the same direction (flip one of them)",
                          nav_where(src, edge[s].t, where, sizeof where), nav_where(src, edge[s + 1].t, w2, sizeof w2),
                          A[0], A[1], A[2], B[0], B[1], B[2]);
      goto cleanup;
    }
    s = e;
  }
  /* the hierarchy of the triangles (their boxes do not change when a component is turned) */
  box_lo = malloc((size_t)nt * 3 * sizeof *box_lo);
  box_hi = malloc((size_t)nt * 3 * sizeof *box_hi);
  if (!box_lo || !box_hi) goto nomem;
  for (int t = 0; t < nt; t++)
    for (int d = 0; d < 3; d++) {
      box_lo[3 * t + d] = HUGE_VAL, box_hi[3 * t + d] = -HUGE_VAL;
      for (int k = 0; k < 3; k++) {
        box_lo[3 * t + d] = fmin(box_lo[3 * t + d], m->v[3 * m->tri[3 * t + k] + d]);
        box_hi[3 * t + d] = fmax(box_hi[3 * t + d], m->v[3 * m->tri[3 * t + k] + d]);
      }
    }
  if (nav_geom_bvh_build(&m->bvh, nt, box_lo, box_hi) != NAV_OK) goto nomem;
  /* no two triangles that share no vertex may meet (pairs whose boxes overlap) */
  nav_mesh_cross cr = {.m = m};
  for (cr.t = 0; cr.t < nt; cr.t++) {
    if (!nav_geom_bvh_visit(&m->bvh, box_lo + 3 * cr.t, box_hi + 3 * cr.t, nav_mesh_cross_visit, &cr)) continue;
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                        "%s: self-intersecting surface: this triangle and the one at %s meet at (%.6g, %.6g, %.6g)",
                        nav_where(src, cr.t, where, sizeof where), nav_where(src, cr.u, w2, sizeof w2), cr.at[0],
                        cr.at[1], cr.at[2]);
    goto cleanup;
  }
  /* connected components (triangles joined by their edges), the volume of each, each turned outward */
  comp = malloc((size_t)nt * sizeof *comp);
  cvol6 = calloc((size_t)nt, sizeof *cvol6);
  if (!comp || !cvol6) goto nomem;
  for (int t = 0; t < nt; t++)
    comp[t] = t;
  for (int s = 0; s < 3 * nt; s += 2) {
    const int r1 = nav_find(comp, edge[s].t), r2 = nav_find(comp, edge[s + 1].t);
    if (r1 != r2) comp[r1 > r2 ? r1 : r2] = r1 < r2 ? r1 : r2;
  }
  for (int t = 0; t < nt; t++)
    comp[t] = nav_find(comp, t); /* each triangle names its root directly */
  const double o[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
  for (int t = 0; t < nt; t++) {
    double a[3], b[3], c[3], bc[3];
    nav_sub(m->v + 3 * m->tri[3 * t], o, a);
    nav_sub(m->v + 3 * m->tri[3 * t + 1], o, b);
    nav_sub(m->v + 3 * m->tri[3 * t + 2], o, c);
    nav_cross(b, c, bc);
    cvol6[comp[t]] += nav_dot(a, bc);
  }
  m->volume = 0;
  for (int t = 0; t < nt; t++) {
    if (comp[t] != t) continue; /* the root (smallest triangle) of each component */
    if (!(fabs(cvol6[t]) / 6 > 1e-12 * diag * diag * diag)) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                          "%s: zero volume (%.3g): the closed surface of this triangle encloses no region",
                          nav_where(src, t, where, sizeof where), cvol6[t] / 6);
      goto cleanup;
    }
    m->volume += fabs(cvol6[t]) / 6;
  }
  for (int t = 0; t < nt; t++)
    if (cvol6[comp[t]] < 0) {
      const int s = m->tri[3 * t + 1];
      m->tri[3 * t + 1] = m->tri[3 * t + 2], m->tri[3 * t + 2] = s;
    }
  for (int d = 0; d < 3; d++)
    m->lo[d] = lo[d], m->hi[d] = hi[d];
  /* face normals, corner-angle-weighted vertex normals */
  for (int t = 0; t < nt; t++) {
    const int *T = m->tri + 3 * t;
    double e1[3], e2[3], *n = m->fn + 3 * t;
    nav_sub(m->v + 3 * T[1], m->v + 3 * T[0], e1);
    nav_sub(m->v + 3 * T[2], m->v + 3 * T[0], e2);
    nav_cross(e1, e2, n);
    nav_unit(n);
    for (int k = 0; k < 3; k++) {
      double u[3], w[3], x[3];
      nav_sub(m->v + 3 * T[(k + 1) % 3], m->v + 3 * T[k], u);
      nav_sub(m->v + 3 * T[(k + 2) % 3], m->v + 3 * T[k], w);
      nav_cross(u, w, x);
      const double angle = atan2(sqrt(nav_dot(x, x)), nav_dot(u, w));
      for (int d = 0; d < 3; d++)
        m->vn[3 * T[k] + d] += angle * n[d];
    }
  }
  for (int i = 0; i < m->nv; i++)
    nav_unit(m->vn + 3 * i);
  /* edge pseudonormals: the two triangles of each edge are neighbours in the sorted list */
  for (int s = 0; s < 3 * nt; s += 2) {
    const nav_edge *e = edge + s, *f = edge + s + 1;
    double n[3];
    for (int d = 0; d < 3; d++)
      n[d] = m->fn[3 * e->t + d] + m->fn[3 * f->t + d];
    nav_unit(n);
    for (int d = 0; d < 3; d++)
      m->en[9 * e->t + 3 * e->k + d] = m->en[9 * f->t + 3 * f->k + d] = n[d];
  }
  /* the edge list numbers the edges before the flip: corners (0, 1, 2) became (0, 2, 1), so the old
     edge 0 (0-1) is the new edge 2, the old 1 (1-2) the new 1, the old 2 (2-0) the new 0 */
  for (int t = 0; t < nt; t++)
    if (cvol6[comp[t]] < 0) {
      double *E = m->en + 9 * t;
      for (int d = 0; d < 3; d++) {
        const double s = E[d];
        E[d] = E[6 + d], E[6 + d] = s;
      }
    }
  *out = m;
  m = NULL;
  goto cleanup;
nomem:
  err = nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory (%d triangles)", name, nt);
cleanup:
  nav_geom_mesh_destroy(m);
  free(id);
  free(edge);
  free(comp);
  free(cvol6);
  free(box_lo);
  free(box_hi);
  return err;
}

nav_err nav_geom_mesh_create(const double *xyz, int n, const char *name, nav_geom_mesh **out, char *msg, size_t size) {
  *out = NULL;
  if (n > NAV_GEOM_MAX_TRIANGLES)
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: %d triangles: at most %d", name, n, NAV_GEOM_MAX_TRIANGLES);
  const nav_mesh_src src = {name, NULL, 0};
  for (int i = 0; i < 9 * n; i++)
    if (!isfinite(xyz[i]))
      return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: triangle %d: a corner is not finite", name, i / 9 + 1);
  return nav_mesh_build(xyz, n, &src, out, msg, size);
}

/* ---- STL: binary --------------------------------------------------------------------------------------- */

static uint32_t nav_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static nav_err nav_stl_binary(const unsigned char *data, int nt, const char *name, nav_geom_mesh **out, char *msg,
                              size_t size) {
  double *raw = malloc((size_t)nt * 9 * sizeof *raw);
  if (!raw) return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory (%d triangles)", name, nt);
  const nav_mesh_src src = {name, NULL, 1};
  for (int t = 0; t < nt; t++) {
    const unsigned char *rec = data + 84 + 50 * (size_t)t + 12; /* skip the normal */
    for (int c = 0; c < 9; c++) {
      const uint32_t bits = nav_le32(rec + 4 * c);
      float f;
      memcpy(&f, &bits, sizeof f);
      if (!isfinite(f)) {
        char where[400];
        free(raw);
        return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: a corner coordinate is not finite",
                             nav_where(&src, t, where, sizeof where));
      }
      raw[9 * t + c] = f;
    }
  }
  const nav_err err = nav_mesh_build(raw, nt, &src, out, msg, size);
  free(raw);
  return err;
}

/* ---- STL: ASCII ------------------------------------------------------------------------------------------ */

typedef struct nav_lex {
  const char *s;
  size_t len, pos;
  int line; /* line of the current position */
  const char *tok;
  size_t tok_len;
  int tok_line;
} nav_lex;

static int nav_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

/* Next blank-separated token; 0 at the end of the text. */
static int nav_lex_next(nav_lex *x) {
  while (x->pos < x->len && nav_space(x->s[x->pos]))
    x->line += x->s[x->pos++] == '\n';
  if (x->pos >= x->len) return 0;
  x->tok = x->s + x->pos, x->tok_line = x->line;
  while (x->pos < x->len && !nav_space(x->s[x->pos]))
    x->pos++;
  x->tok_len = (size_t)(x->s + x->pos - x->tok);
  return 1;
}

static void nav_lex_skip_line(nav_lex *x) {
  while (x->pos < x->len && x->s[x->pos] != '\n')
    x->pos++;
}

static int nav_lex_is(const nav_lex *x, const char *word) {
  const size_t n = strlen(word);
  if (x->tok_len != n) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = x->tok[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != word[i]) return 0;
  }
  return 1;
}

/* The current token for messages (at most 24 characters, non-printable ones as '?'). */
static const char *nav_lex_show(const nav_lex *x, char buf[32]) {
  size_t k = 0;
  for (; k < x->tok_len && k < 24; k++)
    buf[k] = (x->tok[k] >= 32 && x->tok[k] < 127) ? x->tok[k] : '?';
  buf[k] = '\0';
  return buf;
}

/* Expect the keyword word as the next token; on failure set msg. */
static nav_err nav_lex_expect(nav_lex *x, const char *word, const char *name, char *msg, size_t size) {
  char tok[32];
  if (!nav_lex_next(x))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: the file ends where '%s' should come (truncated?)", name,
                         x->line, word);
  if (!nav_lex_is(x, word))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: expected '%s', found '%s'", name, x->tok_line, word,
                         nav_lex_show(x, tok));
  return NAV_OK;
}

static nav_err nav_lex_number(nav_lex *x, double *v, const char *name, char *msg, size_t size) {
  char buf[72], tok[32];
  if (!nav_lex_next(x))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: the file ends where a number should come (truncated?)", name,
                         x->line);
  char *end = buf;
  if (x->tok_len < sizeof buf) {
    memcpy(buf, x->tok, x->tok_len);
    buf[x->tok_len] = '\0';
    *v = strtod(buf, &end);
  }
  if (x->tok_len >= sizeof buf || end != buf + x->tok_len || end == buf)
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: bad number '%s'", name, x->tok_line, nav_lex_show(x, tok));
  if (!isfinite(*v))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: '%s' is not a finite number", name, x->tok_line,
                         nav_lex_show(x, tok));
  return NAV_OK;
}

static nav_err nav_stl_ascii(const char *text, size_t len, const char *name, nav_geom_mesh **out, char *msg,
                             size_t size) {
  nav_lex x = {text, len, 0, 1, NULL, 0, 0};
  nav_err err = NAV_OK;
  double *raw = NULL;
  int *line = NULL, nt = 0, cap = 0;
  char tok[32];
  int solids = 0;
  while (nav_lex_next(&x)) {
    if (!nav_lex_is(&x, "solid")) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: expected 'solid', found '%s'", name, x.tok_line,
                          nav_lex_show(&x, tok));
      goto cleanup;
    }
    solids++;
    nav_lex_skip_line(&x); /* the solid's name */
    for (;;) {
      if (!nav_lex_next(&x)) {
        err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: the file ends before 'endsolid' (truncated?)", name,
                            x.line);
        goto cleanup;
      }
      if (nav_lex_is(&x, "endsolid")) {
        nav_lex_skip_line(&x);
        break;
      }
      if (!nav_lex_is(&x, "facet")) {
        err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: expected 'facet' or 'endsolid', found '%s'", name,
                            x.tok_line, nav_lex_show(&x, tok));
        goto cleanup;
      }
      const int facet_line = x.tok_line;
      double v[12];
      if ((err = nav_lex_expect(&x, "normal", name, msg, size)) != NAV_OK) goto cleanup;
      for (int c = 0; c < 3; c++)
        if ((err = nav_lex_number(&x, &v[9 + c], name, msg, size)) != NAV_OK) goto cleanup;
      if ((err = nav_lex_expect(&x, "outer", name, msg, size)) != NAV_OK) goto cleanup;
      if ((err = nav_lex_expect(&x, "loop", name, msg, size)) != NAV_OK) goto cleanup;
      for (int k = 0; k < 3; k++) {
        if ((err = nav_lex_expect(&x, "vertex", name, msg, size)) != NAV_OK) goto cleanup;
        for (int c = 0; c < 3; c++)
          if ((err = nav_lex_number(&x, &v[3 * k + c], name, msg, size)) != NAV_OK) goto cleanup;
      }
      if ((err = nav_lex_expect(&x, "endloop", name, msg, size)) != NAV_OK) goto cleanup;
      if ((err = nav_lex_expect(&x, "endfacet", name, msg, size)) != NAV_OK) goto cleanup;
      if (nt == cap) {
        if (cap >= NAV_GEOM_MAX_TRIANGLES) {
          err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: more than %d triangles", name, facet_line,
                              NAV_GEOM_MAX_TRIANGLES);
          goto cleanup;
        }
        cap = cap ? 2 * cap : 256;
        double *g = realloc(raw, (size_t)cap * 9 * sizeof *raw);
        if (g) raw = g;
        int *gl = realloc(line, (size_t)cap * sizeof *line);
        if (gl) line = gl;
        if (!g || !gl) {
          err = nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory (%d triangles)", name, nt);
          goto cleanup;
        }
      }
      memcpy(raw + 9 * nt, v, 9 * sizeof *v);
      line[nt++] = facet_line;
    }
  }
  if (!solids) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: empty file", name);
    goto cleanup;
  }
  const nav_mesh_src src = {name, line, 0};
  err = nav_mesh_build(raw, nt, &src, out, msg, size);
cleanup:
  free(raw);
  free(line);
  return err;
}

nav_err nav_geom_mesh_parse(const unsigned char *data, size_t len, const char *name, nav_geom_mesh **out, char *msg,
                            size_t size) {
  *out = NULL;
  if (len >= 84) {
    const uint64_t n = nav_le32(data + 80);
    if (84 + 50 * n == (uint64_t)len) {
      if (n > NAV_GEOM_MAX_TRIANGLES)
        return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: binary STL of %llu triangles: at most %d", name,
                             (unsigned long long)n, NAV_GEOM_MAX_TRIANGLES);
      if (n == 0) return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: binary STL without triangles", name);
      return nav_stl_binary(data, (int)n, name, out, msg, size);
    }
  }
  const size_t bom = len >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF ? 3 : 0; /* UTF-8 mark */
  size_t i = bom;
  while (i < len && nav_space((char)data[i]))
    i++;
  /* ASCII: "solid" first and no NUL byte (a binary file, even one whose header starts with "solid", has
     zero bytes: in its count, its attribute bytes, its coordinates) */
  int solid = len - i >= 5;
  for (int k = 0; solid && k < 5; k++)
    solid = (data[i + k] | 0x20) == "solid"[k]; /* any case */
  if (solid && (len - i == 5 || nav_space((char)data[i + 5])) && !memchr(data, 0, len))
    return nav_stl_ascii((const char *)data + bom, len - bom, name, out, msg, size);
  if (len < 84)
    return nav_geom_fail(NAV_ERR_INPUT, msg, size,
                         "%s: not an STL file: %zu bytes, less than a binary header (84), and not an ASCII file "
                         "starting with 'solid' (truncated?)",
                         name, len);
  const uint64_t n = nav_le32(data + 80);
  return nav_geom_fail(NAV_ERR_INPUT, msg, size,
                       "%s: a binary STL of %llu triangles has 84 + 50 x %llu = %llu bytes, this file has %zu "
                       "(truncated, or not an STL file)",
                       name, (unsigned long long)n, (unsigned long long)n, (unsigned long long)(84 + 50 * n), len);
}

nav_err nav_geom_mesh_read(const char *path, nav_geom_mesh **out, char *msg, size_t size) {
  char *data;
  size_t len;
  *out = NULL;
  nav_err err = nav_geom_slurp(path, &data, &len, msg, size);
  if (err != NAV_OK) return err;
  err = nav_geom_mesh_parse((const unsigned char *)data, len, path, out, msg, size);
  free(data);
  return err;
}
