/* The distributed-block API (nav_poisson_set_grid_block / solve_block / precondition_block) on the
 * ranks of MPI_COMM_WORLD (1, 2 or 4) against the 1-rank solve of the same problem:
 *
 *   1. layouts the solver uses directly (Cartesian splits along x, y, z and two directions, uneven,
 *      ranks numbered in any order) and layouts it must move (an empty rank, a block of one cell,
 *      consolidation: ranks_per_solver = 2 and 4; moved through shared memory (one node) and by
 *      messages) give the 1-rank x to <= 1e-12 (relative to max|x|)
 *      in the same number of iterations, for mg, mgpcg and fft (when built), 3D stretched and 2D
 *      periodic grids; the preconditioner call (one symmetric cycle, or the FFT inverse) too;
 *      the zero-copy arrays (nav_poisson_block_arrays) give the block solve's x bit for bit where offered;
 *   2. inconsistent layouts (a gap, an overlap, sizes that do not add up, a global size that differs
 *      between ranks, ranges that are not a Cartesian product) and a width that one rank alone
 *      rejects return NAV_ERR_INPUT with the same message on every rank (the test ends, so nothing hangs; ctest's
 * timeout would catch a hang). Exit 0 when every check passes. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navier/poisson.h"

static int g_rank, g_size, g_fail;

#define CHECK(cond, ...)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      g_fail++;                                                                                                        \
      fprintf(stderr, "rank %d: FAIL %s:%d: ", g_rank, __FILE__, __LINE__);                                            \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fprintf(stderr, "\n");                                                                                           \
    }                                                                                                                  \
  } while (0)

typedef struct problem {
  const char *name;
  int dim, N[3];
  nav_poisson_bc bc[3][2];
  double *h[3];
} problem;

static double rhs(const problem *P, int i, int j, int k) {
  /* smooth, with a non-zero mean (removed for singular problems) */
  const double x = (i + 0.5) / P->N[0], y = (j + 0.5) / P->N[1], z = (k + 0.5) / P->N[2];
  return sin(2 * NAV_PI * x) * cos(NAV_PI * y) + 0.3 * cos(2 * NAV_PI * z) + 0.1 * x * y;
}

static void fill_block(const problem *P, const int lo[3], const int cnt[3], double *b) {
  nav_idx q = 0;
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++)
        b[q++] = rhs(P, lo[0] + i, lo[1] + j, lo[2] + k);
}

/* The 1-rank solution (or preconditioned vector) of the whole grid, on every rank. */
static int reference(const problem *P, const char *solver, int precond, double *x, nav_poisson_result *res) {
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.solver = solver;
  opt.tolerance = 1e-10;
  nav_poisson *ps = NULL;
  const int lo[3] = {0, 0, 0}, cnt[3] = {P->N[0], P->N[1], P->dim == 3 ? P->N[2] : 1};
  const nav_idx n = (nav_idx)cnt[0] * cnt[1] * cnt[2];
  double *b = malloc(n * sizeof *b);
  fill_block(P, lo, cnt, b);
  memset(x, 0, n * sizeof *x);
  int rc = nav_poisson_create(MPI_COMM_SELF, &opt, &ps);
  if (rc == NAV_OK) rc = nav_poisson_set_grid_block(ps, P->dim, P->N, lo, cnt, (const double *const *)P->h, P->bc);
  if (rc == NAV_OK) rc = precond ? nav_poisson_precondition_block(ps, x, b) : nav_poisson_solve_block(ps, x, b, res);
  if (rc != NAV_OK) fprintf(stderr, "reference %s %s: %s\n", P->name, solver, nav_poisson_error());
  nav_poisson_destroy(ps);
  free(b);
  return rc;
}

/* A layout: p[d] ranges along d with bounds start[d]; rank r takes the block at position
 * perm(r) (row-major, x fastest); empty: that rank passes an empty block (p has size - 1 blocks). */
typedef struct layout {
  const char *name;
  int p[3];
  int cut[3][5]; /* interior bounds of the ranges (p[d] - 1 per direction) */
  int reverse;   /* number the blocks from the last rank */
  int empty;     /* rank 1 has no block (the others the p[0] p[1] p[2] = size - 1 blocks) */
  int ranks_per_solver;
  const char *gather; /* options.gather (NULL: auto, shared memory on one node) */
} layout;

