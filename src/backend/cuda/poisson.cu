/* CUDA backend: Poisson operator, smoothers and multigrid transfers (common/nav_point_poisson.h). */
#include "backend/common/nav_point_line.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/cuda/cuda_kernels.h"

#include <stdlib.h>

#include <type_traits>

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_laplacian_kernel(nav_box box, const nav_real *x, nav_real *y) {
  NAV_CUDA_INTERIOR(box);
  nav_real dg;
  y[p] = nav_laplacian(b, x, p, ijk, &dg);
}

nav_err nav_laplacian_cuda(const nav_box *b, const nav_real *x, nav_real *y) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_laplacian_kernel, *b, x, y);
  return NAV_OK;
}

/* r = rhs - L x; with RR the block's partial sum of r^2 dV. X: the type of x and rhs, R: that of r (float
 * and float on a mixed-precision level; nav_real and float for the outer residual of the mixed-precision
 * multigrid, nav_residual_lo_cuda: computed from the nav_real iterate, stored as the next cycle's float
 * right-hand side; nav_real and nav_real elsewhere). */
template <int DIM, bool RR, typename X, typename R, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_residual_kernel(nav_box box, const X *x, const X *rhs, R *r, double *partial, int kz) {
  const nav_box bl = nav_cuda_box_plain<DIM, PLAIN>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p))
    nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
      X dg; /* the arithmetic of x's type: double for the outer residual of the mixed multigrid */
      const X res = rhs[q] - nav_laplacian(b, x, q, ijk, &dg);
      r[q] = (R)res;
      if (RR) s[0] += (double)res * (double)res * (double)nav_cell_volume(b, ijk);
    });
  if (RR) nav_cuda_block_reduce<1, false>(s, partial);
}

template <typename X, typename R>
static nav_err nav_residual_launch(const nav_box *b, const X *x, const X *rhs, R *r, double *rr) {
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  const dim3 grid = nav_cuda_grid_kz(b, b->n[0], kz), block = nav_cuda_block();
  const size_t nblocks = nav_cuda_blocks(grid);
  double *partial = NULL;
  if (rr) NAV_CALL(nav_cuda_partials(1, nblocks, &partial));
#define NAV_RESIDUAL_LAUNCH(D, P)                                                                    \
  do {                                                                                               \
    if (rr)                                                                                          \
      nav_residual_kernel<D, true, X, R, P><<<grid, block, 0, nav_cuda_stream>>>(*b, x, rhs, r, partial, kz); \
    else                                                                                             \
      nav_residual_kernel<D, false, X, R, P><<<grid, block, 0, nav_cuda_stream>>>(*b, x, rhs, r, partial, kz); \
  } while (0)
  const bool plain = nav_box_plain(b);
  if (b->dim == 2 && plain)
    NAV_RESIDUAL_LAUNCH(2, true);
  else if (b->dim == 2)
    NAV_RESIDUAL_LAUNCH(2, false);
  else if (plain)
    NAV_RESIDUAL_LAUNCH(3, true);
  else
    NAV_RESIDUAL_LAUNCH(3, false);
#undef NAV_RESIDUAL_LAUNCH
  NAV_CUDA_LAUNCHED("nav_residual_kernel");
  if (rr) NAV_CALL(nav_cuda_reduce(1, 0, nblocks, rr));
  return NAV_OK;
}

nav_err nav_residual_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr) {
  if (b->lo) return nav_residual_launch(b, (const float *)x, (const float *)rhs, (float *)r, rr);
  return nav_residual_launch(b, x, rhs, r, rr);
}

nav_err nav_residual_lo_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, float *r, double *rr) {
  return nav_residual_launch(b, x, rhs, r, rr);
}

/* x += e at every point, ghosts included (both homogeneous ghost rules are linear: the sum keeps x's
 * ghosts valid when e's are) */
__global__ void __launch_bounds__(256) nav_add_lo_kernel(nav_idx ntot, nav_real *x, const float *e) {
  const nav_idx stride = (nav_idx)gridDim.x * blockDim.x;
  for (nav_idx p = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x; p < ntot; p += stride) x[p] += (nav_real)e[p];
}

nav_err nav_add_lo_cuda(const nav_box *b, nav_real *x, const float *e) {
  const nav_idx blocks = (b->ntot + 255) / 256;
  nav_add_lo_kernel<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256, 0, nav_cuda_stream>>>(b->ntot, x, e);
  NAV_CUDA_LAUNCHED("nav_add_lo_kernel");
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_inverse_diagonal_kernel(nav_box box, nav_real *inv_diag) {
  NAV_CUDA_INTERIOR(box);
  inv_diag[p] = 1 / nav_laplacian_diagonal(b, p, ijk);
}

nav_err nav_inverse_diagonal_cuda(const nav_box *b, nav_real *inv_diag) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_inverse_diagonal_kernel, *b, inv_diag);
  return NAV_OK;
}

/* One thread per cell of the colour: thread ih of row (j, k) takes i = 2 ih + i0, where i0 is
 * the first cell of the row with that colour (nav_colour of the global indices). Cells of one
 * colour only read cells of the other, so the in-place update has no race. The kernel is DRAM-bound
 * (near the DRAM peak at 256^3, docs/performance.md: its stride-2 accesses move every sector of x, rhs and
 * the diagonal):
 * it divides by the stencil's diagonal (nav_relax with inv_diag = NULL) instead of loading inv_diag, 8
 * bytes per cell and colour fewer; inv_diag stays for the Jacobi iterations and preconditioner. */
