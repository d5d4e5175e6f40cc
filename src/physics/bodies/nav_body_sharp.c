/* Immersed bodies: the sharp-interface direct forcing (method in nav_body.h; the update in nav_point_ibm.h).
 *
 * Set-up, on the host of each rank, per component c:
 *   1. phi and the nearest body at every c-face of the block, ghosts included (the signed distances of the shapes);
 *   2. each owned face with phi < 0 is solid: u_f = V(x_f), the rigid velocity of its body there;
 *   3. each owned face with phi >= 0 and a solid neighbour c-face (+-1 along some direction) is a forcing face:
 *        n = grad phi (central differences), s = min_d gap_d / |n_d| (gap_d: to the next c-face along d on n's side),
 *        x_ip = x_f + s n lies on the plane of c-faces one step from the face along d* (the minimising d), inside
 *        the plane's cell of 2^(dim-1) faces around it (linear weights w_q); with r = phi / (phi + s),
 *          u_f = (1 - r) V(x_f - phi n) + r sum_q w_q u_q,
 *        the linear profile through V at the surface and u_ip at distance phi + s from it (Balaras 2004: the
 *        normal's crossing of the grid line, or plane in 3D, as the image point). A solid source q counts with
 *        its rigid velocity (in the constant part).
 * Why this image point: its sources lie within one face of the target along every direction, so they are in the
 * block or its one ghost layer for any rank split (the stencil is a function of the global grid alone, and 4
 * ranks give the answer of 1); the target itself is never a source (its plane is one step away); and along the
 * normal the image is as close as the grid allows, where the linear profile is most accurate. Sources may be
 * other forcing faces: the update is Jacobi (all values read before any is written), so its result does not
 * depend on the order of the faces or on the rank split; at a steady state it is the coupled reconstruction.
 * The interpolation is of second order, so the no-slip error is (docs/design.md has the measured orders).
 *
 * The enclosed cells (nav_body_sharp_gauge): a cell whose faces are all forced (inside a body, or on its surface)
 * has no free face, so its pressure reaches forced faces only. The forcing sets them to r + g grad p^n (r the
 * reconstruction) and the projection leaves r - g grad (p^{n+1} - p^n); the values r do not conserve mass cell by
 * cell, so p^{n+1} - p^n at such a cell is the multiplier that makes it divergence free, about the same every step of
 * a steady flow: p grew linearly there without bound (the steady cylinder Re 40: max|p| 597 at t = 61, max|div u|
 * 4e-11 from the cancellation of large g grad p terms). p <- 0 at the enclosed cells before each forcing keeps the
 * multiplier of one step there. It changes no velocity but at the faces whose sources border an enclosed cell: with
 * psi = the pressure removed, u* after the forcing changes by g grad psi, nonzero only on the faces of enclosed cells,
 * all of them forced, and the projection removes a discrete gradient. Nor the force: its pressure part telescopes
 * along each grid line of forced faces to the pressures of cells with a free face. (The same cylinder: Cd, L_w/D and
 * the no-slip errors the same to every printed digit, max|p| 0.566, max|div u| 5e-14.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_ibm.h"
#include "core/nav_error.h"
#include "grid/nav_boundary.h"
#include "physics/bodies/nav_body.h"

/* One forced face as built on the host. */
typedef struct nav_sharp_face {
  nav_idx target, src[NAV_IBM_NSRC];
  int owner;
  double weight[NAV_IBM_NSRC], value, volume;
} nav_sharp_face;

/* One set of stencils in backend memory, with room for cap of them. */
typedef struct nav_sharp_set {
  nav_ibm_stencils s;
  nav_idx cap;
} nav_sharp_set;

typedef struct nav_sharp {
  nav_sharp_set faces;  /* the forced faces */
  nav_sharp_set cells;  /* the enclosed cells: p <- 0 (component 0 only; the file's header) */
  nav_sharp_face *face; /* host: the faces being built (capacity hcap) */
  nav_idx hcap;
  nav_sharp_face *cell; /* host: the enclosed cells being built (capacity ccap) */
  nav_idx ccap;
  void *pack;           /* host: one array of a set at a time, for the upload (pack_bytes) */
  size_t pack_bytes;
  double *phi;          /* host, one block array: phi of the c-faces of the block, ghosts included */
  int *near;            /* host, one block array: the nearest body (-1: none near) */
  unsigned char *forced; /* host, one block array: at the owned cells, how many of their faces are forced */
} nav_sharp;

