/* The cuFFT LTO callbacks of the box transform (fft_callbacks.cu; used by nav_fft_box_cuda in
 * fft.cu): the arguments they read (one nav_fft_cb_info in device memory, cuFFT's caller_info), the 32-bit
 * division they split offsets with, and the LTO-IR fatbins the build embeds (embed_fft_callbacks.c, generated
 * by CMakeLists.txt from fft_callbacks.cu, one fatbin per callback: NAV_FFT_CB_PART). */
#ifndef NAV_FFT_CALLBACKS_H
#define NAV_FFT_CALLBACKS_H

#include <stddef.h>

#include "backend/common/nav_hd.h"
#include "navier/nav_types.h"

/* The callback a compilation of fft_callbacks.cu defines (NAV_FFT_CB_PART; all three where it is not set) and
 * their symbols (C++ linkage, not in a namespace: cuFFT declares the symbol in C++ to link it). */
#define NAV_FFT_CB_LOAD 1     /* forward plan, load: the gather of b */
#define NAV_FFT_CB_SPECTRUM 2 /* forward plan, store: the spectral division */
#define NAV_FFT_CB_STORE 3    /* inverse plan, store: the scatter to x */
#define NAV_FFT_CB_LOAD_SYMBOL "nav_fft_cb_load"
#define NAV_FFT_CB_SPECTRUM_SYMBOL "nav_fft_cb_spectrum"
#define NAV_FFT_CB_STORE_SYMBOL "nav_fft_cb_store"

/* n / d for every 32-bit n with one high multiply, a subtraction, an addition and two shifts, no division
 * (Granlund and Montgomery 1994, "Division by invariant integers using multiplication", fig. 4.1):
 *   l = ceil(log2 d), mul = floor(2^32 (2^l - d) / d) + 1,
 *   t = mulhi(mul, n), n / d = (t + ((n - t) >> s1)) >> s2, s1 = min(l, 1), s2 = max(l - 1, 0). */
typedef struct nav_fft_divmod {
  unsigned d, mul;
  int s1, s2;
} nav_fft_divmod;

/* d >= 1 */
static inline nav_fft_divmod nav_fft_divmod_make(unsigned d) {
  const int l = d > 1 ? 32 - __builtin_clz(d - 1) : 0; /* ceil(log2 d) */
  const nav_fft_divmod m = {d, (unsigned)((((1ull << l) - d) << 32) / d + 1), l < 1 ? l : 1, l > 1 ? l - 1 : 0};
  return m;
}

/* n / m.d for every 32-bit n (the high word of mul n is one multiply on the GPU; checked against the division for
 * every divisor up to 4096 and a spread of n in unit_fft_kinds) */
NAV_HD static inline unsigned nav_fft_div(nav_fft_divmod m, unsigned n) {
  const unsigned t = (unsigned)(((unsigned long long)m.mul * n) >> 32);
  return (t + ((n - t) >> m.s1)) >> m.s2;
}

/* The callbacks' arguments for one call of the box transform. Dense offset t of the m0 x m1 x m2 real array
 * (x fastest) -> box point (i, j, k) at b[off + i s0 + j s1 + k s2] and x[...] alike; half-spectrum offset
 * t = k0 + h0 (j1 + m1 j2), h0 = m0 / 2 + 1. */
typedef struct nav_fft_cb_info {
  const nav_real *b;            /* the right-hand side (load) */
  nav_real *x;                  /* the solution (inverse store); may be b */
  nav_idx off, s0, s1, s2;      /* the box's first cell and strides, the same for b and x */
  nav_fft_divmod m0, m1, h0;    /* division by m0, m1 and h0 */
  const nav_real *l0, *l1, *l2; /* the eigenvalues per direction (l2 NULL in 2D) */
  nav_real scale;               /* the round trip's normalisation */
  nav_real shift;               /* added to every b where shifted: (nav_real)(-*bsum / volume) */
  int shifted;
  int e0, e1, e2, m2; /* the even directions (dense index n at the box's nav_fft_even_from(n) along them), m2 */
} nav_fft_cb_info;

#ifdef __cplusplus
extern "C" {
#endif

/* The LTO-IR fatbins of the three callbacks (host memory), for cufftXtSetJITCallback. */
extern const unsigned char nav_fft_cb_load_fatbin[], nav_fft_cb_spectrum_fatbin[], nav_fft_cb_store_fatbin[];
extern const size_t nav_fft_cb_load_fatbin_size, nav_fft_cb_spectrum_fatbin_size, nav_fft_cb_store_fatbin_size;

#ifdef __cplusplus
}
#endif

#endif