static int block_of(const problem *P, const layout *L, int lo[3], int cnt[3]) {
  int r = g_rank;
  if (L->empty) {
    if (g_rank == 1) {
      for (int d = 0; d < 3; d++)
        lo[d] = cnt[d] = 0;
      return 0;
    }
    r = g_rank == 0 ? 0 : g_rank - 1;
  }
  if (L->reverse) r = L->p[0] * L->p[1] * L->p[2] - 1 - r;
  const int c[3] = {r % L->p[0], r / L->p[0] % L->p[1], r / L->p[0] / L->p[1]};
  for (int d = 0; d < 3; d++) {
    const int N = d < P->dim ? P->N[d] : 1;
    lo[d] = c[d] == 0 ? 0 : L->cut[d][c[d] - 1];
    cnt[d] = (c[d] == L->p[d] - 1 ? N : L->cut[d][c[d]]) - lo[d];
  }
  return 1;
}

/* The zero-copy arrays (nav_poisson_block_arrays, solve_arrays) after the block solve of compare: b written
 * straight into the solver's staging arrays, x from 0, must give that solve's x bit for bit in as many iterations.
 * They must be offered where the blocks are used directly or all go to one solver rank through shared memory, and
 * refused (NAV_ERR_INPUT, the reason on every rank) with messages; between several solver ranks either (a block
 * split between them is refused). */
static void staged(const problem *P, const layout *L, const char *solver, nav_poisson *ps, const int cnt[3],
                   const double *b, const double *x, const nav_poisson_result *rb) {
  const int messages = L->gather && !strcmp(L->gather, "messages");
  const int offered = !messages && (rb->moved == 0 || rb->solver_ranks == 1);
  double *sx, *sb;
  long st[3];
  int rc = nav_poisson_block_arrays(ps, &sx, &sb, st);
  if (rc != NAV_OK) {
    const char *msg = nav_poisson_error();
    CHECK(rc == NAV_ERR_INPUT && !offered && strstr(msg, messages ? "messages" : "split"),
          "%s layout %s: block_arrays refused (%d): %s", solver, L->name, rc, msg);
    if (g_rank == 0) printf("%-10s %-6s zero-copy    layout %-26s: refused: %s\n", P->name, solver, L->name, msg);
    return;
  }
  CHECK(!messages, "%s layout %s: block_arrays offered with gather messages", solver, L->name);
  const nav_idx n = (nav_idx)cnt[0] * cnt[1] * cnt[2];
  CHECK((n == 0) == (sb == NULL) && st[0] == 1, "%s %s layout %s: arrays %p, stride %ld", P->name, solver, L->name,
        (void *)sb, st[0]);
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++) {
        sb[i + j * st[1] + k * st[2]] = b[i + (nav_idx)cnt[0] * (j + (nav_idx)cnt[1] * k)];
        sx[i + j * st[1] + k * st[2]] = 0;
      }
  nav_poisson_result res;
  rc = nav_poisson_solve_arrays(ps, &res);
  CHECK(rc == NAV_OK, "%s layout %s: solve_arrays: %s", solver, L->name, nav_poisson_error());
  int differ = 0;
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++)
        differ += sx[i + j * st[1] + k * st[2]] != x[i + (nav_idx)cnt[0] * (j + (nav_idx)cnt[1] * k)];
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(differ == 0 && res.iterations == rb->iterations, "%s layout %s: zero-copy x differs at %d cells, %d it (%d)",
        solver, L->name, differ, res.iterations, rb->iterations);
  if (g_rank == 0)
    printf("%-10s %-6s zero-copy    layout %-26s: the block solve's x bit for bit: %s, %d it, moves %.1e + %.1e s\n",
           P->name, solver, L->name, differ ? "NO" : "yes", res.iterations, res.move_in_s, res.move_out_s);
}