template <int DIM, typename T, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_relax_colour_kernel(nav_box box, T *x, const T *rhs, int colour, nav_real omega, int kz) {
  const nav_box bl = nav_cuda_box_plain<DIM, PLAIN>(box);
  const nav_box *const b = &bl;
  int ijk[3] = {0, (int)(blockIdx.y * blockDim.y + threadIdx.y), 0};
  if (ijk[1] >= b->n[1]) return;
  const int ih = (int)(blockIdx.x * blockDim.x + threadIdx.x), k0 = (int)blockIdx.z * kz;
  const int k1 = k0 + kz < b->n[2] ? k0 + kz : b->n[2];
  for (int k = k0; k < k1; k++) {
    ijk[2] = k;
    ijk[0] = 0;
    ijk[0] = (nav_colour(b, ijk) == colour ? 0 : 1) + 2 * ih;
    if (ijk[0] >= b->n[0]) continue;
    const nav_idx p = b->off + (nav_idx)ijk[0] * b->st[0] + (nav_idx)ijk[1] * b->st[1] + (nav_idx)k * b->st[2];
    x[p] = (T)nav_relax(b, x, rhs, (const nav_real *)NULL, p, ijk, omega);
  }
}

nav_err nav_relax_colour_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                              nav_real omega) {
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  NAV_CUDA_LAUNCH_PLAIN(b, nav_box_plain(b), nav_cuda_grid_kz(b, (b->n[0] + 1) / 2, kz), nav_relax_colour_kernel, *b,
                        (nav_cuda_t *)x, (const nav_cuda_t *)rhs, colour, omega, kz);
  (void)inv_diag; /* the kernel divides by the stencil's diagonal */
  return NAV_OK;
}

/* The first half sweep from x = 0 (nav_relax_from_zero; ops->relax_first): one thread per cell of either colour,
 * so that the stores of the colour's values and of the other colour's zeros are whole rows. */
template <int DIM, typename T, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_relax_first_kernel(nav_box box, T *x, const T *rhs, int colour, nav_real omega, int kz) {
  const nav_box bl = nav_cuda_box_plain<DIM, PLAIN>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  if (nav_cuda_point(b, ijk, &p))
    nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
      x[q] = nav_colour(b, ijk) == colour ? nav_relax_from_zero(b, rhs, (const nav_real *)NULL, q, ijk, omega) : (T)0;
    });
}

nav_err nav_relax_first_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                             nav_real omega) {
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  NAV_CUDA_LAUNCH_PLAIN(b, nav_box_plain(b), nav_cuda_grid_kz(b, b->n[0], kz), nav_relax_first_kernel, *b,
                        (nav_cuda_t *)x, (const nav_cuda_t *)rhs, colour, omega, kz);
  (void)inv_diag; /* divides by the stencil's diagonal, as nav_relax_colour_kernel */
  return NAV_OK;
}

/* ---- a whole red-black sweep in one pass (ops->relax_sweep): the wavefront kernel ------------------------------
 *
 * As two colour kernels a sweep reads x and rhs whole twice (a colour's cells sit in every sector) and writes x
 * twice, with a ghost fill between: 24 bytes per cell and sweep on a float level. This kernel reads x and rhs once
 * and writes out once, 12 bytes per cell (8 from x = 0: rhs read, out written):
 *   - a thread block owns a tile of NAV_WF_TX x NAV_WF_TY columns and a chunk of zc planes, and walks up the
 *     planes: at step k it relaxes the first colour on plane k, on the tile and a ring of one cell around it (the
 *     first-colour neighbours of the tile's second colour), then the second colour on the tile on plane k - 1,
 *     whose first-colour neighbours on planes k - 2 .. k are new by then;
 *   - x's and rhs's planes (the tile and a ring of two cells: the ring's cells read one cell further out) live in
 *     shared memory, loaded two planes ahead through registers; x's ring of S = 5 plane slots has two more, S and
 *     S + 1, that mirror slots 0 and 1, so that any three consecutive planes lie at one stride;
 *   - the ring and the planes just outside the chunk are relaxed by the neighbouring blocks too, from the same old
 *     values, to the same results; no block reads what another writes, because the sweep writes out, not x (in
 *     place, a block would take a neighbour's new values for old ones): the caller alternates x and out;
 *   - ghosts: under the mirror rules (nav_fill_scalar_ghosts: a ghost is +-1 times the cell next to it) the ghost
 *     neighbour of a cell depends on that cell alone, which no update changes before its own: the values of the
 *     two-kernel sweep, whose fill between the colours leaves those ghosts as they were. A halo or a periodic
 *     face (a ghost that is a cell of the other colour elsewhere) is not served (mg.c, nav_mg_wavefront); out's
 *     ghosts are the caller's fill.
 * Each cell is relaxed by nav_laplacian on the shared-memory window (a box with its strides) and nav_relax_value,
 * or by nav_relax_from_zero: the operations of the colour kernels. */
#define NAV_WF_TX 32
#define NAV_WF_TY 16
#define NAV_WF_THREADS (NAV_WF_TX * NAV_WF_TY / 2) /* one thread per second-colour cell of the tile */
#define NAV_WF_PX (NAV_WF_TX + 4)                  /* the shared planes: the tile and a ring of two cells */
#define NAV_WF_PLANE (NAV_WF_PX * (NAV_WF_TY + 4))
#define NAV_WF_LOADS ((NAV_WF_PLANE + NAV_WF_THREADS - 1) / NAV_WF_THREADS)
#define NAV_WF_ROW ((NAV_WF_TX + 2) / 2) /* first-colour cells per row of the tile and its ring of one */
#define NAV_WF_RING (NAV_WF_ROW * (NAV_WF_TY + 2))
#define NAV_WF_FIRSTS ((NAV_WF_RING + NAV_WF_THREADS - 1) / NAV_WF_THREADS)
/* plane slots: step k stores plane k + 1 into the slot of k - 4 while slower threads of the previous step still read
 * k - 3 .. k - 1 */
#define NAV_WF_SLOTS 5
#define NAV_WF_SHARED(T) ((size_t)(2 * NAV_WF_SLOTS + 2) * NAV_WF_PLANE * sizeof(T)) /* x: S + 2 slots, rhs: S */

