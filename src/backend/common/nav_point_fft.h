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

/* ---- the whole box in one multi-dimensional real FFT (fft_box) -------------------------------
 * One rank, every direction periodic or with two Neumann faces ("even"). An even direction of N
 * cells is reordered as Makhoul (1980) does for the DCT-II,
 *     v(n) = x(2n)  (0 <= n < ceil(N/2)),   v(N-1-n) = x(2n+1),
 * and the DFT V of v gives the DCT-II  X(k) = sum_n x(n) cos(pi k (2n+1) / 2N)  (FFTW's REDFT10 / 2)
 * with w = exp(-i pi k / 2N) as
 *     X(k) = (w V(k) + conj(w) V(-k)) / 2,     X(N-k) = i (w V(k) - conj(w) V(-k)) / 2,       (1)
 * and back, X(N) = 0,
 *     V(k) = conj(w) (X(k) - i X(N-k)),        V(-k) = w (X(k) + i X(N-k)).                     (2)
 * (1) and (2) are linear in the data, so in several dimensions they apply one direction after the
 * other to the 2x2x2 block of spectrum values at (+-k0, +-k1, +-k2) (the orbit of a representative
 * 0 <= kd <= md/2): a real FFT of the reordered box, (1) per even direction, the division by the
 * eigenvalue of each mode, (2) per even direction, the inverse real FFT, the reordering undone.
 * A periodic direction needs no map (its X is its V). The round trip scales by m0 m1 m2, which is
 * the eigenvalues' normalisation S (nav_fft_direction: 2N per even, N per periodic direction)
 * divided by 2 per even direction: scale = 2^(even directions).
 * Block entry [s0][s1][s2] (re, im) holds the value at (s0 ? -k0 : k0, ...) before (1) and after (2),
 * and at (s0 ? N0-k0 : k0, ...) in between. */

/* Source of v(n) in an even direction of N cells (identity in a periodic one). */
NAV_HD static inline int nav_fft_even_from(int even, int n, int N) {
  return !even ? n : n < (N + 1) / 2 ? 2 * n : 2 * (N - 1 - n) + 1;
}

/* Position in v of x(i): the inverse of nav_fft_even_from. */
NAV_HD static inline int nav_fft_even_to(int even, int i, int N) {
  return !even ? i : i % 2 == 0 ? i / 2 : N - 1 - (i - 1) / 2;
}

/* The block of representative k from the half spectrum c (interleaved complex, h0 = m0/2 + 1 values
 * along x, x fastest): entries with s0 = 1 are the conjugates of stored ones (real data). */
NAV_HD static inline void nav_fft_block_get(const nav_real *c, const int m[3], const int k[3], nav_real blk[8][2]) {
  const nav_idx h0 = m[0] / 2 + 1;
  for (int s = 0; s < 8; s++) {
    const int s0 = s & 1, s1 = (s >> 1) & 1, s2 = s >> 2;
    const int j1 = (s1 != s0) ? (m[1] - k[1]) % m[1] : k[1], j2 = (s2 != s0) ? (m[2] - k[2]) % m[2] : k[2];
    const nav_real *z = c + 2 * (k[0] + h0 * (j1 + (nav_idx)m[1] * j2));
    blk[s][0] = z[0];
    blk[s][1] = s0 ? -z[1] : z[1];
  }
}

/* Store the s0 = 0 entries of the block back (those with s1 or s2 set go to -k1, -k2). */
NAV_HD static inline void nav_fft_block_put(nav_real *c, const int m[3], const int k[3], nav_real blk[8][2]) {
  const nav_idx h0 = m[0] / 2 + 1;
  for (int s = 0; s < 8; s += 2) {
    const int j1 = (s & 2) ? (m[1] - k[1]) % m[1] : k[1], j2 = (s & 4) ? (m[2] - k[2]) % m[2] : k[2];
    nav_real *z = c + 2 * (k[0] + h0 * (j1 + (nav_idx)m[1] * j2));
    z[0] = blk[s][0];
    z[1] = blk[s][1];
  }
}

/* Map (1) (fwd = 1) or (2) (fwd = 0) along direction d of the block; cs = cos, sn = sin(pi k / 2N). */
NAV_HD static inline void nav_fft_block_map(nav_real blk[8][2], int d, nav_real cs, nav_real sn, int fwd) {
  const int bit = 1 << d;
  for (int s = 0; s < 8; s++) {
    if (s & bit) continue;
    nav_real *a = blk[s], *b = blk[s | bit];
    if (fwd) { /* a = V(k), b = V(-k) -> a = X(k), b = X(N-k) */
      const nav_real pr = cs * a[0] + sn * a[1], pi = cs * a[1] - sn * a[0]; /* w V(k) */
      const nav_real qr = cs * b[0] - sn * b[1], qi = cs * b[1] + sn * b[0]; /* conj(w) V(-k) */
      a[0] = (pr + qr) / 2, a[1] = (pi + qi) / 2;
      b[0] = (qi - pi) / 2, b[1] = (pr - qr) / 2;
    } else { /* a = X(k), b = X(N-k) -> a = V(k), b = V(-k) */
      const nav_real dr = a[0] + b[1], di = a[1] - b[0]; /* X(k) - i X(N-k) */
      const nav_real er = a[0] - b[1], ei = a[1] + b[0]; /* X(k) + i X(N-k) */
      a[0] = cs * dr - sn * di, a[1] = cs * di + sn * dr;
      b[0] = cs * er + sn * ei, b[1] = cs * ei - sn * er;
    }
  }
}

/* The whole spectral step on the block of representative k: (1) along the even directions, the
 * division by lam0[i0] + lam1[i1] + lam2[i2] (i = k or N - k; the slots X(N) of an even direction
 * with k = 0 stay 0) times scale, (2) back. tw[d]: cos, sin of pi k / 2 m[d] for k = 0..m[d]/2
 * (interleaved; NULL in a periodic direction); lam[2] NULL in 2D. */
NAV_HD static inline void nav_fft_block_solve(nav_real blk[8][2], const int m[3], const int k[3],
                                              const nav_real *const tw[3], const nav_real *const lam[3],
                                              nav_real scale) {
  for (int d = 0; d < 3; d++)
    if (tw[d]) nav_fft_block_map(blk, d, tw[d][2 * k[d]], tw[d][2 * k[d] + 1], 1);
  for (int s = 0; s < 8; s++) {
    nav_real l = 0;
    int empty = 0;
    for (int d = 0; d < 3; d++) {
      const int flip = (s >> d) & 1, i = flip ? (m[d] - k[d]) % m[d] : k[d];
      if (tw[d] && flip && k[d] == 0) empty = 1;
      if (lam[d]) l += lam[d][i];
    }
    blk[s][0] = empty ? 0 : nav_fft_divide(blk[s][0], l) * scale;
    blk[s][1] = empty ? 0 : nav_fft_divide(blk[s][1], l) * scale;
  }
  for (int d = 0; d < 3; d++)
    if (tw[d]) nav_fft_block_map(blk, d, tw[d][2 * k[d]], tw[d][2 * k[d] + 1], 0);
}

#endif