static void compare(const problem *P, const layout *L, const char *solver, int precond, const double *xref,
                    const nav_poisson_result *rref) {
  int lo[3], cnt[3];
  block_of(P, L, lo, cnt);
  const nav_idx n = (nav_idx)cnt[0] * cnt[1] * cnt[2];
  double *b = malloc((n + 1) * sizeof *b), *x = calloc(n + 1, sizeof *x);
  fill_block(P, lo, cnt, b);
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.solver = solver;
  opt.tolerance = 1e-10;
  opt.ranks_per_solver = L->ranks_per_solver;
  opt.gather = L->gather;
  nav_poisson *ps = NULL;
  nav_poisson_result res;
  memset(&res, 0, sizeof res);
  int rc = nav_poisson_create(MPI_COMM_WORLD, &opt, &ps);
  if (rc == NAV_OK) rc = nav_poisson_set_grid_block(ps, P->dim, P->N, lo, cnt, (const double *const *)P->h, P->bc);
  if (rc == NAV_OK) rc = precond ? nav_poisson_precondition_block(ps, x, b) : nav_poisson_solve_block(ps, x, b, &res);
  CHECK(rc == NAV_OK, "%s %s layout %s: %s", P->name, solver, L->name, nav_poisson_error());
  double diff = 0, scale = 0;
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++)
      for (int i = 0; i < cnt[0]; i++) {
        const nav_idx g = (lo[0] + i) + (nav_idx)P->N[0] * ((lo[1] + j) + (nav_idx)P->N[1] * (lo[2] + k));
        diff = fmax(diff, fabs(x[i + (nav_idx)cnt[0] * (j + (nav_idx)cnt[1] * k)] - xref[g]));
      }
  const nav_idx total = (nav_idx)P->N[0] * P->N[1] * (P->dim == 3 ? P->N[2] : 1);
  for (nav_idx g = 0; g < total; g++)
    scale = fmax(scale, fabs(xref[g]));
  MPI_Allreduce(MPI_IN_PLACE, &diff, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  CHECK(diff <= 1e-12 * scale, "%s %s%s layout %s: max|x - x_1rank| = %.3e (max|x| %.3e)", P->name, solver,
        precond ? " (precondition)" : "", L->name, diff, scale);
  if (!precond && res.moved)
    CHECK(res.moved == (L->gather && !strcmp(L->gather, "messages") ? 1 : 2), "%s layout %s: moved by %d", P->name,
          L->name, res.moved);
  if (!precond)
    CHECK(res.iterations == rref->iterations, "%s %s layout %s: %d iterations, 1 rank %d", P->name, solver, L->name,
          res.iterations, rref->iterations);
  if (g_rank == 0 && precond)
    printf("%-10s %-6s precondition layout %-26s: max|z - z_1rank| / max|z| = %.1e\n", P->name, solver, L->name,
           diff / scale);
  else if (g_rank == 0)
    printf("%-10s %-6s solve        layout %-26s: solver ranks %d, %-21s, max|x - x_1rank| / max|x| = %.1e, %d it\n",
           P->name, solver, L->name, res.solver_ranks,
           res.moved == 2 ? "moved (shared memory)"
           : res.moved    ? "moved (messages)"
                          : "direct",
           diff / scale, res.iterations);
  if (!precond && rc == NAV_OK) staged(P, L, solver, ps, cnt, b, x, &res);
  nav_poisson_destroy(ps);
  free(b);
  free(x);
}

/* An inconsistent layout: every rank must get NAV_ERR_INPUT and a message containing `word`. */
static void bad_layout(const problem *P, const char *what, const int lo[3], const int cnt[3], const int N[3],
                       const char *word) {
  nav_poisson *ps = NULL;
  int rc = nav_poisson_create(MPI_COMM_WORLD, NULL, &ps);
  if (rc == NAV_OK) rc = nav_poisson_set_grid_block(ps, P->dim, N, lo, cnt, (const double *const *)P->h, P->bc);
  const char *msg = nav_poisson_error();
  CHECK(rc == NAV_ERR_INPUT && strstr(msg, word), "bad layout (%s): rc %d, message '%s' (want '%s')", what, rc, msg,
        word);
  /* the same message on every rank */
  char mine[512], first[512];
  snprintf(mine, sizeof mine, "%s", msg);
  memcpy(first, mine, sizeof first);
  MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
  CHECK(!strcmp(mine, first), "bad layout (%s): rank %d's message '%s' differs from rank 0's '%s'", what, g_rank, mine,
        first);
  if (g_rank == 0) printf("bad layout %-26s: error %d on every rank: %s\n", what, rc, msg);
  nav_poisson_destroy(ps);
}

