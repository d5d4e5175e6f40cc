/* The metric values of a block's directions as the point functions read them (nav_box.h): the block's
 * constants where the direction is uniform (nav_box.udf, or every direction: nav_box.uniform; wf is then 1/2
 * exactly, w / (w + w)), else the arrays. A CUDA kernel whose copy of the box has uniform = 1 gets them as
 * kernel parameters, with no loads (backend/cuda/cuda_kernels.h); the values are the same bit for bit. */
#ifndef NAV_METRIC_H
#define NAV_METRIC_H

#include "backend/common/nav_hd.h"
#include "backend/nav_box.h"

NAV_HD static inline int nav_uniform(const nav_box *b, int d) { return b->uniform || b->udf[d] > 0; }
NAV_HD static inline nav_real nav_df(const nav_box *b, int d, int i) {
  return nav_uniform(b, d) ? b->udf[d] : b->df[d][i];
}
NAV_HD static inline nav_real nav_rdf(const nav_box *b, int d, int i) {
  return nav_uniform(b, d) ? b->urdf[d] : b->rdf[d][i];
}
NAV_HD static inline nav_real nav_rdc(const nav_box *b, int d, int i) {
  return nav_uniform(b, d) ? b->urdc[d] : b->rdc[d][i];
}
NAV_HD static inline nav_real nav_wf(const nav_box *b, int d, int i) {
  return nav_uniform(b, d) ? (nav_real)0.5 : b->wf[d][i];
}

/* A plain box: the Poisson operator (no Helmholtz coefficient, variable shift or shift) on a block uniform in every
 * direction; the flow's boxes, without Helmholtz terms, are plain where they are uniform. The CUDA backend's PLAIN
 * kernel variants and the multigrid's wavefront sweep (mg.c) serve these. */
NAV_HD static inline int nav_box_plain(const nav_box *b) { return b->uniform && !b->kc && !b->sc && b->shift == 0; }

#endif