/* Coordinate along d of the c-face with global index g along d (-1 .. n[d]). */
static double nav_sharp_coord(const nav_flow_view *v, int c, int d, int g) {
  int gg[3] = {0, 0, 0};
  double x[3];
  gg[d] = g;
  nav_body_face_x(v, c, gg, x);
  return x[d];
}

/* phi of the c-face with global index g and its nearest body (*near; -1 and HUGE_VAL far from every body). */
static double nav_sharp_phi(const nav_body *B, const nav_flow_view *v, int c, const int g[3], int *near) {
  double x[3], margin = 0, best = HUGE_VAL;
  nav_body_face_x(v, c, g, x);
  for (int d = 0; d < v->dim; d++) margin += 3 * v->w[d][g[d]]; /* forcing faces and their sources */
  *near = -1;
  for (int n = 0; n < B->n; n++) {
    if (!nav_body_near(&B->b[n], v->dim, x, margin)) continue;
    const double phi = nav_body_distance(&B->b[n], x);
    if (phi < best) {
      best = phi;
      *near = n;
    }
  }
  return best;
}

/* phi and the nearest body at every c-face of the block (ghosts included). */
static void nav_sharp_distances(nav_body *B, const nav_flow_view *v, int c) {
  nav_sharp *S = B->sharp;
  const nav_box *b = v->box;
  const int k0 = v->dim == 3 ? -1 : 0, k1 = v->dim == 3 ? b->n[2] : 0;
  for (int k = k0; k <= k1; k++)
    for (int j = -1; j <= b->n[1]; j++)
      for (int i = -1; i <= b->n[0]; i++) {
        const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
        const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
        S->phi[p] = nav_sharp_phi(B, v, c, g, &S->near[p]);
      }
}

/* phi of the c-face at local index l: the stored value within the ghost layer; past it (only l[c] = n[c] + 1, the
 * neighbour of an owned cell's high face) from the shapes, or HUGE_VAL past the domain's last face. */
static double nav_sharp_phi_local(const nav_body *B, const nav_flow_view *v, int c, const int l[3]) {
  const nav_box *b = v->box;
  if (l[c] <= b->n[c]) return B->sharp->phi[b->off + l[0] * b->st[0] + l[1] * b->st[1] + l[2] * b->st[2]];
  const int g[3] = {l[0] + b->g0[0], l[1] + b->g0[1], l[2] + b->g0[2]};
  int near;
  return g[c] > v->n[c] ? HUGE_VAL : nav_sharp_phi(B, v, c, g, &near);
}

/* Whether the c-face at local index l (an owned face, or an owned cell's high face) is forced: solid, or a solid
 * neighbour c-face along some direction (a forcing face). */
static int nav_sharp_forced(const nav_body *B, const nav_flow_view *v, int c, const int l[3]) {
  if (nav_sharp_phi_local(B, v, c, l) < 0) return 1;
  for (int d = 0; d < v->dim; d++)
    for (int s = -1; s <= 1; s += 2) {
      int m[3] = {l[0], l[1], l[2]};
      m[d] += s;
      if (nav_sharp_phi_local(B, v, c, m) < 0) return 1;
    }
  return 0;
}

