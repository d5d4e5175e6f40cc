/* Point functions of the FFT Poisson solver (solvers/poisson/fft.c): the spectral division and
 * the tridiagonal line solve, called by backend/cpu/fft.c and backend/cuda/fft.cu.
 *
 * After real-to-real transforms in every uniform direction the cell-centred Laplacian of
 * nav_point_poisson.h is diagonal there: mode (k0,k1,k2) has the eigenvalue
 * lam0[k0] + lam1[k1] + lam2[k2] (each one <= 0, scaled by the transforms' normalisation), so
 *     xhat = bhat / (lam0 + lam1 + lam2),   and 0 for the zero mode (sum exactly 0: the constant
 *                                           of a problem without Dirichlet face, the null space).
 * With one direction t left untransformed (stretched spacing), each line along t is the system
 *     a_i x_{i-1} + (b_i + s) x_i + c_i x_{i+1} = r_i,   i = 0..N-1,   a_0 = c_{N-1} = 0,
 * s the sum of the other directions' eigenvalues: the Thomas algorithm, which needs no pivoting
 * since the matrix is diagonally dominant (b_i <= -(a_i + c_i) <= 0, s <= 0). When s = 0 and the
 * direction has two Neumann faces (singular = 1) the matrix is singular and its right-hand side
 * compatible (zero mean): the last unknown is set to 0 and the first N-1 equations are solved (the
 * last one then holds up to round-off); the caller removes the mean afterwards.
 * Dense arrays: x fastest, m[0] x m[1] x m[2] values; a line along t starts at `first` with
 * stride `stride`. */
#ifndef NAV_POINT_FFT_H
#define NAV_POINT_FFT_H

#include "backend/common/nav_hd.h"
#include <math.h>

#include "backend/nav_kernels.h"

/* bhat / eigenvalue; the zero mode gives 0. */
NAV_HD static inline nav_real nav_fft_divide(nav_real bhat, nav_real lam) { return lam != 0 ? bhat / lam : 0; }

/* Solve the tridiagonal line in place (r -> x) with the scratch cp (same indexing as r). */
NAV_HD static inline void nav_fft_thomas(int N, nav_idx first, nav_idx stride, nav_real *r, nav_real *cp,
                                         const nav_real *a, const nav_real *bd, const nav_real *c, nav_real s,
                                         int singular) {
  const int pin = singular && s == 0;
  const int last = pin ? N - 2 : N - 1; /* the last equation eliminated */
  nav_real m = bd[0] + s;
  if (last >= 0) {
    cp[first] = c[0] / m;
    r[first] = r[first] / m;
  }
  for (int i = 1; i <= last; i++) {
    const nav_idx p = first + i * stride, q = p - stride;
    m = bd[i] + s - a[i] * cp[q];
    cp[p] = c[i] / m;
    r[p] = (r[p] - a[i] * r[q]) / m;
  }
  if (pin) r[first + (nav_idx)(N - 1) * stride] = 0;
  for (int i = N - 2; i >= 0; i--) {
    const nav_idx p = first + i * stride;
    r[p] -= cp[p] * r[p + stride];
  }
}

/* ---- the real-to-real transforms through a complex FFT (backends without r2r: cuFFT) ----------
 * Each kind of nav_fft_kind (FFTW's definitions) over N points of a line x (stride st) is one
 * complex FFT of length M with a pre- and a post-processing pass:
 *   DCT2, DST2, R2HC (forward): real input r_n (n < N), real-to-complex FFT (e^{-}), half spectrum
 *     Z_k (k <= N/2; Z_{N-k} = conj Z_k). Makhoul (1980): r_n = x_{src(n)}, src(n) = 2n for
 *     n < (N+1)/2, 2(N-1-n)+1 after; DCT2_k = 2 Re(e^{-i pi k/2N} Z_k). DST2_k = DCT2 of
 *     (-1)^n x_n at N-1-k. R2HC: r_n = x_n, the halfcomplex order of Z.
 *   DCT3, DST3, HC2R (inverse): half spectrum input V_k (k <= N/2, Hermitian), complex-to-real FFT
 *     (e^{+}), real output v_n. DCT3: V_k = e^{i pi k/2N} (x_k - i x_{N-k}) (x_N = 0), result
 *     y_{src(n)} = v_n. DST3_k = (-1)^k DCT3 of the reversed x. HC2R: V_k = r_k + i i_k.
 *   DCT4, DST4: complex input x_n e^{-i pi n/2N} padded with zeros to M = 2N, complex FFT (e^{-}),
 *     DCT4_k = 2 Re(e^{-i pi (2k+1)/4N} Z_k), DST4_k = -2 Im(...).
 * Complex values are interleaved (re, im) nav_real pairs; a spectrum line starts at Z with stride
 * zs (complex elements). Twiddles are computed in double. */

