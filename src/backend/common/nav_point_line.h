/* The partitioned solve of one line system by a team of threads: the CUDA backend's organisation of
 * nav_line_solve (nav_point_poisson.h), which the CPU backend runs as the Thomas algorithm.
 *
 * The system is the one of nav_line_solve, T d = f on the n cells of a line: its rows come from
 * nav_line_row (the one place of the line equations), divided by their diagonal,
 *   a_i d_{i-1} + d_i + c_i d_{i+1} = f_i,   a_i = cw_i / diag_i, c_i = ce_i / diag_i, f_i / diag_i,
 * with a_0 = c_{n-1} = 0 (the ends folded in by nav_line_row). Only the order of the arithmetic
 * differs from the Thomas algorithm: the solution is the same to round-off (T is diagonally dominant:
 * both orders are backward stable; tests/backend/test_kernels.c compares them to 1e-12).
 *
 * A team of nt threads (a CUDA thread block) solves the line in four phases, each thread t taking
 * a share; between phases the team synchronises (the arrays are shared):
 *   1. load (nav_line_part_load): rows i = t, t + nt, ... into a, c, f (coalesced along x lines);
 *   2. reduce (nav_line_part_reduce): the rows are cut into S = min(nt, n / 2) chunks of at least 2
 *      rows (chunk s: rows [s n / S, (s + 1) n / S)); thread s eliminates the interior of its chunk
 *      (the "modified Thomas" of Laszlo, Giles & Appleyard, ACM TOMS 42 (2016) 31): every row k of
 *      the chunk becomes  a_k d_lo + d_k + c_k d_hi = f_k  in terms of the chunk's first and last
 *      unknowns, and the first and last rows couple only to the neighbour chunks' last and first:
 *      a reduced tridiagonal system of 2 S unknowns (d_lo(0), d_hi(0), d_lo(1), ...), rows 2s, 2s + 1;
 *   3. parallel cyclic reduction of the reduced system (nav_line_part_pcr): ceil(log2 2S) steps, each
 *      row i eliminating its neighbours i -/+ delta (delta = 1, 2, 4, ...); after the last step every
 *      row is decoupled and its f is its unknown;
 *   4. expand (nav_line_part_expand): thread s recovers its chunk's interior from d_lo and d_hi.
 * A line of one cell (S = 0) is solved by the load alone (a = c = 0).
 * Work O(n + S log S) per line, shared storage 3 n + 6 nt reals; phases 2 and 4 run the chunks in
 * parallel, phase 3 the rows of the reduced system. */
#ifndef NAV_POINT_LINE_H
#define NAV_POINT_LINE_H

#include "backend/common/nav_point_poisson.h"

/* The number of chunks S of a line of n cells for a team of nt threads (0 when n = 1). */
NAV_HD static inline int nav_line_part_chunks(int n, int nt) { return n / 2 < nt ? n / 2 : nt; }

/* The rows [lo, hi) of chunk s of S (hi - lo >= 2 when S <= n / 2). */
NAV_HD static inline void nav_line_part_range(int n, int S, int s, int *lo, int *hi) {
  *lo = (int)((long)s * n / S);
  *hi = (int)((long)(s + 1) * n / S);
}

/* Phase 1, thread t of nt: rows i = t, t + nt, ... of the line of cell p0 (ijk0: its indices, ijk0[ld]
 * ignored) along ld, from nav_line_row with the ends lo_kind, hi_kind and the mode of nav_line_solve,
 * divided by their diagonal, into a[i], c[i], f[i]. x is read in mode 0 only. */
NAV_HD static inline void nav_line_part_load(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_idx p0,
                                             const int *ijk0, int ld, int lo_kind, int hi_kind, int mode, int t,
                                             int nt, nav_real *a, nav_real *c, nav_real *f) {
  const int n = b->n[ld];
  int ijk[3] = {ijk0[0], ijk0[1], ijk0[2]};
  for (int i = t; i < n; i += nt) {
    ijk[ld] = i;
    nav_real cw, dg, ce;
    const nav_real fi = nav_line_row(b, x, rhs, p0 + i * b->st[ld], ijk, ld, n, lo_kind, hi_kind, mode, &cw, &dg, &ce);
    const nav_real inv = 1 / dg;
    a[i] = cw * inv;
    c[i] = ce * inv;
    f[i] = fi * inv;
  }
}

