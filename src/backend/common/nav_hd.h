/* NAV_HD marks a function compiled for both host and device: __host__ __device__ under nvcc,
 * nothing under the C compiler. Every numerical formula of navier is a static inline NAV_HD
 * point function in this folder, called by the CPU loops and by the CUDA kernels alike. */
#ifndef NAV_HD_H
#define NAV_HD_H

#include "navier/nav_types.h"

#ifdef __CUDACC__
#define NAV_HD __host__ __device__
#else
#define NAV_HD
#endif

/* Loop over the directions d < b->dim of a box. nvcc gets a loop of constant trip count 3 with a
 * guard, which it unrolls fully: the box's arrays are then indexed with constants and the box
 * stays in registers (a loop bounded by b->dim keeps a copy of the box in local memory). */
#ifdef __CUDACC__
#define NAV_FOR_DIM(d, b) _Pragma("unroll") for (int d = 0; d < 3; d++) if (d < (b)->dim)
#else
#define NAV_FOR_DIM(d, b) for (int d = 0; d < (b)->dim; d++)
#endif

/* NAV_UNROLL before a loop of constant trip count: unrolled fully by nvcc (the iterations' loads in flight
 * together); nothing in C. */
#ifdef __CUDACC__
#define NAV_UNROLL _Pragma("unroll")
#else
#define NAV_UNROLL
#endif

/* Double products and sums, each rounded on its own on the device too: nvcc contracts a * b + c into one FMA (one
 * rounding) by default, the host's C compiler (x86-64, no FMA) does not. A formula whose device result must be the
 * host's bits spells its products and sums with these. */
NAV_HD static inline double nav_dmul_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
NAV_HD static inline double nav_dadd_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

/* NAV_FIELD before a point function whose field arguments have the type nav_field: under nvcc a
 * template over that type, so that one formula serves the float fields of the mixed-precision
 * multigrid levels (nav_box.lo) and the nav_real fields; in C, nav_field is nav_real. A point function
 * computes in its field type (nav_point_poisson.h says which values it converts). */
#ifdef __CUDACC__
#define NAV_FIELD template <typename nav_field>
#else
#define NAV_FIELD
typedef nav_real nav_field;
#endif

#endif
