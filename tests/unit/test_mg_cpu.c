/* The CPU backend's multigrid kernels against their plain definitions, bit for bit:
 *   relax_pair (a whole red-black sweep in one pass)  = relax_colour, ghost fill, relax_colour, ghost fill,
 *   residual_restrict (fused)                          = residual, then restrict_residual,
 *   the plain-box variants (nav_cpu_plain)             = the same kernels on the box with its metric arrays
 *                                                        (uniform = 0: every metric value loaded),
 * on 2D and 3D boxes, even and odd counts, uniform, stretched and Helmholtz (shift, coefficient k), both sweep
 * orders, every combination of Neumann and Dirichlet faces, on 1, 2 and 3 OpenMP threads (the sweep's runs of
 * rows or planes and their deferred ends). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend/nav_mg_kernels.h"
#include "grid/nav_geometry.h"
#include "test_rng.h"

static const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
static int checks, failures;
NAV_TEST_RNG(0x2545F4914F6CDD1Dull)

static void same(const char *what, const char *label, const nav_box *b, const nav_real *ref, const nav_real *x) {
  checks++;
  if (!memcmp(ref, x, (size_t)b->ntot * sizeof *x)) return;
  failures++;
  printf("FAIL: %s on %s: differs from its definition\n", what, label);
}

static nav_real *field(const nav_box *b) {
  nav_real *x = malloc((size_t)b->ntot * sizeof *x);
  if (!x) exit(1);
  for (nav_idx p = 0; p < b->ntot; p++) x[p] = (nav_real)rnd();
  return x;
}

static nav_real *copy(const nav_box *b, const nav_real *x) {
  nav_real *y = malloc((size_t)b->ntot * sizeof *y);
  if (!y) exit(1);
  memcpy(y, x, (size_t)b->ntot * sizeof *y);
  return y;
}

/* The box with every metric value loaded from its arrays (the general variants of the kernels). */
static nav_box general(const nav_box *b) {
  nav_box g = *b;
  g.uniform = 0;
  for (int d = 0; d < 3; d++) g.udf[d] = g.urdf[d] = g.urdc[d] = 0;
  return g;
}

/* Widths of N cells: uniform h, or stretched (0.5 .. 1.5) h. */
static double *widths(int N, int stretched) {
  double *w = nav_widths_alloc(N);
  if (!w) exit(1);
  for (int i = 0; i < N; i++) w[i] = (stretched ? 1 + 0.5 * rnd() : 1.0) / N;
  nav_widths_ghosts(w, N, 0);
  return w;
}

/* The sweep on box b (ghosts by the faces' mirror rules g) against its definition, and the plain variant against
 * the general one where b is plain. */
static void test_sweep(const nav_box *b, const nav_ghost_faces *g, const char *label) {
  nav_real *inv = malloc((size_t)b->ntot * sizeof *inv), *rhs = field(b), *x0 = field(b);
  if (!inv) exit(1);
  ops->inverse_diagonal(b, inv);
  ops->fill_ghosts(b, x0, g);
  const nav_box gb = general(b);
  for (int first = 0; first < 2; first++) {
    nav_real *ref = copy(b, x0), *x = copy(b, x0), *xg = copy(b, x0);
    ops->relax_colour(b, ref, rhs, inv, first, (nav_real)1.2);
    ops->fill_ghosts(b, ref, g);
    ops->relax_colour(b, ref, rhs, inv, !first, (nav_real)1.2);
    ops->fill_ghosts(b, ref, g);
    nav_mg_kernels_of(ops)->relax_pair(b, x, rhs, inv, first, (nav_real)1.2);
    ops->fill_ghosts(b, x, g);
    same(first ? "relax_pair black-red" : "relax_pair red-black", label, b, ref, x);
    nav_mg_kernels_of(ops)->relax_pair(&gb, xg, rhs, inv, first, (nav_real)1.2);
    ops->fill_ghosts(b, xg, g);
    same("relax_pair (general variant)", label, b, ref, xg);
    memcpy(x, x0, (size_t)b->ntot * sizeof *x);
    memcpy(xg, x0, (size_t)b->ntot * sizeof *x);
    ops->relax_colour(b, x, rhs, inv, first, (nav_real)1.2);
    ops->relax_colour(&gb, xg, rhs, inv, first, (nav_real)1.2);
    same("relax_colour plain against general", label, b, x, xg);
    free(ref);
    free(x);
    free(xg);
  }
  nav_real *r = field(b), *rg = copy(b, r);
  ops->residual(b, x0, rhs, r, NULL);
  ops->residual(&gb, x0, rhs, rg, NULL);
  same("residual plain against general", label, b, r, rg);
  free(r);
  free(rg);
  free(inv);
  free(rhs);
  free(x0);
}