template <typename T, bool FROM_ZERO>
__global__ void __launch_bounds__(NAV_WF_THREADS, sizeof(T) == sizeof(float) ? 4 : 2)
    nav_relax_sweep_kernel(nav_box box, const T *__restrict__ x, const T *__restrict__ rhs, T *__restrict__ out,
                           int first, nav_real omega, int zc) {
  constexpr int S = NAV_WF_SLOTS;
  extern __shared__ __align__(16) unsigned char nav_wf_shared[];
  T *const xs = reinterpret_cast<T *>(nav_wf_shared); /* S + 2 plane slots of x: S and S + 1 mirror 0 and 1 */
  T *const rs = xs + (S + 2) * NAV_WF_PLANE;          /* S plane slots of rhs */
  const nav_box bl = nav_cuda_box_plain<3, true>(box);
  const nav_box *const b = &bl;
  nav_box wb = bl; /* the window of three shared planes */
  wb.st[1] = NAV_WF_PX;
  wb.st[2] = NAV_WF_PLANE;
  const int t = (int)threadIdx.x, i0 = (int)blockIdx.x * NAV_WF_TX, j0 = (int)blockIdx.y * NAV_WF_TY;
  const int z0 = (int)blockIdx.z * zc, z1 = z0 + zc < b->n[2] ? z0 + zc : b->n[2], n2 = b->n[2];
  const int gsum = b->g0[0] + b->g0[1] + b->g0[2], sy = (int)b->st[1];
  const nav_idx sz = b->st[2];
  /* The thread's cells, by the parity par of the plane (the colours alternate with k), computed once: the l-th
   * first-colour cell (the tile and its ring of one) at shared (a, c), fa[par][l] = c NAV_WF_PX + a, and global
   * column fxy[par][l] = i + j sy; bit l of fin[par]: in the block's columns, of fout[par]: in the tile (written
   * out); the second-colour cell (the tile) likewise, sok[par]: in the block's columns. */
  int fa[2][NAV_WF_FIRSTS], fxy[2][NAV_WF_FIRSTS], sa[2], sxy[2];
  unsigned fin[2] = {0, 0}, fout[2] = {0, 0};
  bool sok[2];
  NAV_UNROLL for (int par = 0; par < 2; par++) {
    NAV_UNROLL for (int l = 0; l < NAV_WF_FIRSTS; l++) {
      const int e = t + l * NAV_WF_THREADS, c = 1 + e / NAV_WF_ROW, j = j0 - 2 + c;
      const int a = 1 + 2 * (e % NAV_WF_ROW) + (((gsum + i0 - 1 + j + par) & 1) ^ first), i = i0 - 2 + a;
      fa[par][l] = c * NAV_WF_PX + a;
      fxy[par][l] = i + j * sy;
      const bool in = e < NAV_WF_RING && i >= 0 && i < b->n[0] && j >= 0 && j < b->n[1];
      fin[par] |= (unsigned)in << l;
      fout[par] |= (unsigned)(in && a >= 2 && a < 2 + NAV_WF_TX && c >= 2 && c < 2 + NAV_WF_TY) << l;
    }
    const int c = 2 + t / (NAV_WF_TX / 2), j = j0 - 2 + c;
    const int a = 2 + 2 * (t % (NAV_WF_TX / 2)) + (((gsum + i0 + j + par) & 1) ^ first ^ 1), i = i0 - 2 + a;
    sa[par] = c * NAV_WF_PX + a;
    sxy[par] = i + j * sy;
    sok[par] = i < b->n[0] && j < b->n[1];
  }
  /* the copies: the l-th point of a shared plane (the tile and its ring of two) and whether x has it (ghosts too) */
  int lxy[NAV_WF_LOADS];
  bool lin[NAV_WF_LOADS];
  NAV_UNROLL for (int l = 0; l < NAV_WF_LOADS; l++) {
    const int e = t + l * NAV_WF_THREADS, i = i0 - 2 + e % NAV_WF_PX, j = j0 - 2 + e / NAV_WF_PX;
    lxy[l] = i + j * sy;
    lin[l] = e < NAV_WF_PLANE && i >= -1 && i <= b->n[0] && j >= -1 && j <= b->n[1];
  }
  const auto wrap = [](int q) { return q >= S ? q - S : q; }; /* q < 2 S */
  /* x's and rhs's planes go through registers, two planes ahead: buffer B = m & 1 holds plane m (a constant in a
   * step of known parity). load: plane m of x (FROM_ZERO: none) and of rhs into buffer B (0 outside them); store:
   * buffer B into slot sl (x's slots 0 and 1 twice). */
  T px[2][NAV_WF_LOADS], pr[2][NAV_WF_LOADS];
  const auto load = [&](auto b_c, int m) {
    constexpr int B = decltype(b_c)::value;
    const bool mx = m >= -1 && m <= n2 && m <= z1 + 1, mr = m >= 0 && m < n2 && m <= z1 + 1;
    const T *const xm = FROM_ZERO ? x : x + (b->off + (nav_idx)m * sz);
    const T *const rm = rhs + (b->off + (nav_idx)m * sz);
    NAV_UNROLL for (int l = 0; l < NAV_WF_LOADS; l++) {
      if (!FROM_ZERO) px[B][l] = lin[l] && mx ? xm[lxy[l]] : (T)0;
      pr[B][l] = lin[l] && mr ? rm[lxy[l]] : (T)0;
    }
  };
  const auto store = [&](auto b_c, int sl) {
    constexpr int B = decltype(b_c)::value;
    NAV_UNROLL for (int l = 0; l < NAV_WF_LOADS; l++) {
      const int e = t + l * NAV_WF_THREADS;
      if (e >= NAV_WF_PLANE) continue;
      if (!FROM_ZERO) {
        xs[sl * NAV_WF_PLANE + e] = px[B][l];
        if (sl < 2) xs[(sl + S) * NAV_WF_PLANE + e] = px[B][l];
      }
      rs[sl * NAV_WF_PLANE + e] = pr[B][l];
    }
  };
  const std::integral_constant<int, 0> even;
  const std::integral_constant<int, 1> odd;
  /* step k of the wavefront (sk: the slot of plane k), PK = k & 1 as a constant: the tables above in registers */
  const auto step = [&](auto pk_c, int k, int sk) {
    constexpr int PK = decltype(pk_c)::value, PM = PK ^ 1;
    const std::integral_constant<int, PM> next;
    /* plane k + 1 into its slot (that of plane k - 4: the previous step read k - 3 .. k - 1), plane k + 3 loaded;
     * FROM_ZERO: the slot's first-colour cells of plane k - 4 cleared, which are plane k + 1's second colour (x = 0) */
    const int s1 = wrap(sk + 1);
    store(next, s1);
    if (k + 3 <= z1 + 1) load(next, k + 3);
    if (FROM_ZERO) {
      NAV_UNROLL for (int l = 0; l < NAV_WF_FIRSTS; l++) {
        if (!((fin[PK] >> l) & 1u)) continue;
        xs[s1 * NAV_WF_PLANE + fa[PK][l]] = 0;
        if (s1 < 2) xs[(s1 + S) * NAV_WF_PLANE + fa[PK][l]] = 0;
      }
    }
    __syncthreads();
    const bool kin = k >= 0 && k < n2, kout = k >= z0 && k < z1;
    T *const ok = out + (b->off + (nav_idx)k * sz);
    const T *const w = xs + wrap(sk + S - 1) * NAV_WF_PLANE + NAV_WF_PLANE; /* plane k; k - 1 and k + 1 around */
    T *const xk = xs + sk * NAV_WF_PLANE;
    const T *const rk = rs + sk * NAV_WF_PLANE;
    const int ijk[3] = {0, 0, k};                        /* a uniform box: the point functions read no index */
    NAV_UNROLL for (int l = 0; l < NAV_WF_FIRSTS; l++) { /* the first colour on plane k, the tile and its ring */
      /* FROM_ZERO: a plane outside x's (k = -1 or n) clears its slot's first-colour cells of an earlier plane;
       * otherwise that plane keeps x's ghosts as loaded */
      if (!((fin[PK] >> l) & 1u) || (!FROM_ZERO && !kin)) continue;
      const int f = fa[PK][l];
      T v = 0;
      if (kin) {
        const T rv = rk[f];
        if (FROM_ZERO) {
          v = nav_relax_from_zero(b, &rv, (const nav_real *)NULL, 0, ijk, omega); /* reads rv only (its rhs[0]) */
        } else {
          T dg;
          const T lx = nav_laplacian(&wb, w, f, ijk, &dg);
          v = nav_relax_value(w[f], rv, lx, dg, omega);
        }
        if (kout && ((fout[PK] >> l) & 1u)) ok[fxy[PK][l]] = v;
      }
      xk[f] = v;
      if (sk < 2) xk[S * NAV_WF_PLANE + f] = v;
    }
    __syncthreads();
    if (sok[PM] && k - 1 >= z0 && k - 1 < z1) { /* the second colour on plane k - 1, the tile */
      const T *const wm = xs + wrap(sk + S - 2) * NAV_WF_PLANE + NAV_WF_PLANE; /* plane k - 1 */
      const int f = sa[PM], ijkm[3] = {0, 0, k - 1};
      T dg;
      const T lx = nav_laplacian(&wb, wm, f, ijkm, &dg);
      ok[sxy[PM] - sz] = nav_relax_value(wm[f], rs[wrap(sk + S - 1) * NAV_WF_PLANE + f], lx, dg, omega);
    }
  };
  if (FROM_ZERO) { /* x = 0: the second colour's old values and every ghost stay 0 */
    for (int e = t; e < (S + 2) * NAV_WF_PLANE; e += NAV_WF_THREADS) xs[e] = 0;
  }
  /* planes z0 - 2 and z0 - 1 stored, z0 and z0 + 1 in their buffers (by parity, P that of z0): the first step stores
   * z0 */
  const auto prologue = [&](auto p_c) {
    constexpr int P = decltype(p_c)::value;
    const std::integral_constant<int, P> same;
    const std::integral_constant<int, P ^ 1> other;
    load(same, z0 - 2);
    store(same, (z0 - 2 + 2 * S) % S);
    load(other, z0 - 1);
    store(other, (z0 - 1 + 2 * S) % S);
    load(same, z0);
    load(other, z0 + 1);
  };
  if (z0 & 1)
    prologue(odd);
  else
    prologue(even);
  int k = z0 - 1, sk = (z0 - 1 + 2 * S) % S; /* sk: the slot of plane k */
  if (k & 1) {                               /* from an even plane on, two steps per trip */
    step(odd, k, sk);
    k++, sk = wrap(sk + 1);
  }
  for (; k + 1 <= z1; k += 2, sk = wrap(wrap(sk + 1) + 1)) {
    step(even, k, sk);
    step(odd, k + 1, wrap(sk + 1));
  }
  if (k <= z1) step(even, k, sk);
}