NAV_HD static inline int nav_fft_src(int n, int N) { return n < (N + 1) / 2 ? 2 * n : 2 * (N - 1 - n) + 1; }
/* n with src(n) = k */
NAV_HD static inline int nav_fft_src_inv(int k, int N) { return k % 2 == 0 ? k / 2 : N - 1 - (k - 1) / 2; }

/* Length of the complex FFT of kind over N points, and its class: 0 real-to-complex, 1
 * complex-to-real, 2 complex-to-complex. */
NAV_HD static inline int nav_fft_length(nav_fft_kind kind, int N) {
  return kind == NAV_FFT_DCT4 || kind == NAV_FFT_DST4 ? 2 * N : N;
}
NAV_HD static inline int nav_fft_class(nav_fft_kind kind) {
  return kind == NAV_FFT_DCT2 || kind == NAV_FFT_DST2 || kind == NAV_FFT_R2HC   ? 0
         : kind == NAV_FFT_DCT3 || kind == NAV_FFT_DST3 || kind == NAV_FFT_HC2R ? 1
                                                                                : 2;
}

/* Class 0: the real input r_n of the FFT, n < N. */
NAV_HD static inline nav_real nav_fft_pre_r2c(nav_fft_kind kind, int N, const nav_real *x, nav_idx st, int n) {
  if (kind == NAV_FFT_R2HC) return x[n * st];
  const int s = nav_fft_src(n, N);
  return kind == NAV_FFT_DST2 && (s & 1) ? -x[s * st] : x[s * st];
}

/* Class 0: output k < N from the half spectrum Z. */
NAV_HD static inline nav_real nav_fft_post_r2c(nav_fft_kind kind, int N, const nav_real *Z, nav_idx zs, int k) {
  if (kind == NAV_FFT_R2HC) return k <= N / 2 ? Z[2 * k * zs] : Z[2 * (N - k) * zs + 1];
  const int q = kind == NAV_FFT_DST2 ? N - 1 - k : k; /* q <= N/2 stored, else the conjugate of N - q */
  const double a = q <= N / 2 ? Z[2 * q * zs] : Z[2 * (N - q) * zs];
  const double b = q <= N / 2 ? Z[2 * q * zs + 1] : -Z[2 * (N - q) * zs + 1];
  const double t = 3.14159265358979323846 * q / (2.0 * N);
  return (nav_real)(2 * (a * cos(t) + b * sin(t)));
}

/* Class 1: the half-spectrum input V_k, k <= N/2, of the FFT. */
NAV_HD static inline void nav_fft_pre_c2r(nav_fft_kind kind, int N, const nav_real *x, nav_idx st, int k, nav_real *re,
                                          nav_real *im) {
  if (kind == NAV_FFT_HC2R) {
    *re = x[k * st];
    *im = k > 0 && 2 * k != N ? x[(N - k) * st] : 0;
    return;
  }
  double a, b; /* x_k and x_{N-k} of the (reversed for DST3) input */
  if (kind == NAV_FFT_DCT3) {
    a = x[k * st];
    b = k > 0 ? x[(N - k) * st] : 0;
  } else {
    a = x[(N - 1 - k) * st];
    b = k > 0 ? x[(k - 1) * st] : 0;
  }
  const double t = 3.14159265358979323846 * k / (2.0 * N);
  *re = (nav_real)(a * cos(t) + b * sin(t)); /* e^{it} (a - i b) */
  *im = (nav_real)(a * sin(t) - b * cos(t));
}

/* Class 1: output k < N from the real FFT output v (stride vs). */
NAV_HD static inline nav_real nav_fft_post_c2r(nav_fft_kind kind, int N, const nav_real *v, nav_idx vs, int k) {
  if (kind == NAV_FFT_HC2R) return v[k * vs];
  const nav_real y = v[nav_fft_src_inv(k, N) * vs];
  return kind == NAV_FFT_DST3 && (k & 1) ? -y : y;
}

/* Class 2: the complex input z_n, n < 2N. */
NAV_HD static inline void nav_fft_pre_c2c(int N, const nav_real *x, nav_idx st, int n, nav_real *re, nav_real *im) {
  if (n >= N) {
    *re = *im = 0;
    return;
  }
  const double t = 3.14159265358979323846 * n / (2.0 * N), v = x[n * st];
  *re = (nav_real)(v * cos(t));
  *im = (nav_real)(-v * sin(t));
}

/* Class 2: output k < N from the spectrum Z. */
NAV_HD static inline nav_real nav_fft_post_c2c(nav_fft_kind kind, int N, const nav_real *Z, nav_idx zs, int k) {
  const double t = 3.14159265358979323846 * (2 * k + 1) / (4.0 * N), a = Z[2 * k * zs], b = Z[2 * k * zs + 1];
  /* e^{-it} (a + i b) = (a cos t + b sin t) + i (b cos t - a sin t) */
  return (nav_real)(kind == NAV_FFT_DCT4 ? 2 * (a * cos(t) + b * sin(t)) : -2 * (b * cos(t) - a * sin(t)));
}

#endif
