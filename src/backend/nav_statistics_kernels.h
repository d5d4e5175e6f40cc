/* The kernel table of the DNS statistics model (physics/statistics/nav_statistics.h), apart from the
 * core table (nav_kernels.h) as the model is apart from the solver: backend/cpu/statistics.c and
 * backend/cuda/statistics.cu fill it with the point formulas of common/nav_point_statistics.h.
 * Field pointers are backend memory laid out as in nav_box.h (ghosts of u filled); results stay in
 * backend memory (the caller copies them to the host once per sample). Every entry returns nav_err. */
#ifndef NAV_STATISTICS_KERNELS_H
#define NAV_STATISTICS_KERNELS_H

#include "backend/common/nav_point_statistics.h"
#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_statistics_ops {
  /* Plane sums along e of one sample: out[q * b->n[e] + j] = sum over the interior cells of local index j
   * along e of q_cell dA (nav_stat_cell, nav_stat_area), q < NAV_STAT_Q. out: backend memory of
   * NAV_STAT_Q n[e] doubles, overwritten. Each plane is summed in a fixed order for a given block (the same
   * result on every call for the same fields; cuda: chunks of the plane in fixed trees, then the chunks in
   * order). T and nut (the eddy viscosity at the cells; nu: the molecular viscosity) may be NULL. */
  nav_err (*planes)(const nav_box *b, nav_real *const *u, const nav_real *p, const nav_real *T, const nav_real *nut,
                    double nu, int e, double *out);
  /* Running sums at the cells: sum[q][cell] += q_cell (nav_stat_cell, no eddy viscosity) at the interior cells,
   * q < NAV_STAT_Q; sum[q] NULL: quantity q is not kept. T may be NULL. */
  nav_err (*accumulate)(const nav_box *b, nav_real *const *u, const nav_real *p, const nav_real *T,
                        nav_real *const *sum);
} nav_statistics_ops;

extern const nav_statistics_ops nav_statistics_ops_cpu;
#ifdef NAV_HAVE_CUDA
extern const nav_statistics_ops nav_statistics_ops_cuda;
#endif

/* The statistics table of the backend called name (nav_kernel_ops.name: "cpu", "cuda"), or NULL. */
const nav_statistics_ops *nav_statistics_backend(const char *name);

#ifdef __cplusplus
}
#endif

#endif
