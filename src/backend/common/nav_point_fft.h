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
#include "navier/nav_types.h"

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

#endif