/* The dynamic shared memory of nav_relax_sweep_kernel<T, *> (over 48 KB: the opt-in, once) and the blocks of it that
 * an SM holds. */
template <typename T> static nav_err nav_relax_sweep_shared(size_t *bytes, int *per_sm) {
  static int blocks = 0;
  *bytes = NAV_WF_SHARED(T);
  if (!blocks) {
    NAV_CALL_CUDA(cudaFuncSetAttribute(nav_relax_sweep_kernel<T, false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)*bytes));
    NAV_CALL_CUDA(cudaFuncSetAttribute(nav_relax_sweep_kernel<T, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)*bytes));
    NAV_CALL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, nav_relax_sweep_kernel<T, false>,
                                                                NAV_WF_THREADS, *bytes));
    if (blocks < 1) blocks = 1;
  }
  *per_sm = blocks;
  return NAV_OK;
}

template <typename T>
static nav_err nav_relax_sweep_launch(const nav_box *b, const T *x, const T *rhs, T *out, int first, nav_real omega) {
  static int sms = 0;
  if (!sms) {
    int dev = 0;
    NAV_CALL_CUDA(cudaGetDevice(&dev));
    NAV_CALL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  }
  size_t bytes;
  int per_sm;
  NAV_CALL(nav_relax_sweep_shared<T>(&bytes, &per_sm));
  /* chunks of planes so that the grid is about one wave of resident blocks, at least 4 planes each (a chunk's
   * first and last planes are relaxed twice) */
  const int tx = (b->n[0] + NAV_WF_TX - 1) / NAV_WF_TX, ty = (b->n[1] + NAV_WF_TY - 1) / NAV_WF_TY;
  const int chunks = per_sm * sms / (tx * ty) > 1 ? per_sm * sms / (tx * ty) : 1;
  const int zc = (b->n[2] + chunks - 1) / chunks > 4 ? (b->n[2] + chunks - 1) / chunks : 4;
  const dim3 grid((unsigned)tx, (unsigned)ty, (unsigned)((b->n[2] + zc - 1) / zc));
  if (x)
    nav_relax_sweep_kernel<T, false>
        <<<grid, NAV_WF_THREADS, bytes, nav_cuda_stream>>>(*b, x, rhs, out, first, omega, zc);
  else
    nav_relax_sweep_kernel<T, true>
        <<<grid, NAV_WF_THREADS, bytes, nav_cuda_stream>>>(*b, x, rhs, out, first, omega, zc);
  NAV_CUDA_LAUNCHED("nav_relax_sweep_kernel");
  return NAV_OK;
}

