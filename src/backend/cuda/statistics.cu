/* CUDA backend: the kernels of the DNS statistics (nav_statistics_kernels.h). The formulas are in
 * common/nav_point_statistics.h. */
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_statistics_kernels.h"

/* The u pointers of a kernel as the point function takes them. */
#define NAV_STAT_U3(u) {u.c[0], u.c[1], u.c[2]}

/* Blocks (j, c) = (blockIdx.x, blockIdx.y): plane j along e cut into gridDim.y chunks; thread t of chunk c takes
 * the plane's cells c T + t, c T + t + C T, ... (the other two directions flattened, the lower one fastest; T
 * threads per block, C chunks), then the block's fixed tree (nav_cuda_block_reduce) writes its partial sums to
 * partial[q nblocks + j + n_e c]. */
/* The direction E a template parameter: with a run-time direction the kernel's copy of the box went to local
 * memory (a 312-byte stack frame per thread, ptxas -v). */
template <int DIM, int E>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_stat_planes_kernel(nav_box box, nav_cuda_fields u, const nav_real *pr, const nav_real *T,
                           const nav_real *nut, double nu, double *partial) {
  const int e = E;
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  const nav_real *const uc[3] = NAV_STAT_U3(u);
  const int a0 = e == 0 ? 1 : 0, a1 = e == 2 ? 1 : 2; /* the other two directions, a0 < a1 */
  const long na0 = b->n[a0], count = na0 * b->n[a1];
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  double s[NAV_STAT_Q];
#pragma unroll
  for (int m = 0; m < NAV_STAT_Q; m++) s[m] = 0;
  for (long c = (long)blockIdx.y * nthreads + nav_cuda_tid(); c < count; c += (long)gridDim.y * nthreads) {
    int ijk[3];
    ijk[e] = (int)blockIdx.x;
    ijk[a0] = (int)(c % na0);
    ijk[a1] = (int)(c / na0);
    double q[NAV_STAT_Q];
    nav_stat_cell(b, uc, pr, T, nut, nu, nav_cuda_index(b, ijk), q);
    const double a = nav_stat_area(b, e, ijk);
#pragma unroll
    for (int m = 0; m < NAV_STAT_Q; m++) s[m] += q[m] * a;
  }
  nav_cuda_block_reduce<NAV_STAT_Q, false>(s, partial);
}

/* out[q n_e + j] = the sum of the chunks' partials of plane j in chunk order (one thread per (q, j)). */
__global__ void nav_stat_chunks_kernel(const double *partial, int ne, int chunks, double *out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= NAV_STAT_Q * ne) return;
  const int q = t / ne, j = t % ne;
  const double *p = partial + (size_t)q * ne * chunks + j;
  double s = 0;
  for (int c = 0; c < chunks; c++) s += p[(size_t)c * ne];
  out[t] = s;
}

/* The chunks per plane: enough blocks in all to fill the device (about 1024), none without a cell. */
static int nav_stat_chunks(const nav_box *b, int e) {
  long count = 1;
  for (int d = 0; d < 3; d++)
    if (d != e) count *= b->n[d];
  const long want = (1024 + b->n[e] - 1) / b->n[e], most = (count + NAV_CUDA_THREADS - 1) / NAV_CUDA_THREADS;
  const long c = want < most ? want : most;
  return c < 1 ? 1 : (int)c;
}

static nav_err nav_stat_planes_cuda(const nav_box *b, nav_real *const *u, const nav_real *p, const nav_real *T,
                                    const nav_real *nut, double nu, int e, double *out) {
  const int ne = b->n[e], chunks = nav_stat_chunks(b, e);
  const dim3 grid((unsigned)ne, (unsigned)chunks, 1);
  double *partial;
  NAV_CALL(nav_cuda_partials(NAV_STAT_Q, nav_cuda_blocks(grid), &partial));
  const nav_cuda_fields f = nav_cuda_pack(b, u);
  NAV_CUDA_LAUNCH_DIM_C(b, e, grid, nav_stat_planes_kernel, *b, f, p, T, nut, nu, partial);
  const int n = NAV_STAT_Q * ne;
  nav_stat_chunks_kernel<<<(n + 255) / 256, 256, 0, nav_cuda_stream>>>(partial, ne, chunks, out);
  NAV_CUDA_LAUNCHED("nav_stat_chunks_kernel");
  return NAV_OK;
}

/* The running sums of nav_statistics_ops.accumulate, passed by value. */
typedef struct nav_cuda_stat_sums {
  nav_real *s[NAV_STAT_Q];
} nav_cuda_stat_sums;

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_stat_accumulate_kernel(nav_box box, nav_cuda_fields u, const nav_real *pr, const nav_real *T,
                               nav_cuda_stat_sums sum) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = NAV_STAT_U3(u);
  double q[NAV_STAT_Q];
  nav_stat_cell(b, uc, pr, T, NULL, 1.0, p, q);
#pragma unroll
  for (int m = 0; m < NAV_STAT_Q; m++)
    if (sum.s[m]) sum.s[m][p] += (nav_real)q[m];
}

static nav_err nav_stat_accumulate_cuda(const nav_box *b, nav_real *const *u, const nav_real *p, const nav_real *T,
                                        nav_real *const *sum) {
  nav_cuda_stat_sums s;
  for (int m = 0; m < NAV_STAT_Q; m++) s.s[m] = sum[m];
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_stat_accumulate_kernel, *b, nav_cuda_pack(b, u), p, T, s);
  return NAV_OK;
}

extern "C" const nav_statistics_ops nav_statistics_ops_cuda = {
    .planes = nav_stat_planes_cuda,
    .accumulate = nav_stat_accumulate_cuda,
};
