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

#include "backend/nav_fft_kernels.h"

/* bhat / eigenvalue; the zero mode gives 0. */
NAV_HD static inline nav_real nav_fft_divide(nav_real bhat, nav_real lam) { return lam != 0 ? bhat / lam : 0; }

/* Solve the tridiagonal line in place (r -> x) with the scratch cp (same indexing as r): the Thomas algorithm,
 *   forward  m_0 = b_0 + s, c'_0 = c_0 / m_0, r'_0 = r_0 / m_0;
 *            m_i = b_i + s - a_i c'_{i-1}, c'_i = c_i / m_i, r'_i = (r_i - a_i r'_{i-1}) / m_i,
 *   backward x_i = r'_i - c'_i x_{i+1},
 * where singular and s == 0 (two Neumann faces, the zero mode) the last row pinned: x_{N-1} = 0, its equation
 * left out. The line's values are read NAV_FFT_THOMAS_AHEAD at a time before they are used, so that a GPU
 * thread has that many loads in flight (its line is a chain of dependent steps); the arithmetic is the same. */
#define NAV_FFT_THOMAS_AHEAD 8
NAV_HD static inline void nav_fft_thomas(int N, nav_idx first, nav_idx stride, nav_real *r, nav_real *cp,
                                         const nav_real *a, const nav_real *bd, const nav_real *c, nav_real s,
                                         int singular) {
  const int pin = singular && s == 0;
  const int last = pin ? N - 2 : N - 1; /* the last equation eliminated */
  nav_real cq = 0, rq = 0;              /* c'_{i-1}, r'_{i-1} */
  for (int i0 = 0; i0 <= last; i0 += NAV_FFT_THOMAS_AHEAD) {
    nav_real v[NAV_FFT_THOMAS_AHEAD] = {0};
    NAV_UNROLL for (int u = 0; u < NAV_FFT_THOMAS_AHEAD; u++)
      if (i0 + u <= last) v[u] = r[first + (i0 + u) * stride];
    NAV_UNROLL for (int u = 0; u < NAV_FFT_THOMAS_AHEAD; u++) {
      const int i = i0 + u;
      if (i > last) break;
      const nav_idx p = first + i * stride;
      const nav_real m = i == 0 ? bd[0] + s : bd[i] + s - a[i] * cq;
      cq = c[i] / m;
      rq = i == 0 ? v[u] / m : (v[u] - a[i] * rq) / m;
      cp[p] = cq;
      r[p] = rq;
    }
  }
  if (pin && N > 0) r[first + (nav_idx)(N - 1) * stride] = 0;
  nav_real xq = pin ? 0 : rq; /* x_{i+1} */
  for (int i0 = N - 2; i0 >= 0; i0 -= NAV_FFT_THOMAS_AHEAD) {
    nav_real v[NAV_FFT_THOMAS_AHEAD] = {0}, w[NAV_FFT_THOMAS_AHEAD] = {0};
    NAV_UNROLL for (int u = 0; u < NAV_FFT_THOMAS_AHEAD; u++)
      if (i0 - u >= 0) {
        v[u] = r[first + (i0 - u) * stride];
        w[u] = cp[first + (i0 - u) * stride];
      }
    NAV_UNROLL for (int u = 0; u < NAV_FFT_THOMAS_AHEAD; u++) {
      if (i0 - u < 0) break;
      xq = v[u] - w[u] * xq;
      r[first + (i0 - u) * stride] = xq;
    }
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

/* Entries s < n of a block whose array has room for N: on nvcc a loop of constant trip count N with a
 * guard, unrolled fully, so that the block's arrays are indexed with constants and stay in registers
 * (a loop bounded by n kept them in local memory: 688-848 bytes of stack per thread of the slab kernels). */
#ifdef __CUDACC__
#define NAV_FOR_ENTRY(s, N, n) _Pragma("unroll") for (int s = 0; s < (N); s++) if (s < (n))
#else
#define NAV_FOR_ENTRY(s, N, n) for (int s = 0; s < (n); s++)
#endif

/* The block of representative k from the half spectrum c (interleaved complex, h0 = m0/2 + 1 values
 * along x, x fastest): entries with s0 = 1 are the conjugates of stored ones (real data). ns: the
 * entries, 8 in a box, 4 (2) in a plane of a 3D (2D) slab (m[2] = 1, k[2] = 0; "slabs" below). */
NAV_HD static inline void nav_fft_block_get(const nav_real *c, const int m[3], const int k[3], nav_real blk[8][2],
                                           int ns) {
  const nav_idx h0 = m[0] / 2 + 1;
  NAV_FOR_ENTRY(s, 8, ns) {
    const int s0 = s & 1, s1 = (s >> 1) & 1, s2 = s >> 2;
    const int j1 = (s1 != s0) ? (m[1] - k[1]) % m[1] : k[1], j2 = (s2 != s0) ? (m[2] - k[2]) % m[2] : k[2];
    const nav_real *z = c + 2 * (k[0] + h0 * (j1 + (nav_idx)m[1] * j2));
    blk[s][0] = z[0];
    blk[s][1] = s0 ? -z[1] : z[1];
  }
}

/* Store the s0 = 0 entries of the block back (those with s1 or s2 set go to -k1, -k2). */
NAV_HD static inline void nav_fft_block_put(nav_real *c, const int m[3], const int k[3], nav_real blk[8][2], int ns) {
  const nav_idx h0 = m[0] / 2 + 1;
  NAV_UNROLL for (int s = 0; s < 8; s += 2) {
    if (s >= ns) continue;
    const int j1 = (s & 2) ? (m[1] - k[1]) % m[1] : k[1], j2 = (s & 4) ? (m[2] - k[2]) % m[2] : k[2];
    nav_real *z = c + 2 * (k[0] + h0 * (j1 + (nav_idx)m[1] * j2));
    z[0] = blk[s][0];
    z[1] = blk[s][1];
  }
}

/* Map (1) (fwd = 1) or (2) (fwd = 0) along direction d of the block; cs = cos, sn = sin(pi k / 2N). */
NAV_HD static inline void nav_fft_block_map(nav_real blk[8][2], int ns, int d, nav_real cs, nav_real sn, int fwd) {
  const int bit = 1 << d;
  NAV_FOR_ENTRY(s, 8, ns) {
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
    if (tw[d]) nav_fft_block_map(blk, 8, d, tw[d][2 * k[d]], tw[d][2 * k[d] + 1], 1);
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
    if (tw[d]) nav_fft_block_map(blk, 8, d, tw[d][2 * k[d]], tw[d][2 * k[d] + 1], 0);
}


/* ---- slabs: the box over the plane directions, tridiagonal lines split over ranks -----------
 * The ranks split only the last direction z (= dim - 1; fft.c "slabs"). Each plane of a rank's block
 * is transformed as the box is (one real FFT per plane, the even directions reordered), and the
 * block of a representative (k0 <= m0/2, k1 <= m1/2) in a plane has ns = 2^(dim-1) entries: after map
 * (1) entry s holds the coefficient of the mode (k0 or m0 - k0, k1 or m1 - k1), whose line along z
 * obeys the tridiagonal rows a, b + lam_s, c of L_z (times S; lam_s the sum of the plane directions'
 * eigenvalues; real and imaginary part alike, or, where every plane direction is even, the real part alone:
 * the X form is then the real DCT coefficients, nq = 1).
 *
 * The partition method, on two levels. A rank's rows are cut into chunks of consecutive rows (a
 * thread each on a GPU: enough threads to keep the memory busy). On a piece of a line (a chunk, or
 * a rank's part) with rows T and the values X, Y of the rows just before and after it,
 *     x = g + p X + q Y,   g = T^-1 d,  p = T^-1 (-a_first e_first),  q = T^-1 (-c_last e_last)
 * (a = 0 on the first global row, c = 0 on the last): the piece's "ends" are g, p, q at its first
 * row (g0, p0, q0) and its last (gl, pl, ql), from one forward elimination that stores nothing
 * (nav_fft_slab_ends): with d' the eliminated right-hand side and c' the eliminated upper diagonal, the
 * back substitution x_i = d'_i - c'_i x_{i+1} gives the last row as d'_last and the first as
 * sum_i w_i d'_i, w_i = prod_{j<i} (-c'_j), summed on the way down (|c'| < 1: w decays). A chain of
 * pieces, each F_r = g0 + p0 L_{r-1} + q0 F_{r+1} and
 * L_r = gl + pl L_{r-1} + ql F_{r+1} (F, L: the piece's first and last row), is solved by one sweep
 * forward, F_r = al_r + be_r F_{r+1}, L_r = ga_r + de_r F_{r+1}, and one back; composed, it is one
 * piece with ends of the same form (nav_fft_slab_compose). So: the chunks' ends, composed into the
 * rank's; every rank's ends gathered (fft.c); the rank's X, Y from the chain of ranks
 * (nav_fft_slab_xy); the chunks' X, Y from the chain of chunks (nav_fft_slab_chunk_xy); each chunk's
 * rows solved with its X, Y on the right-hand side (nav_fft_slab_solve). The reduced systems are
 * Schur complements of a diagonally dominant matrix: no pivoting. With two Neumann faces the line of
 * eigenvalue 0 is singular: the last chunk of the rank with the last global row pins it to 0 there
 * (as nav_fft_thomas); the solver removes the mean afterwards. */

/* Values per entry in an ends array: g0 (re, im), gl (re, im), p0, pl, q0, ql. */
#define NAV_FFT_SLAB_ENDS 8

/* The mean of a singular problem (two Neumann faces along z, the others periodic or even: the lines are
 * pinned, above). The solvers' semantics: b's mean is removed (b - s, s = sum b dV / volume) and x gets
 * zero mean. Both touch only the (0, 0) line (entry 0 of representative 0, real part, in the X form too;
 * where y is periodic entry 2 is the same mode): a constant plane c is c n0 n1 there, so a constant shift
 * of b moves that line's right-hand side by sigma = n0 n1 s, and a constant field is a constant on it (the
 * null space). With y the pinned line's solution for the data as they are and v1 the pinned solution for
 * a right-hand side of ones (fft.c, once), the line wanted is, by linearity,
 *     y - sigma v1 - c,   c = (sum_z y dz) / W - sigma M1   (W = sum dz, M1 = sum v1 dz / W),
 * and no pass over the field, no host wait. sum_z y dz over the ranks comes with the ends: on rank r,
 * y = g_r + p_r X_r + q_r Y_r (its piece), so
 *     sum_{z in r} y dz = Gw_r + Pw_r X_r + Qw_r Y_r,   Gw_r = u_r . d_r,   u_r = T_r^-T dz (fft.c, once),
 * Pw_r = u_r . (-a_first e_first), Qw_r = u_r . (-c_last e_last): each rank adds Gw_r (the only part of its
 * data d_r) and its sum of b dV to its ends (NAV_FFT_SLAB_SUMS values after them), and nav_fft_slab_mean
 * sums the chain after the ends' exchange, with the X_r, Y_r of every rank, in one sweep forward. */
#define NAV_FFT_SLAB_SUMS 2

/* A rank's part of the gathered ends: its lines' ends, then its sums. */
NAV_HD static inline nav_idx nav_fft_slab_part(const nav_fft_slab *sl) {
  return (nav_idx)sl->reps * sl->ns * NAV_FFT_SLAB_ENDS + NAV_FFT_SLAB_SUMS;
}

/* The (0, 0) line's value in local plane z of the half spectrum c (its real part, the same in the X form). */
NAV_HD static inline nav_real nav_fft_slab_dc(const nav_fft_slab *sl, const nav_real *c, int z) {
  return c[2 * (nav_idx)(sl->m[0] / 2 + 1) * (sl->dim == 3 ? sl->m[1] : 1) * z];
}

/* Chunk h of the rank's rows: its first local row and its rows (the rows split as evenly as the
 * chunk count allows; fft.c makes every chunk at least 3 rows). */
NAV_HD static inline void nav_fft_slab_chunk(const nav_fft_slab *sl, int h, int *z0, int *mz) {
  const int rows = sl->dim == 3 ? sl->m[2] : sl->m[1], base = rows / sl->chunks, rem = rows % sl->chunks;
  *z0 = h * base + (h < rem ? h : rem);
  *mz = base + (h < rem);
}

/* The even directions of the slab's planes (the box's reordering copies; z, the lines' direction, is not). */
NAV_HD static inline void nav_fft_slab_even(const nav_fft_slab *sl, int e[3]) {
  e[0] = sl->tw[0] != NULL, e[1] = sl->dim == 3 && sl->tw[1] != NULL, e[2] = 0;
}

/* The plane block's shape: m and k as nav_fft_block_get takes them for plane use. */
NAV_HD static inline void nav_fft_slab_plane(const nav_fft_slab *sl, int rep, int pm[3], int k[3]) {
  const int r0 = sl->m[0] / 2 + 1;
  pm[0] = sl->m[0], pm[1] = sl->dim == 3 ? sl->m[1] : 1, pm[2] = 1;
  k[0] = rep % r0, k[1] = rep / r0, k[2] = 0;
}

/* Entry s's eigenvalue sum; *empty: a slot X(N) of an even direction at k = 0 (stays 0). */
NAV_HD static inline nav_real nav_fft_slab_lambda(const nav_fft_slab *sl, const int pm[3], const int k[3], int s,
                                                  int *empty) {
  nav_real l = 0;
  *empty = 0;
  NAV_UNROLL for (int d = 0; d < 2; d++) if (d + 1 < sl->dim) {
    const int flip = (s >> d) & 1, i = flip ? (pm[d] - k[d]) % pm[d] : k[d];
    if (sl->tw[d] && flip && k[d] == 0) *empty = 1;
    l += sl->lam[d][i];
  }
  return l;
}

/* The two slots of a plane that hold representative k's block, found once per thread (the sweeps then read and
 * write plane after plane without the index arithmetic of nav_fft_block_get): slot[0] at k1, slot[1] at -k1 (in
 * 2D both at k0). Entry s of the block is the value in slot[nav_fft_slab_of(s)], conjugated where s0 = 1. */
NAV_HD static inline int nav_fft_slab_of(int s) { return (s & 1) != ((s >> 1) & 1); }

NAV_HD static inline void nav_fft_slab_slots(const int pm[3], const int k[3], nav_idx slot[2]) {
  const nav_idx h0 = pm[0] / 2 + 1;
  slot[0] = k[0] + h0 * k[1];
  slot[1] = k[0] + h0 * ((pm[1] - k[1]) % pm[1]);
}

/* Reading a sweep's planes (nav_fft_slab_ends, nav_fft_slab_solve): n planes from z0, step dz; per plane the two
 * slots' values and, where cpz is given, the c' of the thread's lines (cpz[z][rep][s], the back substitution).
 * On the host plane after plane. On a GPU the copies are issued NAV_FFT_SLAB_AHEAD planes ahead, asynchronously
 * (cp.async), into the thread's own ring of NAV_FFT_SLAB_AHEAD + 1 stages in shared memory (the stage refilled is
 * the one read the plane before, whose values are in registers by then): a thread holds a whole block (134-154
 * registers, 12 warps per SM), and with the next plane only in flight it waited on its loads, 70 % of the issue
 * slots empty (ncu, 256^3, docs/performance.md). ring: NAV_FFT_SLAB_RING values, the thread block's
 * (NAV_FFT_SLAB_THREADS threads), NULL on the host. */
#ifndef NAV_FFT_SLAB_THREADS /* (a compile-time choice, -D, for measuring) */
#define NAV_FFT_SLAB_THREADS 128
#endif
#ifndef NAV_FFT_SLAB_AHEAD
#define NAV_FFT_SLAB_AHEAD 4
#endif
#define NAV_FFT_SLAB_RING ((NAV_FFT_SLAB_AHEAD + 1) * 4 * NAV_FFT_SLAB_THREADS * 2)
typedef struct nav_fft_slab_reader {
  const nav_real *c, *cpz;
  nav_idx plane, slot[2], cpz_at, cpz_row; /* complex values per plane; c' of row z at cpz_at + z cpz_row */
  int z0, dz, n, i;                        /* the sweep's planes, and the next one read */
  int ns;
  nav_real *ring;
} nav_fft_slab_reader;

#ifdef __CUDA_ARCH__
#include <cuda_pipeline.h>
/* value v (0, 1: the slots; 2, 3: pairs of c') of stage q of this thread */
__device__ static inline nav_real *nav_fft_slab_stage(const nav_fft_slab_reader *rd, int q, int v) {
  return rd->ring + 2 * (((nav_idx)q * 4 + v) * NAV_FFT_SLAB_THREADS + threadIdx.x);
}

/* Issue the copies of the sweep's plane i (none past the last) as one commit group. */
__device__ static inline void nav_fft_slab_fetch(const nav_fft_slab_reader *rd, int i) {
  if (i < rd->n) {
    const int z = rd->z0 + i * rd->dz, q = i % (NAV_FFT_SLAB_AHEAD + 1);
    const nav_real *cz = rd->c + 2 * rd->plane * z;
    for (int u = 0; u < 2; u++)
      __pipeline_memcpy_async(nav_fft_slab_stage(rd, q, u), cz + 2 * rd->slot[u], 2 * sizeof(nav_real));
    if (rd->cpz)
      for (int u = 0; u < rd->ns / 2; u++)
        __pipeline_memcpy_async(nav_fft_slab_stage(rd, q, 2 + u), rd->cpz + rd->cpz_at + z * rd->cpz_row + 2 * u,
                                2 * sizeof(nav_real));
  }
  __pipeline_commit();
}
#endif

/* The reader of representative rep's planes (pm, k: nav_fft_slab_plane) in the spectrum c, with the c' cpz
 * (or NULL). */
NAV_HD static inline void nav_fft_slab_reader_init(nav_fft_slab_reader *rd, const nav_fft_slab *sl, const nav_real *c,
                                                   const nav_real *cpz, int rep, const int pm[3], const int k[3],
                                                   nav_real *ring) {
  rd->c = c, rd->cpz = cpz, rd->ring = ring, rd->ns = sl->ns;
  rd->plane = (nav_idx)(pm[0] / 2 + 1) * pm[1];
  nav_fft_slab_slots(pm, k, rd->slot);
  rd->cpz_at = (nav_idx)rep * sl->ns, rd->cpz_row = (nav_idx)sl->reps * sl->ns;
}

NAV_HD static inline void nav_fft_slab_begin(nav_fft_slab_reader *rd, int z0, int dz, int n) {
  rd->z0 = z0, rd->dz = dz, rd->n = n, rd->i = 0;
#ifdef __CUDA_ARCH__
  for (int i = 0; i < NAV_FFT_SLAB_AHEAD; i++) nav_fft_slab_fetch(rd, i);
#endif
}

/* The sweep's next plane: the block of the thread's representative in X form (map (1) along the even plane
 * directions) and, with cpz, the c' of its ns lines. */
NAV_HD static inline void nav_fft_slab_read(nav_fft_slab_reader *rd, const nav_fft_slab *sl, const int k[3],
                                            nav_real blk[8][2], nav_real cp[4]) {
  nav_real v[2][2];
#ifdef __CUDA_ARCH__
  __pipeline_wait_prior(NAV_FFT_SLAB_AHEAD - 1);
  const int q = rd->i % (NAV_FFT_SLAB_AHEAD + 1);
  NAV_UNROLL for (int u = 0; u < 2; u++) {
    const nav_real *w = nav_fft_slab_stage(rd, q, u);
    v[u][0] = w[0], v[u][1] = w[1];
  }
  if (rd->cpz) NAV_FOR_ENTRY(s, 4, sl->ns) cp[s] = nav_fft_slab_stage(rd, q, 2 + s / 2)[s & 1];
  nav_fft_slab_fetch(rd, rd->i + NAV_FFT_SLAB_AHEAD);
#else
  const int z = rd->z0 + rd->i * rd->dz;
  const nav_real *cz = rd->c + 2 * rd->plane * z;
  for (int u = 0; u < 2; u++) v[u][0] = cz[2 * rd->slot[u]], v[u][1] = cz[2 * rd->slot[u] + 1];
  if (rd->cpz) NAV_FOR_ENTRY(s, 4, sl->ns) cp[s] = rd->cpz[rd->cpz_at + z * rd->cpz_row + s];
#endif
  rd->i++;
  NAV_FOR_ENTRY(s, 4, sl->ns) {
    const int u = nav_fft_slab_of(s);
    blk[s][0] = v[u][0];
    blk[s][1] = (s & 1) ? -v[u][1] : v[u][1];
  }
  NAV_UNROLL for (int d = 0; d < 2; d++) if (d + 1 < sl->dim)
    if (sl->tw[d]) nav_fft_block_map(blk, sl->ns, d, sl->tw[d][2 * k[d]], sl->tw[d][2 * k[d] + 1], 1);
}

/* The X form back into plane z (map (2)); the entries with s0 = 0 are the stored ones. */
NAV_HD static inline void nav_fft_slab_put(const nav_fft_slab *sl, nav_real *c, nav_idx plane, const nav_idx slot[2],
                                           const int k[3], int z, nav_real blk[8][2]) {
  NAV_UNROLL for (int d = 0; d < 2; d++) if (d + 1 < sl->dim)
    if (sl->tw[d]) nav_fft_block_map(blk, sl->ns, d, sl->tw[d][2 * k[d]], sl->tw[d][2 * k[d] + 1], 0);
  nav_real *cz = c + 2 * plane * z;
  NAV_FOR_ENTRY(s, 4, sl->ns) {
    if (s & 1) continue;
    cz[2 * slot[nav_fft_slab_of(s)]] = blk[s][0];
    cz[2 * slot[nav_fft_slab_of(s)] + 1] = blk[s][1];
  }
}

/* The last row (relative to the chunk) of the line of eigenvalue lam in chunk h of mz rows: mz - 2
 * where the line is pinned (its row mz - 1 is 0). */
NAV_HD static inline int nav_fft_slab_last(const nav_fft_slab *sl, int h, int mz, nav_real lam) {
  return sl->pin && h == sl->chunks - 1 && lam == 0 ? mz - 2 : mz - 1;
}

/* Where entry s of representative rep of chunk h keeps its ends (or, after nav_fft_slab_chunk_xy,
 * X and Y) in the chunks' array e. */
NAV_HD static inline nav_idx nav_fft_slab_at(const nav_fft_slab *sl, int h, int rep, int s) {
  return (((nav_idx)h * sl->reps + rep) * sl->ns + s) * NAV_FFT_SLAB_ENDS;
}

/* The pivot of row z of a piece's forward elimination from its first row; *cp: c' of row z - 1 in (not
 * read at z = 0), of row z out. One formula for the ends, the solve and the stored c' of the solve's
 * back substitution (nav_fft_slab_coefficients), which must be the c' of its forward elimination. */
NAV_HD static inline nav_real nav_fft_slab_pivot(const nav_real *A, const nav_real *B, const nav_real *C, nav_real lam,
                                                 int z, nav_real *cp) {
  const nav_real piv = 1 / (B[z] + lam - (z ? A[z] * *cp : 0));
  *cp = C[z] * piv;
  return piv;
}

/* One link of a chain of pieces (header): with the piece's ends e and the previous piece's
 * L = ga + dp F (dp its de), this piece's F = al + be F_next and L = ga' + de F_next. nav_fft_slab_link:
 * den, be, and de as its value; nav_fft_slab_link_value: al, and ga' in place of ga, for one component
 * whose g0, gl are v0, vl (the data's real or imaginary part; 0, 0 for a value given before the chain). */
NAV_HD static inline nav_real nav_fft_slab_link(const nav_real *e, nav_real dp, nav_real *den, nav_real *be) {
  *den = 1 - e[4] * dp;
  *be = e[6] / *den;
  return e[7] + e[5] * dp * *be;
}

NAV_HD static inline nav_real nav_fft_slab_link_value(const nav_real *e, nav_real v0, nav_real vl, nav_real dp,
                                                      nav_real den, nav_real *ga) {
  const nav_real al = (v0 + e[4] * *ga) / den;
  *ga = vl + e[5] * *ga + e[5] * dp * al;
  return al;
}

/* The ends of chunk h's pieces of representative rep's lines (header) into the chunks' array e, in one sweep
 * down: d' of the data (v), of p's right-hand side (pp) and the weights w of the first row. ring: the reader's
 * (nav_fft_slab_reader; NULL on the host). */
NAV_HD static inline void nav_fft_slab_ends(const nav_fft_slab *sl, const nav_real *c, int rep, int h, nav_real *e,
                                            nav_real *ring) {
  int pm[3], k[3], empty, last[4], z0, mz;
  nav_fft_slab_plane(sl, rep, pm, k);
  nav_fft_slab_chunk(sl, h, &z0, &mz);
  const int ns = sl->ns, g = sl->z0 + z0; /* the chunk's first global row */
  const nav_real *A = sl->a + g, *B = sl->b + g, *C = sl->c + g;
  nav_real lam[4], cp[4], v[4][2], pp[4], piv[4], w[4], g0[4][2], p0[4], blk[8][2];
  nav_fft_slab_reader rd;
  nav_fft_slab_reader_init(&rd, sl, c, NULL, rep, pm, k, ring);
  NAV_FOR_ENTRY(s, 4, ns) {
    lam[s] = nav_fft_slab_lambda(sl, pm, k, s, &empty), last[s] = nav_fft_slab_last(sl, h, mz, lam[s]);
    w[s] = 1, g0[s][0] = g0[s][1] = p0[s] = 0;
  }
  nav_fft_slab_begin(&rd, z0, 1, mz);
  for (int z = 0; z < mz; z++) {
    nav_fft_slab_read(&rd, sl, k, blk, NULL);
    NAV_FOR_ENTRY(s, 4, ns) {
      if (z > last[s]) continue;
      if (z) w[s] *= -cp[s];
      piv[s] = nav_fft_slab_pivot(A, B, C, lam[s], z, &cp[s]);
      NAV_UNROLL for (int q = 0; q < 2; q++) if (q < sl->nq) {
        v[s][q] = (blk[s][q] - (z ? A[z] * v[s][q] : 0)) * piv[s];
        g0[s][q] += w[s] * v[s][q];
      }
      pp[s] = -A[z] * (z ? pp[s] : 1) * piv[s];
      p0[s] += w[s] * pp[s];
    }
  }
  NAV_FOR_ENTRY(s, 4, ns) { /* a pinned line's last row is 0: gl, pl, ql 0, and q (its right-hand side there) too */
    nav_real *o = e + nav_fft_slab_at(sl, h, rep, s);
    const int pinned = last[s] < mz - 1;
    const nav_real ql = pinned ? 0 : -C[mz - 1] * piv[s];
    const int im = sl->nq > 1; /* nq = 1: the imaginary parts are 0 */
    o[0] = g0[s][0], o[1] = im ? g0[s][1] : 0;
    o[2] = pinned ? 0 : v[s][0], o[3] = pinned || !im ? 0 : v[s][1];
    o[4] = p0[s], o[5] = pinned ? 0 : pp[s];
    o[6] = w[s] * ql, o[7] = ql;
  }
}

/* The chain of n pieces whose ends start at e (stride apart) as one piece (header): its ends into
 * out. The sweep carries al = alg + alx XL and ga = gag + gax XL (XL: the value before the chain; L_{-1}
 * = XL: gag = 0, gax = 1); F_0 = sum_r al_r prod_{j<r} be_j + (prod be) YR, L_{n-1} = ga_{n-1} + de_{n-1} YR. */
NAV_HD static inline void nav_fft_slab_compose(const nav_real *e, nav_idx stride, int n, nav_real *out) {
  nav_real gag[2] = {0, 0}, gax = 1, de = 0, G0[2] = {0, 0}, P0 = 0, prod = 1;
  for (int r = 0; r < n; r++, e += stride) {
    const nav_real dp = de;
    nav_real den, be;
    de = nav_fft_slab_link(e, dp, &den, &be);
    NAV_UNROLL for (int q = 0; q < 2; q++) G0[q] += prod * nav_fft_slab_link_value(e, e[q], e[2 + q], dp, den, &gag[q]);
    P0 += prod * nav_fft_slab_link_value(e, 0, 0, dp, den, &gax);
    prod *= be;
  }
  out[0] = G0[0], out[1] = G0[1], out[2] = gag[0], out[3] = gag[1];
  out[4] = P0, out[5] = gax, out[6] = prod, out[7] = de;
}

/* X = L_{me-1} and Y = F_{me+1} of the chain of P ranks' ends (all: P arrays of reps * ns *
 * NAV_FFT_SLAB_ENDS values, rank after rank), entry s of representative rep: one sweep forward,
 * F_r = al_r + be_r F_{r+1} and L_r = ga_r + de_r F_{r+1}, Y summed on the way. */
NAV_HD static inline void nav_fft_slab_xy(const nav_fft_slab *sl, const nav_real *all, int rep, int s, nav_real X[2],
                                          nav_real Y[2]) {
  const nav_idx stride = nav_fft_slab_part(sl);
  const nav_real *e = all + ((nav_idx)rep * sl->ns + s) * NAV_FFT_SLAB_ENDS;
  nav_real ga[2] = {0, 0}, de = 0, al[2] = {0, 0}, be = 0, gm[2] = {0, 0}, dm = 0, am[2] = {0, 0}, bm = 0, prod = 1;
  Y[0] = Y[1] = 0;
  for (int r = 0; r < sl->P; r++, e += stride) {
    const nav_real dp = de;
    nav_real den;
    de = nav_fft_slab_link(e, dp, &den, &be);
    NAV_UNROLL for (int q = 0; q < 2; q++) al[q] = nav_fft_slab_link_value(e, e[q], e[2 + q], dp, den, &ga[q]);
    if (r == sl->me - 1) gm[0] = ga[0], gm[1] = ga[1], dm = de;
    if (r == sl->me) am[0] = al[0], am[1] = al[1], bm = be;
    if (r > sl->me) {
      Y[0] += prod * al[0], Y[1] += prod * al[1];
      prod *= be;
    }
  }
  NAV_UNROLL for (int q = 0; q < 2; q++) {
    const nav_real F = am[q] + bm * Y[q];
    X[q] = sl->me > 0 ? gm[q] + dm * F : 0;
  }
}

/* sl->mean = the ranks' sum of b dV, sigma and c of the (0, 0) line ("the mean", above) from all (every rank's
 * part): along the chain of the ranks X_r = L_{r-1} = ga_{r-1} + de_{r-1} F_r and Y_r = F_{r+1}, with
 * F_r = al_r + be_r F_{r+1}, so sum_r (Pw_r X_r + Qw_r Y_r) = sum_r Pw_r ga_{r-1} + sum_r al_r K_r,
 * K_r = K_{r-1} be_{r-1} + Qw_{r-1} + Pw_r de_{r-1} (nothing before rank 0). The same sums in the same order
 * on every rank: the same bits. */
NAV_HD static inline void nav_fft_slab_mean(const nav_fft_slab *sl, const nav_real *all) {
  const nav_idx part = nav_fft_slab_part(sl), sums = part - NAV_FFT_SLAB_SUMS;
  double yw = 0, bsum = 0, K = 0;
  nav_real ga = 0, de = 0, be = 0;
  for (int r = 0; r < sl->P; r++) {
    const nav_real *e = all + r * part; /* representative 0, entry 0 */
    const double Pw = sl->mean_pq[2 * r], Qw_before = r ? sl->mean_pq[2 * r - 1] : 0;
    K = K * be + Qw_before + Pw * de;
    yw += e[sums] + Pw * ga;
    bsum += e[sums + 1];
    const nav_real dp = de;
    nav_real den;
    de = nav_fft_slab_link(e, dp, &den, &be);
    yw += K * nav_fft_slab_link_value(e, e[0], e[2], dp, den, &ga);
  }
  const double sigma = sl->mean_sigma * bsum;
  sl->mean[0] = bsum;
  sl->mean[1] = sigma;
  sl->mean[2] = yw / sl->mean_w - sigma * sl->mean_m1;
}

/* The rank's X, Y (nav_fft_slab_xy), then every chunk's from the chain of chunks, in place of the
 * chunks' ends of entry s of representative rep in e: slots 0, 1 X and 2, 3 Y of each chunk. The
 * forward sweep leaves al, be, ga, de in the slots, the sweep back reads them. */
NAV_HD static inline void nav_fft_slab_chunk_xy(const nav_fft_slab *sl, const nav_real *all, nav_real *e, int rep,
                                                int s) {
  if (rep == 0 && s == 0 && sl->mean_u) nav_fft_slab_mean(sl, all);
  nav_real XR[2], F[2];
  nav_fft_slab_xy(sl, all, rep, s, XR, F);
  nav_real ga[2] = {XR[0], XR[1]}, de = 0;
  for (int h = 0; h < sl->chunks; h++) {
    nav_real *o = e + nav_fft_slab_at(sl, h, rep, s);
    const nav_real dp = de;
    nav_real den, be;
    de = nav_fft_slab_link(o, dp, &den, &be);
    NAV_UNROLL for (int q = 0; q < 2; q++) {
      o[q] = nav_fft_slab_link_value(o, o[q], o[2 + q], dp, den, &ga[q]);
      o[2 + q] = ga[q];
    }
    o[4] = be, o[5] = de;
  }
  for (int h = sl->chunks - 1; h >= 0; h--) { /* F: F_{h+1}, Y of the last chunk the rank's */
    nav_real *o = e + nav_fft_slab_at(sl, h, rep, s);
    const nav_real *prev = h ? e + nav_fft_slab_at(sl, h - 1, rep, s) : NULL;
    NAV_UNROLL for (int q = 0; q < 2; q++) {
      const nav_real Fh = o[q] + o[4] * F[q];
      o[2 + q] = F[q];                                        /* Y_h = F_{h+1} */
      o[q] = prev ? prev[2 + q] + prev[5] * Fh : XR[q];       /* X_h = L_{h-1} = ga_{h-1} + de_{h-1} F_h */
      F[q] = Fh;
    }
  }
}

/* Chunk h's rows of representative rep's lines, in place in c: forward elimination with X, Y (from
 * nav_fft_slab_chunk_xy, in e) on the right-hand side, the eliminated rows stored through map (2), then back
 * substitution with cpz[z][rep][s] (their c'); the result times scale, the empty slots 0, and the (0, 0) line
 * of a singular problem y - sigma v1 - c ("the mean", sl->mean from nav_fft_slab_mean). ring: the reader's
 * (nav_fft_slab_reader; NULL on the host). */
NAV_HD static inline void nav_fft_slab_solve(const nav_fft_slab *sl, const nav_real *e, nav_real *c,
                                             const nav_real *cpz, int rep, int h, nav_real *ring) {
  int pm[3], k[3], empty[4], last[4], z0, mz;
  nav_fft_slab_plane(sl, rep, pm, k);
  nav_fft_slab_chunk(sl, h, &z0, &mz);
  const int ns = sl->ns, g = sl->z0 + z0;
  const nav_real *A = sl->a + g, *B = sl->b + g, *C = sl->c + g;
  nav_real lam[4], X[4][2], Y[4][2], cp[4], v[4][2], blk[8][2];
  nav_fft_slab_reader rd;
  nav_fft_slab_reader_init(&rd, sl, c, NULL, rep, pm, k, ring);
  NAV_FOR_ENTRY(s, 4, ns) {
    const nav_real *o = e + nav_fft_slab_at(sl, h, rep, s);
    lam[s] = nav_fft_slab_lambda(sl, pm, k, s, &empty[s]);
    last[s] = nav_fft_slab_last(sl, h, mz, lam[s]);
    X[s][0] = o[0], X[s][1] = o[1], Y[s][0] = o[2], Y[s][1] = o[3];
  }
  nav_fft_slab_begin(&rd, z0, 1, mz);
  for (int z = 0; z < mz; z++) {
    nav_fft_slab_read(&rd, sl, k, blk, NULL);
    NAV_FOR_ENTRY(s, 4, ns) {
      if (z > last[s]) continue;
      const nav_real piv = nav_fft_slab_pivot(A, B, C, lam[s], z, &cp[s]);
      NAV_UNROLL for (int q = 0; q < 2; q++) {
        if (q >= sl->nq) {
          blk[s][q] = 0;
          continue;
        }
        nav_real d = blk[s][q] - (z ? A[z] * v[s][q] : A[z] * X[s][q]);
        if (z == mz - 1) d -= C[z] * Y[s][q];
        blk[s][q] = v[s][q] = d * piv;
      }
    }
    nav_fft_slab_put(sl, c, rd.plane, rd.slot, k, z0 + z, blk);
  }
  rd.cpz = cpz;
  nav_fft_slab_begin(&rd, z0 + mz - 1, -1, mz);
  for (int z = mz - 1; z >= 0; z--) {
    nav_fft_slab_read(&rd, sl, k, blk, cp);
    NAV_FOR_ENTRY(s, 4, ns) {
      NAV_UNROLL for (int q = 0; q < 2; q++) {
        if (q >= sl->nq) {
          blk[s][q] = 0;
          continue;
        }
        if (z > last[s]) v[s][q] = 0;
        else if (z < last[s]) v[s][q] = blk[s][q] - cp[s] * v[s][q];
        else v[s][q] = blk[s][q];
        blk[s][q] = empty[s] ? 0 : v[s][q] * sl->scale;
      }
    }
    if (rep == 0 && sl->mean_u) { /* y - sigma v1 - c ("the mean") in each entry of the (0, 0) mode */
      const nav_real shift = (nav_real)(sl->mean[1] * sl->mean_v1[z0 + z] + sl->mean[2]);
      NAV_FOR_ENTRY(s, 4, ns) if (!empty[s] && lam[s] == 0) blk[s][0] = (v[s][0] - shift) * sl->scale;
    }
    nav_fft_slab_put(sl, c, rd.plane, rd.slot, k, z0 + z, blk);
  }
}

/* cpz[z][rep][s] of chunk h's rows (the forward elimination's c', independent of the data). */
NAV_HD static inline void nav_fft_slab_coefficients(const nav_fft_slab *sl, int rep, int h, nav_real *cpz) {
  int pm[3], k[3], empty, z0, mz;
  nav_fft_slab_plane(sl, rep, pm, k);
  nav_fft_slab_chunk(sl, h, &z0, &mz);
  const int ns = sl->ns, g = sl->z0 + z0;
  const nav_real *A = sl->a + g, *B = sl->b + g, *C = sl->c + g;
  const nav_idx zst = (nav_idx)sl->reps * ns, at = (nav_idx)rep * ns;
  NAV_FOR_ENTRY(s, 4, ns) {
    const nav_real lam = nav_fft_slab_lambda(sl, pm, k, s, &empty);
    nav_real cp = 0;
    for (int z = 0; z < mz; z++) {
      nav_fft_slab_pivot(A, B, C, lam, z, &cp);
      cpz[(z0 + z) * zst + at + s] = cp;
    }
  }
}

#endif
