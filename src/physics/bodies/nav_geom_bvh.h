/* Bounding-volume hierarchy over n primitives given by their axis-aligned boxes (segments in 2D use
 * z = 0), for the geometry module (nav_geom.h) only.
 *
 * Build: top-down, each node's primitives split at the median centroid along the longest axis of the
 * centroid box (quickselect), leaves of at most NAV_GEOM_BVH_LEAF primitives: O(n log n) time, 2n nodes,
 * depth <= log2(n) + 2. Queries:
 *   nearest  depth-first, the nearer child (by box distance) first, a subtree skipped when its box is
 *            no nearer than the best primitive so far: O(log n) boxes and O(1) primitives per query on
 *            well-shaped surfaces, exact (the pruning only drops boxes that cannot hold a nearer point).
 *   visit    every primitive whose box meets the closed query box [lo, hi] (infinite bounds allowed).
 * Read-only after the build: concurrent queries are safe. */
#ifndef NAV_GEOM_BVH_H
#define NAV_GEOM_BVH_H

#include "navier/nav_types.h"

#define NAV_GEOM_BVH_LEAF 4

typedef struct nav_geom_bvh_node {
  double lo[3], hi[3];
  int first; /* leaf: first index into order[]; inner: index of the left child (the right is first + 1) */
  int count; /* leaf: number of primitives (>= 1); inner: 0 */
} nav_geom_bvh_node;

typedef struct nav_geom_bvh {
  int n_nodes;
  nav_geom_bvh_node *node; /* node[0] is the root */
  int *order;              /* primitive indices, leaf by leaf */
} nav_geom_bvh;

/* Squared distance from p to primitive prim (ctx: the caller's data). */
typedef double (*nav_geom_bvh_dist2_fn)(const void *ctx, int prim, const double p[3]);
/* Called for each primitive met by a visit; a non-zero return stops the visit and is returned. */
typedef int (*nav_geom_bvh_visit_fn)(void *ctx, int prim);

/* Build the hierarchy of n >= 1 primitives with boxes box_lo[3n], box_hi[3n]. NAV_ERR_MEMORY on failure
 * (b is then empty). */
nav_err nav_geom_bvh_build(nav_geom_bvh *b, int n, const double *box_lo, const double *box_hi);
void nav_geom_bvh_free(nav_geom_bvh *b);
/* The primitive nearest to p (the first found among equals) and its squared distance in *d2. */
int nav_geom_bvh_nearest(const nav_geom_bvh *b, const double p[3], nav_geom_bvh_dist2_fn f, const void *ctx,
                         double *d2);
/* Call f for every primitive whose box meets [lo, hi]; returns the first non-zero return of f, or 0. */
int nav_geom_bvh_visit(const nav_geom_bvh *b, const double lo[3], const double hi[3], nav_geom_bvh_visit_fn f,
                       void *ctx);

#endif