nav_err nav_relax_sweep_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *out, int first,
                             nav_real omega) {
  NAV_CHECK(b->dim == 3 && nav_box_plain(b) && x != out, NAV_ERR_INTERNAL,
            "relax_sweep: a 3D plain block and out apart from x (dim %d, plain %d)", b->dim, (int)nav_box_plain(b));
  if (b->lo) return nav_relax_sweep_launch(b, (const float *)x, (const float *)rhs, (float *)out, first, omega);
  return nav_relax_sweep_launch(b, x, rhs, out, first, omega);
}

/* ---- line relaxation (mg_line.c): a thread block per line ----------------------------------------
 *
 * Each line of the colour is solved by one thread block with the partitioned algorithm of
 * common/nav_point_line.h (chunks eliminated by one thread each, parallel cyclic reduction of the
 * 2 S chunk ends, the chunks expanded), its rows built by nav_line_row, the same operator T as the
 * CPU's Thomas solve (nav_line_solve): the same result to round-off.
 *
 * Why this organisation (reasoned, not measured here; docs/design.md "Line relaxation on the GPU"):
 *   - the former kernel ran one thread per line: 852 threads per colour on the 1704^2 snake grid, each
 *     a chain of 2 x 1704 dependent steps with a global scratch write and read per cell: latency-bound
 *     (most of the V-cycle's time, docs/performance.md). A block of nt threads per line gives 852 x 256 threads and takes the scratch
 *     (a', c', f') into shared memory: per cell the kernel moves the bytes of a point sweep (x and its
 *     neighbours, rhs, x written back) and the arithmetic is ~20 flops, far below the bandwidth bound;
 *   - loads: along x a line is contiguous and the load phase reads row i = t, t + nt, ..., coalesced.
 *     Along y (z) the block's threads read cells one row (plane) apart: each 8-byte value costs a 32-byte
 *     sector from L2, but the sectors are shared with the neighbour lines (x -/+ 1 of the other colour,
 *     x + 2 of the next block), so DRAM sees each byte about once (the 1704^2 level's x and rhs, 46 MB,
 *     stay in the 50 MB L2) and the L2-to-SM traffic is ~4x that of an x line. A tile of several y lines
 *     per block would coalesce it, but a 1704-cell line takes 41 KB of shared memory: four lines would
 *     leave one block per SM;
 *   - cuSPARSE gtsv2StridedBatch / gtsvInterleavedBatch were not taken: they need the coefficient and
 *     right-hand-side arrays built in global memory first (4 more passes over the field per colour),
 *     one colour's lines are every other line (a stride of 2 lines, not a batch of consecutive ones for
 *     the interleaved layout), and gtsv2 asks for its own work buffer: more bytes for the same solve;
 *   - block size: the smallest of 32, 64, 128, 256 threads with 8 nt >= n (chunks of ~4-8 rows), so
 *     a 1704-cell line gets 256 threads, 53 KB of shared memory, 4 blocks per SM.
 * Lines whose a', c', f' do not fit in a block's shared memory (3 n + 6 nt reals: ~9000 cells in FP64 with
 * 227 KB per block) keep a' and c' there and f' in the scratch cp, dense per line (line l at cp + l n: the lines
 * of a block's field fit in its ntot points), up to ~13 000 cells (the 10000^2 and 12000^2 RANS channels,
 * which the thread-per-line kernel made many times slower per outer iteration, docs/performance.md); longer
 * lines fall back to the former kernel (one thread per line, cp and out as the scratch). */

/* The thread-per-line fallback: thread t takes line l = ka + na kb of the other two directions
 * (nav_line_others) of the colour (colour < 0: every line) and runs the line's Thomas solve; lines of
 * one colour do not touch each other (their neighbours are of the other colour). */