/* The stencil of the forcing face of component c at global index g (local point p): see the file's header. */
static nav_err nav_sharp_stencil(const nav_body *B, const nav_flow_view *v, int c, const int g[3], nav_idx p,
                                 nav_sharp_face *e) {
  const nav_sharp *S = B->sharp;
  const nav_box *b = v->box;
  const nav_body_one *o = &B->b[S->near[p]];
  const double phi = S->phi[p];
  double x[3], n[3], hmin = HUGE_VAL;
  nav_body_face_x(v, c, g, x);
  for (int d = 0; d < v->dim; d++) hmin = fmin(hmin, v->w[d][g[d]]);
  if (nav_body_normal(o, v->dim, x, 1e-6 * hmin, n) == 0) { /* no direction (a point of the medial axis): u = V */
    e->value = nav_body_rigid_velocity(o, c, x);
    return NAV_OK;
  }
  /* s = min_d gap_d / |n_d|: the distance along n to the first plane of c-faces, normal to d* */
  int dstar = -1, sgn[3] = {0, 0, 0};
  double s = HUGE_VAL;
  for (int d = 0; d < v->dim; d++) {
    if (n[d] == 0) continue;
    sgn[d] = n[d] > 0 ? 1 : -1;
    const double sd = fabs(nav_sharp_coord(v, c, d, g[d] + sgn[d]) - x[d]) / fabs(n[d]);
    if (sd < s) {
      s = sd;
      dstar = d;
    }
  }
  /* the cell of the plane around x_ip: lower index lo[d] and the fraction t[d] toward lo[d] + 1 */
  int lo[3] = {g[0], g[1], g[2]};
  double t[3] = {0, 0, 0};
  lo[dstar] = g[dstar] + sgn[dstar];
  for (int d = 0; d < v->dim; d++) {
    if (d == dstar || sgn[d] == 0) continue;
    lo[d] = sgn[d] > 0 ? g[d] : g[d] - 1;
    const double a = nav_sharp_coord(v, c, d, lo[d]), z = nav_sharp_coord(v, c, d, lo[d] + 1);
    t[d] = fmin(1, fmax(0, (x[d] + s * n[d] - a) / (z - a)));
  }
  const double r = phi / (phi + s); /* u_f = (1 - r) V_s + r u_ip */
  double xs[3];
  for (int d = 0; d < 3; d++) xs[d] = x[d] - phi * n[d];
  e->value = (1 - r) * nav_body_rigid_velocity(o, c, xs);
  for (int q = 0; q < (1 << (v->dim - 1)); q++) { /* the corners: bit m of q picks lo or lo + 1 along the m-th d */
    int gs[3] = {lo[0], lo[1], lo[2]}, m = 0;
    double w = 1;
    for (int d = 0; d < v->dim; d++) {
      if (d == dstar) continue;
      const int up = (q >> m++) & 1;
      gs[d] += up;
      w *= up ? t[d] : 1 - t[d];
    }
    if (w == 0) continue;
    nav_idx ps = b->off;
    for (int d = 0; d < v->dim; d++) {
      const int l = gs[d] - b->g0[d];
      NAV_CHECK(l >= -1 && l <= b->n[d], NAV_ERR_INTERNAL, "sharp forcing: a source outside the ghost layer");
      ps += l * b->st[d];
    }
    if (S->phi[ps] < 0) { /* a solid source: its rigid velocity */
      double xq[3];
      nav_body_face_x(v, c, gs, xq);
      e->value += r * w * nav_body_rigid_velocity(&B->b[S->near[ps]], c, xq);
    } else {
      e->src[q] = ps;
      e->weight[q] = r * w;
    }
  }
  return NAV_OK;
}

/* A new entry at the end of *arr (count *n, capacity *cap, grown as needed): target p, no sources (weights 0,
 * src = p), value 0, owner 0, volume 0. */
static nav_err nav_sharp_append(nav_sharp_face **arr, nav_idx *cap, nav_idx *n, nav_idx p, nav_sharp_face **out) {
  if (*n == *cap) {
    const nav_idx grown = *cap ? 2 * *cap : 4096;
    nav_sharp_face *a = realloc(*arr, (size_t)grown * sizeof *a);
    NAV_CHECK(a, NAV_ERR_MEMORY, "cannot grow the sharp forcing's stencils");
    *arr = a;
    *cap = grown;
  }
  nav_sharp_face *e = &(*arr)[(*n)++];
  memset(e, 0, sizeof *e);
  e->target = p;
  for (int q = 0; q < NAV_IBM_NSRC; q++) e->src[q] = p;
  *out = e;
  return NAV_OK;
}

/* Append the forced faces of component c; counts the solid volume of the u faces into each body's volume, and each
 * forced face into S->forced of the owned cells it bounds. */
static nav_err nav_sharp_faces(nav_body *B, const nav_flow_view *v, int c, nav_idx *count) {
  nav_sharp *S = B->sharp;
  const nav_box *b = v->box;
  nav_sharp_distances(B, v, c);
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]}, l[3] = {i, j, k};
        const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
        if (!nav_sharp_forced(B, v, c, l)) continue;
        S->forced[p]++; /* the low c-face of cell l, the high one of the cell below */
        if (l[c] > 0) S->forced[p - b->st[c]]++;
        const int solid = S->phi[p] < 0;
        nav_sharp_face *e = NULL;
        NAV_CALL(nav_sharp_append(&S->face, &S->hcap, count, p, &e));
        e->owner = S->near[p];
        e->volume = nav_body_face_volume(v, c, g);
        if (solid) {
          double x[3];
          nav_body_face_x(v, c, g, x);
          e->value = nav_body_rigid_velocity(&B->b[e->owner], c, x);
          if (c == 0) B->b[e->owner].volume += e->volume;
        } else {
          NAV_CALL(nav_sharp_stencil(B, v, c, g, p, e));
        }
      }
  return NAV_OK;
}

