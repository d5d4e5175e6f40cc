/* The partitioned line solve of the CUDA backend (backend/common/nav_point_line.h: chunks eliminated
 * by one thread each, parallel cyclic reduction of the chunk ends, expansion), run here on the CPU with
 * the thread block emulated (each phase for every thread t in turn, the barriers between phases), against
 * the Thomas solve of the CPU backend (nav_line_solve) on every line of a box:
 *     max |d_part - d_thomas| / max |d_thomas| <= 1e-12 (FP64) per line,
 * for 2D and 3D boxes, each direction, lines of 1 to 2049 cells (odd and even, fewer cells than two per
 * thread: chunks of 2 or 3; up to ~8 per thread), the three modes (residual, low and high unit
 * responses), the ends Neumann/Dirichlet and kept (0: neighbour rank or periodic wrap), team sizes 1 to
 * 256 (S = min(nt, n / 2) chunks), random and geometric (ratio 1.01, as the snake grid) spacing, and
 * the Helmholtz form (shift and coefficient k). The CUDA kernel runs the same functions on a thread
 * block (tests/backend/test_kernels.c checks it against the CPU on the GPU machine). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_line.h"
#include "backend/nav_kernels.h"
#include "grid/nav_geometry.h"
#include "test_rng.h"

#define TOL 1e-12

NAV_TEST_RNG(0x2545F4914F6CDD1Dull)

/* The partitioned solve of the line of cell p0 along ld by an emulated team of nt threads into d
 * (n values); sh: 3 n + 6 nt reals (the kernel's shared memory). */
static void part_solve(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_idx p0, const int *ijk, int ld,
                       const int kind[2], int mode, int nt, nav_real *sh, nav_real *d) {
  const int n = b->n[ld], S = nav_line_part_chunks(n, nt), m = 2 * S;
  nav_real *a = sh, *c = a + n, *f = c + n, *ra = f + n, *rc = ra + 2 * nt, *rf = rc + 2 * nt;
  for (int t = 0; t < nt; t++) nav_line_part_load(b, x, rhs, p0, ijk, ld, kind[0], kind[1], mode, t, nt, a, c, f);
  for (int t = 0; t < S; t++) nav_line_part_reduce(a, c, f, n, S, t, ra, rc, rf);
  nav_real *na = malloc(3 * (size_t)(m + 1) * sizeof *na), *nc = na + m + 1, *nf = nc + m + 1;
  for (int delta = 1; delta < m; delta *= 2) {
    for (int i = 0; i < m; i++) nav_line_part_pcr(ra, rc, rf, m, i, delta, &na[i], &nc[i], &nf[i]);
    memcpy(ra, na, (size_t)m * sizeof *na);
    memcpy(rc, nc, (size_t)m * sizeof *nc);
    memcpy(rf, nf, (size_t)m * sizeof *nf);
  }
  free(na);
  for (int t = 0; t < S; t++) nav_line_part_expand(a, c, f, n, S, t, rf[2 * t], rf[2 * t + 1]);
  memcpy(d, f, (size_t)n * sizeof *d);
}

static int checks, failures;