#define NAV_CUDA_LINE(BOX, COLOUR)                                                                   \
  const nav_box bl_ = nav_cuda_box_dim<DIM>(BOX);                                                    \
  const nav_box *const b = &bl_;                                                                     \
  int oa, ob;                                                                                        \
  nav_line_others(DIR, &oa, &ob);                                                                    \
  const long l = (long)blockIdx.x * blockDim.x + threadIdx.x, na = b->n[oa];                         \
  if (l >= na * b->n[ob]) return;                                                                    \
  const int ka = (int)(l % na), kb = (int)(l / na);                                                  \
  if ((COLOUR) >= 0 && ((b->g0[oa] + ka + b->g0[ob] + kb) & 1) != (COLOUR)) return;                  \
  int ijk[3] = {0, 0, 0};                                                                            \
  ijk[oa] = ka;                                                                                      \
  ijk[ob] = kb;                                                                                      \
  const nav_idx p0 = b->off + (nav_idx)ka * b->st[oa] + (nav_idx)kb * b->st[ob]

/* Launch KERNEL<DIM, DIR> (the line direction a template parameter too, so that the kernel indexes
 * the box's arrays with constants only: no local memory) on GRID x BLOCK with SHMEM bytes, then check. */
#define NAV_CUDA_LAUNCH_DIR(B, DIR, KERNEL, GRID, BLOCK, SHMEM, ...)                                  \
  do {                                                                                               \
    const int d_ = (DIR);                                                                            \
    if ((B)->dim == 2 && d_ == 0)                                                                    \
      KERNEL<2, 0><<<(GRID), (BLOCK), (SHMEM), nav_cuda_stream>>>(__VA_ARGS__);                      \
    else if ((B)->dim == 2)                                                                          \
      KERNEL<2, 1><<<(GRID), (BLOCK), (SHMEM), nav_cuda_stream>>>(__VA_ARGS__);                      \
    else if (d_ == 0)                                                                                \
      KERNEL<3, 0><<<(GRID), (BLOCK), (SHMEM), nav_cuda_stream>>>(__VA_ARGS__);                      \
    else if (d_ == 1)                                                                                \
      KERNEL<3, 1><<<(GRID), (BLOCK), (SHMEM), nav_cuda_stream>>>(__VA_ARGS__);                      \
    else                                                                                             \
      KERNEL<3, 2><<<(GRID), (BLOCK), (SHMEM), nav_cuda_stream>>>(__VA_ARGS__);                      \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)

/* Launch a fallback line kernel: one thread per line of the block along dir. */
#define NAV_CUDA_LAUNCH_LINES(B, DIR, KERNEL, ...)                                                   \
  do {                                                                                               \
    int oa_, ob_;                                                                                    \
    nav_line_others(DIR, &oa_, &ob_);                                                                \
    const long lines_ = (long)(B)->n[oa_] * (B)->n[ob_];                                             \
    const dim3 grid_((unsigned)((lines_ + NAV_CUDA_THREADS - 1) / NAV_CUDA_THREADS));                 \
    NAV_CUDA_LAUNCH_DIR(B, DIR, KERNEL, grid_, NAV_CUDA_THREADS, 0, __VA_ARGS__);                    \
  } while (0)

template <int DIM, int DIR>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_relax_line_kernel(nav_box box, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int colour,
                          int lo_kind, int hi_kind, nav_real omega) {
  NAV_CUDA_LINE(box, colour);
  nav_relax_line(b, x, rhs, cp, dd, p0, ijk, DIR, lo_kind, hi_kind, omega);
}

template <int DIM, int DIR>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_line_solve_kernel(nav_box box, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out,
                          int colour, int lo_kind, int hi_kind, int mode, nav_real *ends) {
  NAV_CUDA_LINE(box, colour);
  nav_line_solve(b, x, rhs, cp, out, p0, ijk, DIR, lo_kind, hi_kind, mode, ends ? ends + 2 * l : (nav_real *)0);
}

#define NAV_CUDA_LINE_MAX_THREADS 256 /* lines whose f' fits in shared memory */
#define NAV_CUDA_LINE_LONG_THREADS 512 /* lines whose f' lives in the scratch (nav_line_block_launch) */

/* One line per thread block (blockDim.x = nt threads): line (ka, kb) with kb = blockIdx.y and ka =
 * blockIdx.x (colour < 0) or the blockIdx.x-th index of the colour's parity. x is read in mode 0 only.
 * relax: x += omega d on the line (zebra relaxation; out unused); else out = d and, with ends,
 * ends[2 l], ends[2 l + 1] = d at the line's first and last cell (l = ka + n[oa] kb). Shared memory:
 * a, c, f (n each), then ra, rc, rf (2 nt each). */
