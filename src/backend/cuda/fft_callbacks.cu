/* cuFFT LTO callbacks of the box transform (fft_box, nav_fft_box_cuda in fft.cu): the gather of b into the dense
 * array and the scatter to x, and where every direction is periodic the spectral division, run inside cuFFT's two
 * transforms, where the fallback path runs them as passes of their own (nav_fft_box_copy_kernel twice and
 * nav_fft_box_periodic_kernel), with the same values, computed by the same operations in the same order. (cuFFT
 * may pick other kernels for a plan with callbacks than for one without: the solutions of the two paths agree to
 * round-off, not necessarily bit for bit.)
 *
 * Contract (m0 x m1 x m2 box, m2 = 1 in 2D; info: the nav_fft_cb_info of fft_callbacks.h, cuFFT's caller_info,
 * in device memory, written on the stream before each forward transform):
 *   forward plan (real-to-complex, out of place):
 *     load  nav_fft_cb_load      offset t = i + m0 (j + m1 k) of the dense real input (x fastest): returns
 *                                b[off + i' s0 + j' s1 + k' s2], plus shift where shifted (what the gather copy
 *                                writes at t; i' = nav_fft_even_from(e0, i, m0), j', k' alike: i' = i along a
 *                                periodic direction); the plan's input array is not read.
 *     store nav_fft_cb_spectrum  offset t = k0 + h0 (j1 + m1 j2), h0 = m0 / 2 + 1, of the half spectrum, set
 *                                only where every direction is periodic: writes the coefficient z divided by
 *                                l = l0[k0] + l1[j1] (+ l2[j2]) (nav_fft_divide: 0 for the zero mode) times
 *                                scale, re and im alike, at the plan's output[t].
 *   inverse plan (complex-to-real, out of place):
 *     store nav_fft_cb_store     offset t as the load's: writes the value at x[off + i' s0 + j' s1 + k' s2];
 *                                the plan's output array is not written by the callback (cuFFT may use it as
 *                                scratch in between: it must be a dense m0 m1 m2 array all the same).
 * Offsets are split in 32 bits (nav_fft_div, no division): the box has fewer than 2^32 points (fft.cu uses the
 * callbacks only then).
 *
 * cuFFT's rules (cufftXt.h, cufftXtSetJITCallback): the signatures of cufftJITCallbackLoadD/R and
 * cufftJITCallbackStoreZ/C/D/R (an unsigned long long offset); the callbacks are set on a plan after
 * cufftCreate and before it is made, and cannot be cleared; cuFFT declares the named symbol in C++ and links it
 * into its kernels with nvJitLink at plan time, so the functions keep C++ linkage outside any namespace. The
 * build compiles this file to LTO-IR (nvcc -dc -fatbin, code=lto_XX per architecture), once per callback
 * (NAV_FFT_CB_PART), so that each fatbin defines one external symbol: a plan with a load and a store callback
 * links two fatbins, which must not define the same function twice. */
#include <cufftXt.h>

#include "backend/common/nav_point_fft.h"
#include "backend/cuda/fft_callbacks.h"

#ifdef NAV_SINGLE_PRECISION
typedef cufftReal nav_cufft_real;
typedef cufftComplex nav_cufft_complex;
#else
typedef cufftDoubleReal nav_cufft_real;
typedef cufftDoubleComplex nav_cufft_complex;
#endif

#ifndef NAV_FFT_CB_PART
#define NAV_FFT_CB_ALL 1
#else
#define NAV_FFT_CB_ALL 0
#endif

/* (i, j, k) of the offset t of an r0 x m1 x ... array (x fastest; r0 = m0 or h0) */
static __device__ __forceinline__ void nav_fft_cb_ijk(const nav_fft_cb_info *p, nav_fft_divmod r0, unsigned t,
                                                      unsigned *i, unsigned *j, unsigned *k) {
  const unsigned q = nav_fft_div(r0, t), z = nav_fft_div(p->m1, q);
  *i = t - q * r0.d;
  *j = q - z * p->m1.d;
  *k = z;
}

#if NAV_FFT_CB_ALL || NAV_FFT_CB_PART != NAV_FFT_CB_SPECTRUM
/* the box point of dense offset t (along an even direction the dense index n is the box's nav_fft_even_from(n):
 * the order of nav_fft_box_copy_kernel) */
static __device__ __forceinline__ nav_idx nav_fft_cb_at(const nav_fft_cb_info *p, unsigned t) {
  unsigned i, j, k;
  nav_fft_cb_ijk(p, p->m0, t, &i, &j, &k);
  const int bi = nav_fft_even_from(p->e0, (int)i, (int)p->m0.d), bj = nav_fft_even_from(p->e1, (int)j, (int)p->m1.d);
  const int bk = nav_fft_even_from(p->e2, (int)k, p->m2);
  return p->off + bi * p->s0 + bj * p->s1 + bk * p->s2;
}
#endif

#if NAV_FFT_CB_ALL || NAV_FFT_CB_PART == NAV_FFT_CB_LOAD
__device__ nav_cufft_real nav_fft_cb_load(void *in, unsigned long long t, void *info, void *shared) {
  (void)in, (void)shared;
  const nav_fft_cb_info *p = (const nav_fft_cb_info *)info;
  const nav_real v = p->b[nav_fft_cb_at(p, (unsigned)t)];
  return p->shifted ? v + p->shift : v;
}
#endif

#if NAV_FFT_CB_ALL || NAV_FFT_CB_PART == NAV_FFT_CB_SPECTRUM
/* nav_fft_box_periodic_kernel's division, operation for operation */
__device__ void nav_fft_cb_spectrum(void *out, unsigned long long t, nav_cufft_complex z, void *info, void *shared) {
  (void)shared;
  const nav_fft_cb_info *p = (const nav_fft_cb_info *)info;
  unsigned k0, j1, j2;
  nav_fft_cb_ijk(p, p->h0, (unsigned)t, &k0, &j1, &j2);
  nav_real l = p->l0[k0] + p->l1[j1];
  if (p->l2) l += p->l2[j2];
  z.x = nav_fft_divide(z.x, l) * p->scale;
  z.y = nav_fft_divide(z.y, l) * p->scale;
  ((nav_cufft_complex *)out)[t] = z;
}
#endif

#if NAV_FFT_CB_ALL || NAV_FFT_CB_PART == NAV_FFT_CB_STORE
__device__ void nav_fft_cb_store(void *out, unsigned long long t, nav_cufft_real v, void *info, void *shared) {
  (void)out, (void)shared;
  const nav_fft_cb_info *p = (const nav_fft_cb_info *)info;
  p->x[nav_fft_cb_at(p, (unsigned)t)] = v;
}
#endif