/* Free the backend arrays of a set. */
static void nav_sharp_set_free(nav_sharp_set *set, const nav_kernel_ops *ops) {
  nav_ibm_stencils *s = &set->s;
  ops->free((void *)s->target);
  ops->free((void *)s->owner);
  ops->free((void *)s->src);
  ops->free((void *)s->weight);
  ops->free((void *)s->value);
  ops->free((void *)s->volume);
  ops->free(s->next);
  memset(set, 0, sizeof *set);
}

/* Upload the n entries e[0 .. n-1] into set, the entries of component c from start[c] on (start[3] = n): the
 * backend arrays (re)allocated with room for a moving body's changes when n exceeds their capacity. */
static nav_err nav_sharp_upload(nav_sharp *S, const nav_kernel_ops *ops, nav_sharp_set *set,
                                const nav_sharp_face *e, nav_idx n, const nav_idx start[4]) {
  const size_t nq = NAV_IBM_NSRC;
  nav_ibm_stencils *s = &set->s;
  if (n > set->cap) {
    nav_sharp_set_free(set, ops);
    set->cap = n + n / 4;
    const size_t cap = (size_t)set->cap;
    NAV_CALL(ops->alloc((void **)&s->target, cap * sizeof(nav_idx)));
    NAV_CALL(ops->alloc((void **)&s->owner, cap * sizeof(int)));
    NAV_CALL(ops->alloc((void **)&s->src, nq * cap * sizeof(nav_idx)));
    NAV_CALL(ops->alloc((void **)&s->weight, nq * cap * sizeof(nav_real)));
    NAV_CALL(ops->alloc((void **)&s->value, cap * sizeof(nav_real)));
    NAV_CALL(ops->alloc((void **)&s->volume, cap * sizeof(nav_real)));
    NAV_CALL(ops->alloc((void **)&s->next, cap * sizeof(nav_real)));
  }
  const size_t bytes = nq * (size_t)set->cap * sizeof(nav_idx) + sizeof(double);
  if (bytes > S->pack_bytes) {
    free(S->pack);
    S->pack = malloc(bytes);
    NAV_CHECK(S->pack, NAV_ERR_MEMORY, "cannot allocate the sharp forcing's upload buffer");
    S->pack_bytes = bytes;
  }
  memcpy(s->start, start, sizeof s->start);
  s->n = n;
  if (!n) return NAV_OK;
/* backend array DST of NQ n values of TYPE: EXPR of entry e[m] and source q, stored at q n + m */
#define NAV_SHARP_UPLOAD(DST, TYPE, NQ, EXPR)                                                                         \
  do {                                                                                                                \
    TYPE *h_ = S->pack;                                                                                               \
    for (size_t q = 0; q < (NQ); q++)                                                                                 \
      for (nav_idx m = 0; m < n; m++) h_[q * (size_t)n + (size_t)m] = (TYPE)(EXPR);                                   \
    NAV_CALL(ops->from_host((void *)(DST), h_, (NQ) * (size_t)n * sizeof(TYPE)));                                     \
  } while (0)
  NAV_SHARP_UPLOAD(s->target, nav_idx, 1, e[m].target);
  NAV_SHARP_UPLOAD(s->owner, int, 1, e[m].owner);
  NAV_SHARP_UPLOAD(s->src, nav_idx, nq, e[m].src[q]);
  NAV_SHARP_UPLOAD(s->weight, nav_real, nq, e[m].weight[q]);
  NAV_SHARP_UPLOAD(s->value, nav_real, 1, e[m].value);
  NAV_SHARP_UPLOAD(s->volume, nav_real, 1, e[m].volume);
#undef NAV_SHARP_UPLOAD
  return NAV_OK;
}