static void bad_layouts(const problem *P) {
  int lo[3] = {0, 0, 0}, cnt[3] = {P->N[0], P->N[1], P->N[2]};
  const int S = g_size, r = g_rank;
  /* slabs along x of width w, rank r at r w */
  const int w = P->N[0] / S;
  int N[3] = {P->N[0], P->N[1], P->N[2]};
  /* a gap: the last rank's slab stops one cell short of the end */
  lo[0] = r * w;
  cnt[0] = r == S - 1 ? P->N[0] - lo[0] - 1 : w;
  bad_layout(P, "gap", lo, cnt, N, "gap");
  /* an overlap: rank 0's slab one cell wider (one rank: a block larger than the grid) */
  cnt[0] = r == S - 1 ? P->N[0] - lo[0] : w;
  if (r == 0) cnt[0] += 1;
  bad_layout(P, "overlap", lo, cnt, N, S > 1 ? "overlap" : "outside the grid");
  /* a width only the last rank rejects (its own copy of h): every rank returns that rank's error */
  cnt[0] = r == S - 1 ? P->N[0] - lo[0] : w;
  double *hbad = malloc(P->N[1] * sizeof *hbad);
  memcpy(hbad, P->h[1], P->N[1] * sizeof *hbad);
  if (r == S - 1) hbad[3] = -1;
  problem Q = *P;
  Q.h[1] = hbad;
  bad_layout(&Q, "a width one rank rejects", lo, cnt, N, "must be > 0");
  free(hbad);
  if (S == 1) return;
  /* the global size differs on the last rank */
  cnt[0] = r == S - 1 ? P->N[0] - lo[0] : w;
  N[0] = r == S - 1 ? P->N[0] + 2 : P->N[0];
  bad_layout(P, "global size differs", lo, cnt, N, "different dim or global size");
  N[0] = P->N[0];
  /* not a Cartesian product: 2 ranks split x at 5 (rank 0 the low y half, rank 1 the whole y range);
   * 4 ranks: the lower row split at x = 6, the upper row at x = 10 (bricks) */
  if (S == 2) {
    lo[0] = r == 0 ? 0 : 5;
    cnt[0] = r == 0 ? 5 : P->N[0] - 5;
    lo[1] = 0;
    cnt[1] = r == 0 ? P->N[1] / 2 : P->N[1];
    bad_layout(P, "sizes do not add up", lo, cnt, N, "gap");
  } else {
    const int row = r / 2, col = r % 2, cutx = row ? 10 : 6;
    lo[0] = col ? cutx : 0;
    cnt[0] = col ? P->N[0] - cutx : cutx;
    lo[1] = row ? P->N[1] / 2 : 0;
    cnt[1] = row ? P->N[1] - P->N[1] / 2 : P->N[1] / 2;
    bad_layout(P, "not a Cartesian product", lo, cnt, N, "not a Cartesian product");
  }
}