/* Phase 2, chunk s of S: eliminate the interior of rows [lo, hi) in place (a_k becomes the coupling
 * of row k to d_lo, c_k to d_hi, for lo < k < hi - 1), and write the chunk's rows of the reduced
 * system into ra, rc, rf at 2s (its first row: coupling to the previous chunk's d_hi and to its own
 * d_hi) and 2s + 1 (its last row, as left by the forward elimination: coupling to d_lo and to the
 * next chunk's d_lo). */
NAV_HD static inline void nav_line_part_reduce(nav_real *a, nav_real *c, nav_real *f, int n, int S, int s,
                                               nav_real *ra, nav_real *rc, nav_real *rf) {
  int lo, hi;
  nav_line_part_range(n, S, s, &lo, &hi);
  /* forward: row k (k >= lo + 2) loses d_{k-1} through row k - 1 = a_{k-1} d_lo + d_{k-1} + c_{k-1} d_k */
  for (int k = lo + 2; k < hi; k++) {
    const nav_real r = 1 / (1 - a[k] * c[k - 1]);
    f[k] = (f[k] - a[k] * f[k - 1]) * r;
    a[k] = -a[k] * a[k - 1] * r;
    c[k] *= r;
  }
  /* backward: row k (lo < k < hi - 2) loses d_{k+1} through row k + 1 = a_{k+1} d_lo + d_{k+1} + c_{k+1} d_hi */
  for (int k = hi - 3; k > lo; k--) {
    f[k] -= c[k] * f[k + 1];
    a[k] -= c[k] * a[k + 1];
    c[k] = -c[k] * c[k + 1];
  }
  nav_real a0 = a[lo], c0 = c[lo], f0 = f[lo];
  if (hi - lo > 2) { /* the first row loses d_{lo+1} through row lo + 1 */
    const nav_real r = 1 / (1 - c[lo] * a[lo + 1]);
    a0 = a[lo] * r;
    f0 = (f[lo] - c[lo] * f[lo + 1]) * r;
    c0 = -c[lo] * c[lo + 1] * r;
  }
  ra[2 * s] = a0;
  rc[2 * s] = c0;
  rf[2 * s] = f0;
  ra[2 * s + 1] = a[hi - 1];
  rc[2 * s + 1] = c[hi - 1];
  rf[2 * s + 1] = f[hi - 1];
}

/* Phase 3, one step of parallel cyclic reduction on the reduced system of m rows (ra, rc, rf, rows
 * coupled at distance delta): row i minus a_i times row i - delta minus c_i times row i + delta
 * (rows outside [0, m) are 0), divided by its new diagonal, into na, nc, nf (coupled at 2 delta).
 * Every row of a step reads the old rows: the team writes the new ones after a synchronisation. */
NAV_HD static inline void nav_line_part_pcr(const nav_real *ra, const nav_real *rc, const nav_real *rf, int m, int i,
                                            int delta, nav_real *na, nav_real *nc, nav_real *nf) {
  const int l = i - delta, h = i + delta;
  const nav_real al = l >= 0 ? ra[l] : 0, cl = l >= 0 ? rc[l] : 0, fl = l >= 0 ? rf[l] : 0;
  const nav_real ah = h < m ? ra[h] : 0, ch = h < m ? rc[h] : 0, fh = h < m ? rf[h] : 0;
  const nav_real r = 1 / (1 - ra[i] * cl - rc[i] * ah);
  *na = -ra[i] * al * r;
  *nc = -rc[i] * ch * r;
  *nf = (rf[i] - ra[i] * fl - rc[i] * fh) * r;
}

/* Phase 4, chunk s of S: with its first and last unknowns d_lo, d_hi (the solved reduced system),
 * the chunk's solution into f[lo .. hi - 1]. */
NAV_HD static inline void nav_line_part_expand(const nav_real *a, const nav_real *c, nav_real *f, int n, int S, int s,
                                               nav_real dlo, nav_real dhi) {
  int lo, hi;
  nav_line_part_range(n, S, s, &lo, &hi);
  for (int k = lo + 1; k < hi - 1; k++) f[k] -= a[k] * dlo + c[k] * dhi;
  f[lo] = dlo;
  f[hi - 1] = dhi;
}

#endif