/* Count the high c-faces of the block's last layer of cells along c (the other faces: nav_sharp_faces). */
static void nav_sharp_count_high(nav_body *B, const nav_flow_view *v, int c) {
  nav_sharp *S = B->sharp;
  const nav_box *b = v->box;
  int lo[3] = {0, 0, 0};
  lo[c] = b->n[c] - 1;
  for (int k = lo[2]; k < b->n[2]; k++)
    for (int j = lo[1]; j < b->n[1]; j++)
      for (int i = lo[0]; i < b->n[0]; i++) {
        int l[3] = {i, j, k};
        l[c]++;
        if (nav_sharp_forced(B, v, c, l)) S->forced[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]]++;
      }
}

/* The enclosed cells (every one of their 2 dim faces forced) as entries that set p to 0. */
static nav_err nav_sharp_cells(nav_body *B, const nav_flow_view *v, nav_idx *count) {
  nav_sharp *S = B->sharp;
  const nav_box *b = v->box;
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
        if (S->forced[p] < 2 * v->dim) continue;
        nav_sharp_face *e = NULL;
        NAV_CALL(nav_sharp_append(&S->cell, &S->ccap, count, p, &e));
      }
  return NAV_OK;
}

nav_err nav_body_sharp_build(nav_body *B, const nav_flow_view *v) {
  nav_sharp *S = B->sharp;
  if (!S->phi) {
    S->phi = malloc((size_t)v->box->ntot * sizeof *S->phi);
    S->near = malloc((size_t)v->box->ntot * sizeof *S->near);
    S->forced = malloc((size_t)v->box->ntot);
    NAV_CHECK(S->phi && S->near && S->forced, NAV_ERR_MEMORY, "cannot allocate the distances of the sharp forcing");
  }
  memset(S->forced, 0, (size_t)v->box->ntot);
  for (int k = 0; k < B->n; k++) B->b[k].volume = 0;
  nav_idx n = 0, start[4], ncell = 0;
  for (int c = 0; c < 3; c++) {
    start[c] = n;
    if (c >= v->dim) continue;
    NAV_CALL(nav_sharp_faces(B, v, c, &n));
    nav_sharp_count_high(B, v, c);
  }
  start[3] = n;
  NAV_CALL(nav_sharp_cells(B, v, &ncell));
  B->forced_faces = (long)n;
  NAV_CALL(nav_sharp_upload(S, v->ops, &S->faces, S->face, n, start));
  const nav_idx cstart[4] = {0, ncell, ncell, ncell};
  return nav_sharp_upload(S, v->ops, &S->cells, S->cell, ncell, cstart);
}

nav_err nav_body_sharp_create(nav_body *B) {
  B->sharp = calloc(1, sizeof(nav_sharp));
  NAV_CHECK(B->sharp, NAV_ERR_MEMORY, "cannot allocate the sharp forcing");
  return NAV_OK;
}

nav_err nav_body_sharp_force(nav_body *B, const nav_flow_view *v, nav_real *const *u, double gscale, int fill,
                             double *sums) {
  const nav_kernel_ops *ops = v->ops;
  const nav_box *b = v->box;
  /* the reconstruction holds for u - g grad p, the velocity that the projection will leave (nav_point_ibm.h) */
  if (gscale != 0) NAV_CALL(ops->correct(b, u, v->p, (nav_real)gscale));
  if (fill) NAV_CALL(nav_fill_velocity_ghosts(ops, b, v->halo, v->vbc, u)); /* the sources in the ghost layer */
  NAV_CALL(ops->ibm_sharp(u, &B->sharp->faces.s, sums));
  if (gscale != 0) NAV_CALL(ops->correct(b, u, v->p, (nav_real)-gscale));
  return NAV_OK;
}

nav_err nav_body_sharp_gauge(nav_body *B, const nav_flow_view *v) {
  nav_real *p[3] = {v->p, NULL, NULL};
  NAV_CALL(v->ops->ibm_sharp(p, &B->sharp->cells.s, NULL));
  return nav_fill_scalar_ghosts(v->ops, v->box, v->halo, v->pbc, v->p);
}

void nav_body_sharp_destroy(nav_body *B, const nav_kernel_ops *ops) {
  nav_sharp *S = B->sharp;
  if (!S) return;
  nav_sharp_set_free(&S->faces, ops);
  nav_sharp_set_free(&S->cells, ops);
  free(S->pack);
  free(S->face);
  free(S->cell);
  free(S->phi);
  free(S->near);
  free(S->forced);
  free(S);
  B->sharp = NULL;
}