static double *widths(int N, double ratio) {
  double *h = malloc(N * sizeof *h), s = 0;
  for (int i = 0; i < N; i++)
    s += (h[i] = pow(ratio, i));
  for (int i = 0; i < N; i++)
    h[i] /= s;
  return h;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const nav_poisson_bc D = NAV_POISSON_DIRICHLET, Ne = NAV_POISSON_NEUMANN, Pe = NAV_POISSON_PERIODIC;
  problem P3 = {"3d-stretch", 3, {24, 20, 16}, {{D, Ne}, {Ne, Ne}, {Ne, D}}, {NULL, NULL, NULL}};
  P3.h[0] = widths(24, 1.0);
  P3.h[1] = widths(20, 1.08); /* geometric growth in y: FFT with one tridiagonal direction */
  P3.h[2] = widths(16, 1.0);
  problem P2 = {"2d-period", 2, {32, 24, 1}, {{Pe, Pe}, {Ne, Ne}, {Ne, Ne}}, {NULL, NULL, NULL}};
  P2.h[0] = widths(32, 1.0);
  P2.h[1] = widths(24, 1.0);
  P2.h[2] = NULL;

  /* layouts per rank count (cuts must fit both problems: x >= 24, y >= 20, z >= 16 in 3D) */
  layout L1[] = {{"one block", {1, 1, 1}, {{0}}, 0, 0, 0}};
  layout L2[] = {{"x 2 uneven", {2, 1, 1}, {{7}}, 0, 0, 0},
                 {"y 2 reversed", {1, 2, 1}, {{0}, {13}}, 1, 0, 0},
                 {"x 1-cell block (moved)", {2, 1, 1}, {{1}}, 0, 0, 0},
                 {"consolidated 2 -> 1", {2, 1, 1}, {{12}}, 0, 0, 2, NULL},
                 {"consolidated 2 -> 1 messages", {2, 1, 1}, {{12}}, 0, 0, 2, "messages"}};
  layout L4[] = {{"x 4 uneven", {4, 1, 1}, {{5, 11, 18}}, 0, 0, 0},
                 {"2 x 2 reversed", {2, 2, 1}, {{9}, {6}}, 1, 0, 0},
                 {"z/y 1 x 2 x 2", {1, 2, 2}, {{0}, {10}, {7}}, 0, 0, 0},
                 {"empty rank 1 (moved)", {3, 1, 1}, {{8, 16}}, 0, 1, 0},
                 {"consolidated 4 -> 2", {2, 2, 1}, {{12}, {10}}, 0, 0, 2},
                 {"consolidated 4 -> 1", {4, 1, 1}, {{6, 12, 18}}, 0, 0, 4, NULL},
                 {"consolidated 4 -> 2 messages", {2, 2, 1}, {{12}, {10}}, 0, 0, 2, "messages"},
                 {"empty rank 1, messages", {3, 1, 1}, {{8, 16}}, 0, 1, 0, "messages"}};
  layout *L = g_size == 1 ? L1 : g_size == 2 ? L2 : L4;
  const int nl = g_size == 1 ? 1 : g_size == 2 ? 5 : 8;
  if (g_size != 1 && g_size != 2 && g_size != 4) {
    if (g_rank == 0) fprintf(stderr, "run on 1, 2 or 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* is fft built? (a solver the library refuses on this build is skipped with a note) */
  nav_poisson_options probe;
  nav_poisson_options_default(&probe);
  probe.solver = "fft";
  nav_poisson *pp = NULL;
  const int lo0[3] = {0, 0, 0}, cnt0[3] = {P3.N[0], P3.N[1], P3.N[2]};
  int have_fft = nav_poisson_create(MPI_COMM_SELF, &probe, &pp) == NAV_OK &&
                 nav_poisson_set_grid_block(pp, 3, P3.N, lo0, cnt0, (const double *const *)P3.h, P3.bc) == NAV_OK;
  nav_poisson_destroy(pp);
  if (!have_fft && g_rank == 0) printf("note: solver fft not available in this build (%s)\n", nav_poisson_error());

  const problem *probs[2] = {&P3, &P2};
  const char *solvers[3] = {"mg", "mgpcg", "fft"};
  for (int ip = 0; ip < 2; ip++) {
    const problem *P = probs[ip];
    const nav_idx total = (nav_idx)P->N[0] * P->N[1] * (P->dim == 3 ? P->N[2] : 1);
    double *xref = malloc(total * sizeof *xref);
    for (int is = 0; is < 3; is++) {
      if (is == 2 && !have_fft) continue;
      for (int precond = 0; precond < 2; precond++) {
        if (precond && is == 0) continue; /* mgpcg's symmetric cycle and fft's inverse */
        nav_poisson_result rref;
        if (reference(P, solvers[is], precond, xref, &rref) != NAV_OK) {
          g_fail++;
          continue;
        }
        for (int l = 0; l < nl; l++) {
          if (P->dim == 2 && L[l].p[2] > 1) continue;
          compare(P, &L[l], solvers[is], precond, xref, &rref);
        }
      }
    }
    free(xref);
  }
  bad_layouts(&P3);
  MPI_Allreduce(MPI_IN_PLACE, &g_fail, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) printf("%s: %d failure(s) on %d rank(s)\n", g_fail ? "FAIL" : "PASS", g_fail, g_size);
  for (int d = 0; d < 3; d++) {
    free(P3.h[d]);
    free(P2.h[d]);
  }
  MPI_Finalize();
  return g_fail ? 1 : 0;
}