template <int DIM, int DIR>
__global__ void __launch_bounds__(NAV_CUDA_LINE_LONG_THREADS)
    nav_line_block_kernel(nav_box box, nav_real *x, const nav_real *rhs, nav_real *out, nav_real *fglobal,
                          int colour, int lo_kind, int hi_kind, int mode, int relax, nav_real omega, nav_real *ends) {
  extern __shared__ nav_real nav_line_shared[];
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  const int dir = DIR;
  int oa, ob;
  nav_line_others(dir, &oa, &ob);
  const int kb = (int)blockIdx.y;
  const int ka = colour < 0 ? (int)blockIdx.x : 2 * (int)blockIdx.x + ((colour + b->g0[oa] + b->g0[ob] + kb) & 1);
  if (ka >= b->n[oa]) return; /* the whole block: no thread reaches a barrier */
  const int n = b->n[dir], t = (int)threadIdx.x, nt = (int)blockDim.x, S = nav_line_part_chunks(n, nt);
  /* f' in shared memory, or in the dense per-line scratch fglobal (long lines) */
  nav_real *a = nav_line_shared, *c = a + n, *f = fglobal ? fglobal + (ka + (long)b->n[oa] * kb) * n : c + n;
  nav_real *ra = fglobal ? c + n : f + n, *rc = ra + 2 * nt, *rf = rc + 2 * nt;
  int ijk[3] = {0, 0, 0};
  ijk[oa] = ka;
  ijk[ob] = kb;
  const nav_idx p0 = b->off + (nav_idx)ka * b->st[oa] + (nav_idx)kb * b->st[ob], s = b->st[dir];
  nav_line_part_load(b, x, rhs, p0, ijk, dir, lo_kind, hi_kind, mode, t, nt, a, c, f);
  __syncthreads();
  if (t < S) nav_line_part_reduce(a, c, f, n, S, t, ra, rc, rf);
  __syncthreads();
  const int m = 2 * S;
  for (int delta = 1; delta < m; delta *= 2) {
    nav_real r0[3], r1[3];
    if (t < S) {
      nav_line_part_pcr(ra, rc, rf, m, 2 * t, delta, &r0[0], &r0[1], &r0[2]);
      nav_line_part_pcr(ra, rc, rf, m, 2 * t + 1, delta, &r1[0], &r1[1], &r1[2]);
    }
    __syncthreads();
    if (t < S) {
      ra[2 * t] = r0[0], rc[2 * t] = r0[1], rf[2 * t] = r0[2];
      ra[2 * t + 1] = r1[0], rc[2 * t + 1] = r1[1], rf[2 * t + 1] = r1[2];
    }
    __syncthreads();
  }
  if (t < S) nav_line_part_expand(a, c, f, n, S, t, rf[2 * t], rf[2 * t + 1]);
  __syncthreads();
  for (int i = t; i < n; i += nt) {
    const nav_idx p = p0 + i * s;
    if (relax)
      x[p] += omega * f[i];
    else
      out[p] = f[i];
  }
  if (ends && t == 0) {
    const long l = ka + (long)b->n[oa] * kb;
    ends[2 * l] = f[0];
    ends[2 * l + 1] = f[n - 1];
  }
}

/* The block size of a line of n cells (nav_line_block_kernel) and its shared memory in bytes. */
static int nav_line_threads(int n) {
  int nt = 32;
  while (nt < NAV_CUDA_LINE_MAX_THREADS && 8 * nt < n) nt *= 2;
  return nt;
}
static size_t nav_line_shared_bytes(int n, int nt, int f_shared) {
  return ((2 + (size_t)f_shared) * n + 6 * (size_t)nt) * sizeof(nav_real);
}

/* The opt-in to more than 48 KB of dynamic shared memory of nav_line_block_kernel<DIM, DIR>, set to
 * the largest size asked so far (one device per process: one rank per GPU, DESIGN.md). */
template <int DIM, int DIR> static nav_err nav_line_block_optin(size_t bytes) {
  static size_t granted = 48 * 1024;
  if (bytes <= granted) return NAV_OK;
  NAV_CALL_CUDA(
      cudaFuncSetAttribute(nav_line_block_kernel<DIM, DIR>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  granted = bytes;
  return NAV_OK;
}

/* Launch nav_line_block_kernel on the lines of b along dir of the colour (colour < 0: all), f' in shared
 * memory or, when that does not fit, in scratch (a field of b: dense per line); *done = 0 (nothing
 * launched) when even a' and c' need more shared memory than the device gives a block. */
static nav_err nav_line_block_launch(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *out,
                                     nav_real *scratch, int dir, int colour, const int kind[2], int mode, int relax,
                                     nav_real omega, nav_real *ends, int *done) {
  static int optin = -1;
  *done = 0;
  if (optin < 0) {
    int dev = 0;
    NAV_CALL_CUDA(cudaGetDevice(&dev));
    NAV_CALL_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  }
  const int n = b->n[dir];
  int nt = nav_line_threads(n);
  const int f_shared = nav_line_shared_bytes(n, nt, 1) <= (size_t)optin;
  /* f' in the scratch: a' and c' take 2 n of the shared memory and leave one block per SM; twice the threads
   * (where their 6 nt reals still fit) halve the chunks that each thread eliminates and expands serially
   * (~47 rows of a 12000-cell line with 256 threads: dependent global loads and stores of f') and double the
   * warps resident per SM */
  if (!f_shared && nav_line_shared_bytes(n, NAV_CUDA_LINE_LONG_THREADS, 0) <= (size_t)optin)
    nt = NAV_CUDA_LINE_LONG_THREADS;
  const size_t bytes = nav_line_shared_bytes(n, nt, f_shared);
  if (bytes > (size_t)optin) return NAV_OK;
  nav_real *fglobal = f_shared ? NULL : scratch;
  if (b->dim == 2)
    NAV_CALL(dir == 0 ? nav_line_block_optin<2, 0>(bytes) : nav_line_block_optin<2, 1>(bytes));
  else
    NAV_CALL(dir == 0   ? nav_line_block_optin<3, 0>(bytes)
             : dir == 1 ? nav_line_block_optin<3, 1>(bytes)
                        : nav_line_block_optin<3, 2>(bytes));
  int oa, ob;
  nav_line_others(dir, &oa, &ob);
  const dim3 grid((unsigned)(colour < 0 ? b->n[oa] : (b->n[oa] + 1) / 2), (unsigned)b->n[ob]);
  NAV_CUDA_LAUNCH_DIR(b, dir, nav_line_block_kernel, grid, nt, bytes, *b, x, rhs, out, fglobal, colour, kind[0],
                      kind[1], mode, relax, omega, ends);
  *done = 1;
  return NAV_OK;
}

nav_err nav_relax_line_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                            int colour, const int kind[2], nav_real omega) {
  int done;
  NAV_CALL(nav_line_block_launch(b, x, rhs, NULL, cp, dir, colour, kind, 0, 1, omega, NULL, &done));
  if (!done)
    NAV_CUDA_LAUNCH_LINES(b, dir, nav_relax_line_kernel, *b, x, rhs, cp, dd, colour, kind[0], kind[1], omega);
  return NAV_OK;
}

nav_err nav_line_solve_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out,
                            int dir, int colour, const int kind[2], int mode, nav_real *ends) {
  int done;
  NAV_CALL(nav_line_block_launch(b, (nav_real *)x, rhs, out, cp, dir, colour, kind, mode, 0, 0, ends, &done));
  if (!done)
    NAV_CUDA_LAUNCH_LINES(b, dir, nav_line_solve_kernel, *b, x, rhs, cp, out, colour, kind[0], kind[1], mode, ends);
  return NAV_OK;
}

