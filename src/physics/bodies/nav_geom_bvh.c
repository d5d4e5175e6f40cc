/* Bounding-volume hierarchy of the geometry module: median-split build, nearest-primitive and box
 * queries (contract in nav_geom_bvh.h). */
#include "physics/bodies/nav_geom_bvh.h"

#include <math.h>
#include <stdlib.h>

#define NAV_GEOM_BVH_STACK 128 /* > the depth, which is at most log2(n) + 2 <= 33 */

/* Rearrange idx[0..n) so that idx[k] has the k-th smallest key and no key before it is larger and none
 * after it smaller (Hoare partition quickselect; equal keys split evenly, so repeated keys stay fast). */
static void nav_bvh_select(int *idx, int n, int k, const double *key) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const double pivot = key[idx[lo + (hi - lo) / 2]];
    int i = lo, j = hi;
    while (i <= j) {
      while (key[idx[i]] < pivot)
        i++;
      while (key[idx[j]] > pivot)
        j--;
      if (i <= j) {
        const int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return;
  }
}

nav_err nav_geom_bvh_build(nav_geom_bvh *b, int n, const double *box_lo, const double *box_hi) {
  b->n_nodes = 0;
  b->node = malloc((size_t)(2 * n) * sizeof *b->node);
  b->order = malloc((size_t)n * sizeof *b->order);
  double *cen = malloc((size_t)(3 * n) * sizeof *cen), *key = malloc((size_t)n * sizeof *key);
  if (!b->node || !b->order || !cen || !key) {
    free(cen);
    free(key);
    nav_geom_bvh_free(b);
    return NAV_ERR_MEMORY;
  }
  for (int i = 0; i < n; i++) {
    b->order[i] = i;
    for (int d = 0; d < 3; d++)
      cen[3 * i + d] = 0.5 * (box_lo[3 * i + d] + box_hi[3 * i + d]);
  }
  /* each stack entry: node, begin, end of its range of order[] */
  int stack[3 * NAV_GEOM_BVH_STACK], top = 0;
  b->n_nodes = 1;
  stack[top++] = 0, stack[top++] = 0, stack[top++] = n;
  while (top > 0) {
    const int end = stack[--top], begin = stack[--top], k = stack[--top];
    nav_geom_bvh_node *nd = &b->node[k];
    double clo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, chi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int d = 0; d < 3; d++)
      nd->lo[d] = HUGE_VAL, nd->hi[d] = -HUGE_VAL;
    for (int i = begin; i < end; i++) {
      const int p = b->order[i];
      for (int d = 0; d < 3; d++) {
        nd->lo[d] = fmin(nd->lo[d], box_lo[3 * p + d]);
        nd->hi[d] = fmax(nd->hi[d], box_hi[3 * p + d]);
        clo[d] = fmin(clo[d], cen[3 * p + d]);
        chi[d] = fmax(chi[d], cen[3 * p + d]);
      }
    }
    if (end - begin <= NAV_GEOM_BVH_LEAF) {
      nd->first = begin, nd->count = end - begin;
      continue;
    }
    int axis = 0;
    for (int d = 1; d < 3; d++)
      if (chi[d] - clo[d] > chi[axis] - clo[axis]) axis = d;
    for (int i = begin; i < end; i++)
      key[b->order[i]] = cen[3 * b->order[i] + axis];
    const int mid = begin + (end - begin) / 2;
    nav_bvh_select(b->order + begin, end - begin, mid - begin, key);
    nd->first = b->n_nodes, nd->count = 0;
    b->n_nodes += 2;
    /* both halves hold >= 2 primitives, so the depth is at most log2(n) + 1 and the stack never
       holds more than (depth + 1) entries */
    stack[top++] = nd->first, stack[top++] = begin, stack[top++] = mid;
    stack[top++] = nd->first + 1, stack[top++] = mid, stack[top++] = end;
  }
  free(cen);
  free(key);
  return NAV_OK;
}

void nav_geom_bvh_free(nav_geom_bvh *b) {
  free(b->node);
  free(b->order);
  b->node = NULL, b->order = NULL, b->n_nodes = 0;
}

static double nav_bvh_box_dist2(const nav_geom_bvh_node *nd, const double p[3]) {
  double s = 0;
  for (int d = 0; d < 3; d++) {
    const double e = fmax(fmax(nd->lo[d] - p[d], p[d] - nd->hi[d]), 0.0);
    s += e * e;
  }
  return s;
}

int nav_geom_bvh_nearest(const nav_geom_bvh *b, const double p[3], nav_geom_bvh_dist2_fn f, const void *ctx,
                         double *d2) {
  int stack[NAV_GEOM_BVH_STACK], top = 0, best = -1;
  double sd[NAV_GEOM_BVH_STACK], best2 = HUGE_VAL;
  stack[top] = 0, sd[top++] = nav_bvh_box_dist2(&b->node[0], p);
  while (top > 0) {
    top--;
    if (sd[top] >= best2 && best >= 0) continue;
    const nav_geom_bvh_node *nd = &b->node[stack[top]];
    if (nd->count > 0) {
      for (int i = nd->first; i < nd->first + nd->count; i++) {
        const double e = f(ctx, b->order[i], p);
        if (e < best2 || best < 0) best2 = e, best = b->order[i];
      }
      continue;
    }
    const int c0 = nd->first, c1 = nd->first + 1;
    const double e0 = nav_bvh_box_dist2(&b->node[c0], p), e1 = nav_bvh_box_dist2(&b->node[c1], p);
    /* push the farther child first: the nearer one is searched first and tightens best2 */
    const int far = e0 <= e1 ? c1 : c0, near = e0 <= e1 ? c0 : c1;
    const double efar = e0 <= e1 ? e1 : e0, enear = e0 <= e1 ? e0 : e1;
    if (efar < best2 || best < 0) stack[top] = far, sd[top++] = efar;
    if (enear < best2 || best < 0) stack[top] = near, sd[top++] = enear;
  }
  *d2 = best2;
  return best;
}

int nav_geom_bvh_visit(const nav_geom_bvh *b, const double lo[3], const double hi[3], nav_geom_bvh_visit_fn f,
                       void *ctx) {
  int stack[NAV_GEOM_BVH_STACK], top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const nav_geom_bvh_node *nd = &b->node[stack[--top]];
    int meets = 1;
    for (int d = 0; d < 3; d++)
      if (nd->lo[d] > hi[d] || nd->hi[d] < lo[d]) meets = 0;
    if (!meets) continue;
    if (nd->count > 0) {
      for (int i = nd->first; i < nd->first + nd->count; i++) {
        const int r = f(ctx, b->order[i]);
        if (r) return r;
      }
      continue;
    }
    stack[top++] = nd->first;
    stack[top++] = nd->first + 1;
  }
  return 0;
}