/* The transfers between fine box f and its coarse box c. */
static void test_transfer(const nav_box *f, const nav_box *c, const char *label) {
  nav_real *x = field(f), *rhs = field(f), *r = field(f), *cb = field(c), *cf = copy(c, cb), *cg = copy(c, cb);
  const nav_box fg = general(f), cgb = general(c);
  ops->residual(f, x, rhs, r, NULL);
  ops->restrict_residual(f, r, c, cb);
  nav_mg_kernels_of(ops)->residual_restrict(f, x, rhs, c, cf);
  same("residual_restrict", label, c, cb, cf);
  nav_mg_kernels_of(ops)->residual_restrict(&fg, x, rhs, &cgb, cg);
  same("residual_restrict (general variant)", label, c, cb, cg);
  ops->restrict_residual(&fg, r, &cgb, cg);
  same("restrict_residual plain against general", label, c, cb, cg);
  nav_real *xc = field(c), *y = field(f), *yg = copy(f, y);
  ops->prolong_add(c, xc, f, y);
  ops->prolong_add(&cgb, xc, &fg, yg);
  same("prolong_add plain against general", label, f, y, yg);
  free(x);
  free(rhs);
  free(r);
  free(cb);
  free(cf);
  free(cg);
  free(xc);
  free(y);
  free(yg);
}

int main(void) {
  /* dim, n0, n1, n2, stretched, helmholtz: small boxes (one thread), boxes the kernels thread (>= 8192 points), and
   * uniform boxes with a direction of one cell (a plain coarse box whose cells lack their second child there) */
  const int shapes[][6] = {{2, 12, 10, 1, 0, 0},  {2, 13, 9, 1, 0, 0},  {2, 11, 14, 1, 1, 0}, {2, 130, 71, 1, 0, 0},
                           {2, 97, 90, 1, 1, 0},  {2, 100, 90, 1, 0, 1}, {3, 8, 6, 7, 0, 0},   {3, 7, 9, 5, 1, 0},
                           {3, 24, 22, 21, 0, 0}, {3, 23, 20, 25, 1, 1}, {2, 16, 1, 1, 0, 0},  {3, 6, 4, 1, 0, 0}};
  const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
  for (int threads = 1; threads <= 3; threads++) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    if (threads > 1) break;
#endif
    for (int sh = 0; sh < nshapes; sh++) {
      const int dim = shapes[sh][0], n[3] = {shapes[sh][1], shapes[sh][2], shapes[sh][3]}, g0[3] = {0, 0, 0};
      double *w[3] = {NULL, NULL, NULL}, *wc[3] = {NULL, NULL, NULL};
      int nc[3] = {1, 1, 1};
      for (int d = 0; d < dim; d++) {
        w[d] = widths(n[d], shapes[sh][4]);
        nc[d] = nav_coarse_count(n[d]);
        wc[d] = nav_widths_alloc(nc[d]);
        if (!wc[d]) return 1;
        nav_widths_coarsen(w[d], n[d], 0, wc[d]);
      }
      nav_box b, c;
      if (nav_box_create(ops, dim, n, g0, w, &b) != NAV_OK || nav_box_create(ops, dim, nc, g0, wc, &c) != NAV_OK)
        return 1;
      nav_real *k = NULL;
      if (shapes[sh][5]) { /* Helmholtz: a shift and a coefficient k > 0 with filled ghosts */
        k = field(&b);
        for (nav_idx p = 0; p < b.ntot; p++) k[p] = (nav_real)(1.5 + rnd());
        b.shift = (nav_real)3.0;
        b.kc = k;
      }
      for (int faces = 0; faces < 1 << (2 * dim); faces++) { /* bit 2 d + s: face (d, s) Dirichlet */
        nav_ghost_faces g;
        memset(&g, 0, sizeof g);
        for (int d = 0; d < 3; d++)
          for (int s = 0; s < 2; s++) {
            g.kind[d][s] = NAV_GHOST_MIRROR;
            g.alpha[d][s] = faces >> (2 * d + s) & 1 ? -1 : 1;
          }
        if (k) ops->fill_ghosts(&b, k, &g);
        char label[160];
        snprintf(label, sizeof label, "%dD %dx%dx%d%s%s, Dirichlet faces %#x, %d thread(s)", dim, n[0], n[1], n[2],
                 shapes[sh][4] ? " stretched" : "", k ? " Helmholtz" : "", (unsigned)faces, threads);
        test_sweep(&b, &g, label);
      }
      if (!k) {
        char label[160];
        snprintf(label, sizeof label, "%dD %dx%dx%d%s, %d thread(s)", dim, n[0], n[1], n[2],
                 shapes[sh][4] ? " stretched" : "", threads);
        test_transfer(&b, &c, label);
      }
      b.kc = NULL;
      free(k);
      nav_box_destroy(ops, &b);
      nav_box_destroy(ops, &c);
      for (int d = 0; d < 3; d++) {
        nav_widths_free(w[d]);
        nav_widths_free(wc[d]);
      }
    }
  }
  printf("test_mg_cpu: %d of %d checks failed (bit for bit)\n", failures, checks);
  return failures ? 1 : 0;
}