/* One thread per cell: the cell's line (ka, kb) = its indices in the other two directions. */
template <int DIM, int DIR>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_line_update_kernel(nav_box box, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                           const nav_real *coef, int colour, nav_real omega) {
  NAV_CUDA_INTERIOR(box);
  int oa, ob;
  nav_line_others(DIR, &oa, &ob);
  const int ka = ijk[oa], kb = ijk[ob];
  if (colour >= 0 && ((b->g0[oa] + ka + b->g0[ob] + kb) & 1) != colour) return;
  const long l = ka + (long)b->n[oa] * kb;
  nav_line_update_cell(x, dd, v, w, coef[2 * l], coef[2 * l + 1], p, omega);
}

nav_err nav_line_update_cuda(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                             const nav_real *coef, int dir, int colour, nav_real omega) {
  NAV_CUDA_LAUNCH_DIR(b, dir, nav_line_update_kernel, nav_cuda_grid(b), nav_cuda_block(), 0, *b, x, dd, v, w, coef, colour,
                      omega);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_jacobi_kernel(nav_box box, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag, nav_real *x_new,
                      nav_real omega) {
  NAV_CUDA_INTERIOR(box);
  x_new[p] = nav_relax(b, x, rhs, inv_diag, p, ijk, omega);
}

nav_err nav_jacobi_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                        nav_real *x_new, nav_real omega) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_jacobi_kernel, *b, x, rhs, inv_diag, x_new, omega);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_diag_scale_kernel(nav_box box, const nav_real *inv_diag, const nav_real *r, nav_real *z) {
  NAV_CUDA_INTERIOR(box);
  z[p] = r[p] * inv_diag[p];
}

nav_err nav_diag_scale_cuda(const nav_box *b, const nav_real *inv_diag, const nav_real *r, nav_real *z) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_diag_scale_kernel, *b, inv_diag, r, z);
  return NAV_OK;
}

/* One thread per COARSE cell: rhs = the restriction of r, or (x != NULL) of the fine residual r - L x
 * computed child by child (nav_restrict), which the fine level then neither writes nor reads back: at
 * 256^3 the residual kernel moved 3 fine arrays (x, b read, r written) and the restriction 1 + 1/8 (r
 * read), the fused kernel moves x and b (its stencil's neighbours come from the caches) and 1/8. */
template <int DIM, typename T, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_restrict_residual_kernel(nav_box fine, const T *r, const T *x, nav_box coarse, T *rhs) {
  const nav_box fl = nav_cuda_box_plain<DIM, PLAIN>(fine);
  NAV_CUDA_INTERIOR_PLAIN(coarse, PLAIN);
  rhs[p] = (T)nav_restrict(&fl, r, x, b, ijk);
}

/* r_or_b: the fine residual (x NULL) or the fine right-hand side (x given) */
static nav_err nav_restrict_launch(const nav_box *fine, const nav_real *r_or_b, const nav_real *x,
                                   const nav_box *coarse, nav_real *rhs) {
  NAV_CHECK(fine->lo == coarse->lo, NAV_ERR_INTERNAL, "restriction between levels of different precision");
  NAV_CUDA_LAUNCH_PLAIN(coarse, nav_box_plain(fine) && coarse->uniform, nav_cuda_grid(coarse), nav_restrict_residual_kernel,
                        *fine, (const nav_cuda_t *)r_or_b, (const nav_cuda_t *)x, *coarse, (nav_cuda_t *)rhs);
  return NAV_OK;
}

nav_err nav_restrict_residual_cuda(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs) {
  return nav_restrict_launch(fine, r, NULL, coarse, rhs);
}

nav_err nav_residual_restrict_cuda(const nav_box *fine, const nav_real *x, const nav_real *b, const nav_box *coarse,
                                   nav_real *rhs) {
  return nav_restrict_launch(fine, b, x, coarse, rhs);
}

/* One thread per FINE cell. */
template <int DIM, typename T, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_prolong_add_kernel(nav_box coarse, const T *xc, nav_box fine, T *x, int kz) {
  const nav_box cl = nav_cuda_box_plain<DIM, PLAIN>(coarse);
  NAV_CUDA_INTERIOR_PLAIN(fine, PLAIN);
  nav_cuda_planes(b, ijk, kz, [&](nav_idx q) { x[q] = (T)(x[q] + nav_prolong(&cl, xc, b, ijk)); });
}

nav_err nav_prolong_add_cuda(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x) {
  NAV_CHECK(fine->lo == coarse->lo, NAV_ERR_INTERNAL, "prolongation between levels of different precision");
  const int kz = fine->dim == 3 ? nav_cuda_kz() : 1;
  NAV_CUDA_LAUNCH_PLAIN(fine, fine->uniform && coarse->uniform, nav_cuda_grid_kz(fine, fine->n[0], kz),
                        nav_prolong_add_kernel, *coarse, (const nav_cuda_t *)xc, *fine, (nav_cuda_t *)x, kz);
  return NAV_OK;
}

/* The multigrid table of this backend (registered in backend/nav_backend.c); entries in the order of
 * struct nav_mg_kernels (C++ designated initializers must follow it). */
extern "C" const nav_mg_kernels nav_mg_kernels_cuda = {
    .relax_first = nav_relax_first_cuda,
    .relax_sweep = nav_relax_sweep_cuda,
    .relax_line = nav_relax_line_cuda,
    .line_solve = nav_line_solve_cuda,
    .line_update = nav_line_update_cuda,
    .residual_restrict = nav_residual_restrict_cuda,
    .residual_lo = nav_residual_lo_cuda,
    .add_lo = nav_add_lo_cuda,
};