/* Every line of every direction of one box, every mode, end kind and team size. */
static void check_box(const char *label, int dim, const int n[3], int spacing, int helmholtz) {
  double *w[3] = {NULL, NULL, NULL};
  const int g0[3] = {1, 0, 0};
  for (int d = 0; d < dim; d++) {
    w[d] = nav_widths_alloc(n[d]);
    double h = 1.0 / 64;
    for (int i = 0; i < n[d]; i++) {
      w[d][i] = spacing ? h : (0.5 + 0.5 * (rnd() + 1)) / 64; /* ratios up to 3 */
      if (spacing) h *= 1.01;
    }
    nav_widths_ghosts(w[d], n[d], 0);
  }
  nav_box b;
  if (nav_box_create(&nav_kernel_ops_cpu, dim, n, g0, w, &b) != NAV_OK) {
    fprintf(stderr, "test_line_part: box %s\n", label);
    exit(1);
  }
  const size_t N = (size_t)b.ntot;
  nav_real *x = malloc(N * sizeof *x), *rhs = malloc(N * sizeof *x), *cp = malloc(N * sizeof *x),
           *out = malloc(N * sizeof *x), *kc = malloc(N * sizeof *x);
  for (size_t p = 0; p < N; p++) {
    x[p] = (nav_real)rnd();
    rhs[p] = (nav_real)(1e4 * rnd());
    kc[p] = (nav_real)(1 + 0.5 * rnd());
  }
  if (helmholtz) {
    b.kc = kc;
    b.shift = (nav_real)300;
  }
  const int teams[6] = {1, 2, 3, 32, 64, 256};
  for (int ld = 0; ld < dim; ld++) {
    int oa, ob;
    nav_line_others(ld, &oa, &ob);
    const int len = b.n[ld];
    nav_real *sh = malloc((3 * (size_t)len + 6 * 256) * sizeof *sh), *d = malloc((size_t)len * sizeof *d);
    for (int k = 0; k < 2; k++)
      for (int mode = 0; mode < 3; mode++)
        for (int tm = 0; tm < 6; tm++) {
          const int kind[2] = {k ? 1 : 0, k ? -1 : 0};
          double worst = 0;
          for (int kb = 0; kb < b.n[ob]; kb++)
            for (int ka = 0; ka < b.n[oa]; ka++) {
              int ijk[3] = {0, 0, 0};
              ijk[oa] = ka;
              ijk[ob] = kb;
              const nav_idx p0 = b.off + ka * b.st[oa] + kb * b.st[ob];
              nav_line_solve(&b, x, rhs, cp, out, p0, ijk, ld, kind[0], kind[1], mode, NULL);
              ijk[ld] = 0;
              part_solve(&b, x, rhs, p0, ijk, ld, kind, mode, teams[tm], sh, d);
              double dmax = 0, ymax = 0;
              for (int i = 0; i < len; i++) {
                const double ref = out[p0 + i * b.st[ld]];
                dmax = fmax(dmax, fabs(d[i] - ref));
                ymax = fmax(ymax, fabs(ref));
              }
              const double rel = ymax > 0 ? dmax / ymax : dmax;
              worst = isnan(rel) || isnan(worst) ? NAN : fmax(worst, rel);
            }
          checks++;
          const int ok = worst <= TOL; /* NaN fails */
          if (!ok) failures++;
          if (!ok || (mode == 0 && tm == 5))
            printf("%-28s %c-lines (%4d cells) mode %d %s team %3d: max rel diff %.2e  %s\n", label, "xyz"[ld], len,
                   mode, k ? "walls" : "kept ", teams[tm], worst, ok ? "ok" : "FAIL");
        }
    free(sh);
    free(d);
  }
  free(x);
  free(rhs);
  free(cp);
  free(out);
  free(kc);
  nav_box_destroy(&nav_kernel_ops_cpu, &b);
  for (int d = 0; d < dim; d++) nav_widths_free(w[d]);
}

int main(void) {
  check_box("2D 1703x5 random", 2, (const int[3]){1703, 5, 1}, 0, 0);
  check_box("2D 4x2049 random", 2, (const int[3]){4, 2049, 1}, 0, 0);
  check_box("2D 1x3 random", 2, (const int[3]){1, 3, 1}, 0, 0);
  check_box("2D 2x7 random", 2, (const int[3]){2, 7, 1}, 0, 0);
  check_box("2D 600x37 geometric 1.01", 2, (const int[3]){600, 37, 1}, 1, 0);
  check_box("2D 513x66 Helmholtz", 2, (const int[3]){513, 66, 1}, 0, 1);
  check_box("3D 19x23x17 random", 3, (const int[3]){19, 23, 17}, 0, 0);
  check_box("3D 130x5x6 Helmholtz", 3, (const int[3]){130, 5, 6}, 0, 1);
  check_box("3D 4x5x300 geometric 1.01", 3, (const int[3]){4, 5, 300}, 1, 0);
  printf("test_line_part: %d of %d checks failed (tolerance %.0e, relative max norm per line)\n", failures, checks,
         TOL);
  return failures ? 1 : 0;
}
