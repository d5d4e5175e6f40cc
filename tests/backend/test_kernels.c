/* Every entry of the kernel table on the CUDA backend against the CPU backend.
 *
 * For each box (2D and 3D, uniform and random non-uniform spacing, an odd global offset so the
 * red-black colours start on black) the same random fields are uploaded to both backends, each
 * kernel runs on both, and the WHOLE arrays (ghosts included: a stray write shows too) are
 * compared in the relative max norm
 *     max_p |x_cuda[p] - x_cpu[p]| / max_p |x_cpu[p]|   <= 1e-12  (FP64),
 * reductions as |r_cuda - r_cpu| / |r_cpu| <= 1e-12; 1e-4 in the single-precision build (float
 * round-off through the longer chains: the SST blending F1 differed by 6.1e-5, the body force sum by
 * 1.3e-5 on one H200; as test_fft's backends check). The differences come from fused multiply-adds
 * on the GPU and the summation order of reductions; a wrong index gives O(1).
 * Exit status 77 (ctest: skipped) when no CUDA device is visible or CUDA is not built. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_ac.h"
#include "backend/common/nav_point_ibm.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/common/nav_point_viscous.h"
#include "backend/nav_ac_kernels.h"
#include "backend/nav_heat_kernels.h"
#include "backend/nav_ibm_kernels.h"
#include "backend/nav_kernels.h"
#include "backend/nav_mg_kernels.h"
#include "backend/nav_open_kernels.h"
#include "backend/nav_sst_kernels.h"
#include "backend/nav_viscous_kernels.h"
#include "core/nav_error.h"
#include "grid/nav_boundary.h"
#include "grid/nav_geometry.h"

#define TOL (sizeof(nav_real) == sizeof(double) ? 1e-12 : 1e-4)

static const nav_kernel_ops *cpu, *gpu;
static int failures, checks;
static unsigned long long rng_state = 88172645463325252ull;

static double rnd(void) { /* uniform in [-1, 1) (xorshift64) */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 9007199254740992.0 * 2 - 1;
}

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_kernels: %s failed (line %d)\n", #call, __LINE__);                                     \
      exit(1);                                                                                                       \
    }                                                                                                                \
  } while (0)

/* One block geometry on both backends. */
typedef struct pair_box {
  const char *label;
  int dim, n[3], g0[3];
  double *w[3];
  nav_box c, g; /* cpu, cuda */
} pair_box;

/* One field: host reference copy of the initial values, the cpu array and the cuda array. */
typedef struct field {
  size_t n;
  nav_real *c, *g;
} field;

/* widths (0.5 .. 1.5) h (uniform: h) with h = 1 / N per direction, or h = hcommon when > 0 (cells of
 * comparable widths in every direction however many there are: the long lines of test_lines) */
static void box_make_h(pair_box *pb, const char *label, int dim, int n0, int n1, int n2, int g0x, int uniform,
                       double hcommon) {
  memset(pb, 0, sizeof *pb);
  pb->label = label;
  pb->dim = dim;
  const int n[3] = {n0, n1, dim == 3 ? n2 : 1};
  for (int d = 0; d < 3; d++) {
    pb->n[d] = n[d];
    pb->g0[d] = d == 0 ? g0x : 0;
    if (d >= dim) continue;
    const int N = n[d] + pb->g0[d]; /* the global grid: the block is its last n cells */
    pb->w[d] = nav_widths_alloc(N);
    const double h = hcommon > 0 ? hcommon : 1.0 / N;
    for (int i = 0; i < N; i++) pb->w[d][i] = uniform ? h : (0.5 + 0.5 * (rnd() + 1)) * h; /* ratios up to 3 */
    nav_widths_ghosts(pb->w[d], N, 0);
  }
  OK(nav_box_create(cpu, dim, pb->n, pb->g0, pb->w, &pb->c));
  OK(nav_box_create(gpu, dim, pb->n, pb->g0, pb->w, &pb->g));
}

static void box_make(pair_box *pb, const char *label, int dim, int n0, int n1, int n2, int g0x, int uniform) {
  box_make_h(pb, label, dim, n0, n1, n2, g0x, uniform, 0);
}

/* Coarse pair of a fine pair ((n+1)/2 cells per direction, widths of pairs summed). */
static void box_coarsen(const pair_box *f, pair_box *pb, const char *label) {
  memset(pb, 0, sizeof *pb);
  pb->label = label;
  pb->dim = f->dim;
  for (int d = 0; d < 3; d++) {
    pb->n[d] = d < f->dim ? nav_coarse_count(f->n[d]) : 1;
    pb->g0[d] = 0;
    if (d >= f->dim) continue;
    pb->w[d] = nav_widths_alloc(pb->n[d]);
    nav_widths_coarsen(f->w[d], f->n[d], 0, pb->w[d]);
  }
  OK(nav_box_create(cpu, pb->dim, pb->n, pb->g0, pb->w, &pb->c));
  OK(nav_box_create(gpu, pb->dim, pb->n, pb->g0, pb->w, &pb->g));
}

/* Semi-coarse pair: the directions with keep[d] keep their cells (nav_box.keep), the others are paired. */
static void box_coarsen_keep(const pair_box *f, pair_box *pb, const char *label, const int keep[3]) {
  memset(pb, 0, sizeof *pb);
  pb->label = label;
  pb->dim = f->dim;
  for (int d = 0; d < 3; d++) {
    pb->n[d] = d >= f->dim ? 1 : keep[d] ? f->n[d] : nav_coarse_count(f->n[d]);
    if (d >= f->dim) continue;
    pb->w[d] = nav_widths_alloc(pb->n[d]);
    if (keep[d]) {
      for (int i = -1; i <= f->n[d]; i++) pb->w[d][i] = f->w[d][i];
    } else {
      nav_widths_coarsen(f->w[d], f->n[d], 0, pb->w[d]);
    }
  }
  OK(nav_box_create(cpu, pb->dim, pb->n, pb->g0, pb->w, &pb->c));
  OK(nav_box_create(gpu, pb->dim, pb->n, pb->g0, pb->w, &pb->g));
  for (int d = 0; d < 3; d++) pb->c.keep[d] = pb->g.keep[d] = keep[d];
}

static void box_free(pair_box *pb) {
  nav_box_destroy(cpu, &pb->c);
  nav_box_destroy(gpu, &pb->g);
  for (int d = 0; d < 3; d++) nav_widths_free(pb->w[d]);
}

/* A field of random values (offset added) on both backends. */
static field field_new(const pair_box *pb, double offset) {
  field f;
  f.n = (size_t)pb->c.ntot;
  nav_real *h = malloc(f.n * sizeof *h);
  for (size_t p = 0; p < f.n; p++) h[p] = (nav_real)(offset + rnd());
  OK(cpu->alloc((void **)&f.c, f.n * sizeof *h));
  OK(gpu->alloc((void **)&f.g, f.n * sizeof *h));
  OK(cpu->from_host(f.c, h, f.n * sizeof *h));
  OK(gpu->from_host(f.g, h, f.n * sizeof *h));
  free(h);
  return f;
}

static void field_free(field *f) {
  cpu->free(f->c);
  gpu->free(f->g);
}

static void report(const char *kernel, const char *label, double rel) {
  const int ok = rel <= TOL; /* NaN fails */
  checks++;
  if (!ok) failures++;
  printf("%-22s %-26s rel diff %.3e  %s\n", kernel, label, rel, ok ? "ok" : "FAIL");
}

/* Compare the whole arrays of f (relative max norm). */
static void check_field(const char *kernel, const pair_box *pb, const field *f) {
  nav_real *g = malloc(f->n * sizeof *g);
  OK(gpu->to_host(g, f->g, f->n * sizeof *g));
  double dmax = 0, xmax = 0;
  int nan = 0;
  for (size_t p = 0; p < f->n; p++) {
    const double a = f->c[p], b = g[p];
    if (isnan(a) != isnan(b)) nan = 1;
    if (isnan(a)) continue;
    dmax = fmax(dmax, fabs(a - b));
    xmax = fmax(xmax, fabs(a));
  }
  free(g);
  report(kernel, pb->label, nan ? NAN : xmax > 0 ? dmax / xmax : dmax);
}

static void check_scalar(const char *kernel, const pair_box *pb, double c, double g) {
  const double rel = c == g ? 0 : fabs(c - g) / fmax(fabs(c), 1e-300);
  report(kernel, pb->label, rel);
}

/* Random values on both backends in arrays of n reals (not a field: the line ends and coefficients). */
static field array_new(size_t n) {
  field f;
  f.n = n;
  nav_real *h = malloc(n * sizeof *h);
  for (size_t p = 0; p < n; p++) h[p] = (nav_real)rnd();
  OK(cpu->alloc((void **)&f.c, n * sizeof *h));
  OK(gpu->alloc((void **)&f.g, n * sizeof *h));
  OK(cpu->from_host(f.c, h, n * sizeof *h));
  OK(gpu->from_host(f.g, h, n * sizeof *h));
  free(h);
  return f;
}

/* face_integral_to (the sums left in backend memory, no host wait): each sum bit for bit face_integral's on the same
 * backend, for the wall shear's batch of every direction (both sides, every tangential component). On the GPU the
 * kernel's last block repeats nav_cuda_reduce's order of combination (faces of more than 256 and 1024 blocks of
 * 256 points: its finishing block of more threads than the kernel's); twice in a row (the block counter back at 0),
 * the results read after another reduction has used the shared scratch of the partials. */
static void test_face_integral_to(pair_box *pb) {
  char name[96];
  double *dev;
  OK(gpu->alloc((void **)&dev, 2 * NAV_FACE_INTEGRALS_MAX * sizeof *dev));
  for (int dir = 0; dir < pb->dim; dir++) {
    field u[3];
    const nav_real *xc[NAV_FACE_INTEGRALS_MAX], *xg[NAV_FACE_INTEGRALS_MAX];
    int side[NAV_FACE_INTEGRALS_MAX], what[NAV_FACE_INTEGRALS_MAX], n = 0;
    for (int c = 0; c < pb->dim; c++)
      u[c] = field_new(pb, 0.1 * c);
    for (int s = 0; s < 2; s++)
      for (int c = 0; c < pb->dim; c++)
        if (c != dir) xc[n] = u[c].c, xg[n] = u[c].g, side[n] = s, what[n] = 1 + c, n++;
    double hc[NAV_FACE_INTEGRALS_MAX], hg[NAV_FACE_INTEGRALS_MAX], tc[NAV_FACE_INTEGRALS_MAX];
    double tg[2 * NAV_FACE_INTEGRALS_MAX], *oc[NAV_FACE_INTEGRALS_MAX], *og[2][NAV_FACE_INTEGRALS_MAX];
    for (int k = 0; k < n; k++) {
      oc[k] = &tc[n - 1 - k]; /* any places, here in reverse */
      og[0][k] = dev + (n - 1 - k);
      og[1][k] = dev + NAV_FACE_INTEGRALS_MAX + k;
    }
    OK(cpu->face_integral(&pb->c, dir, n, xc, side, what, hc));
    OK(gpu->face_integral(&pb->g, dir, n, xg, side, what, hg));
    OK(cpu->face_integral_to(&pb->c, dir, n, xc, side, what, oc));
    OK(gpu->face_integral_to(&pb->g, dir, n, xg, side, what, og[0]));
    OK(gpu->face_integral_to(&pb->g, dir, n, xg, side, what, og[1]));
    double dot;
    OK(gpu->dot(&pb->g, u[0].g, u[0].g, &dot)); /* another reduction over the shared scratch */
    OK(gpu->to_host(tg, dev, sizeof tg));
    for (int k = 0; k < n; k++) {
      snprintf(name, sizeof name, "face_integral_to d%d k%d", dir, k);
      const int same = *oc[k] == hc[k] && tg[n - 1 - k] == hg[k] && tg[NAV_FACE_INTEGRALS_MAX + k] == hg[k];
      report(name, pb->label, same ? 0 : INFINITY); /* bit for bit */
    }
    for (int c = 0; c < pb->dim; c++)
      field_free(&u[c]);
  }
  gpu->free(dev);
}

/* The line kernels of the multigrid on stretched grids along every direction of one box: zebra line
 * relaxation, the segment solves (residual, low and high unit responses, with their ends) and the
 * update of lines split over ranks, with physical ends (Neumann low, Dirichlet high) and kept ends. */
static void test_lines(pair_box *pb) {
  const nav_box *bc = &pb->c, *bg = &pb->g;
  char name[64];
  for (int d = 0; d < pb->dim; d++)
    for (int k = 0; k < 2; k++) {
      const int kind[2] = {k ? 1 : 0, k ? -1 : 0};
      int oa, ob;
      nav_line_others(d, &oa, &ob);
      const size_t lines = (size_t)pb->n[oa] * pb->n[ob];
      field x = field_new(pb, 0), rhs = field_new(pb, 0), cp = field_new(pb, 0), out = field_new(pb, 0);
      field v = field_new(pb, 0), w = field_new(pb, 0), ends = array_new(2 * lines), coef = array_new(2 * lines);
      for (int colour = 0; colour < 2; colour++) {
        OK(nav_mg_kernels_of(cpu)->relax_line(bc, x.c, rhs.c, cp.c, out.c, d, colour, kind, (nav_real)1));
        OK(nav_mg_kernels_of(gpu)->relax_line(bg, x.g, rhs.g, cp.g, out.g, d, colour, kind, (nav_real)1));
        snprintf(name, sizeof name, "relax_line %c %s %s", "xyz"[d], colour ? "black" : "red", k ? "walls" : "kept");
        check_field(name, pb, &x);
      }
      /* out was relax_line's scratch, whose contents are unspecified afterwards (the GPU's block solve
       * does not use it): the same start on both sides for the lines line_solve leaves alone */
      OK(cpu->set(bc, out.c, 0));
      OK(gpu->set(bg, out.g, 0));
      for (int mode = 0; mode < 3; mode++) {
        field *o = mode == 0 ? &out : mode == 1 ? &v : &w;
        /* mode 0 on the lines of colour 0: those of colour 1 were relaxed last, and their line
         * residual is round-off (two backends' round-off compared relatively says nothing) */
        OK(nav_mg_kernels_of(cpu)->line_solve(bc, x.c, rhs.c, cp.c, o->c, d, mode ? -1 : 0, kind, mode, ends.c));
        OK(nav_mg_kernels_of(gpu)->line_solve(bg, x.g, rhs.g, cp.g, o->g, d, mode ? -1 : 0, kind, mode, ends.g));
        snprintf(name, sizeof name, "line_solve %c mode %d %s", "xyz"[d], mode, k ? "walls" : "kept");
        check_field(name, pb, o);
        snprintf(name, sizeof name, "line_solve ends %c %d %s", "xyz"[d], mode, k ? "walls" : "kept");
        check_field(name, pb, &ends);
      }
      OK(nav_mg_kernels_of(cpu)->line_update(bc, x.c, out.c, v.c, w.c, coef.c, d, 0, (nav_real)1));
      OK(nav_mg_kernels_of(gpu)->line_update(bg, x.g, out.g, v.g, w.g, coef.g, d, 0, (nav_real)1));
      snprintf(name, sizeof name, "line_update %c %s", "xyz"[d], k ? "walls" : "kept");
      check_field(name, pb, &x);
      field *all[8] = {&x, &rhs, &cp, &out, &v, &w, &ends, &coef};
      for (int i = 0; i < 8; i++) field_free(all[i]);
    }
}

/* The kernels of one box. */
/* momentum_advance alone, N and u* against the CPU's, forward Euler and AB2, by both CUDA kernels of a plain 3D box
 * (NAV_MOMENTUM_TILED=1: the tiled kernel, partial tiles and chunks; =0: one point per thread) */
static void test_momentum_advance(pair_box *pb) {
  const nav_box *bc = &pb->c, *bg = &pb->g;
  char name[64];
  field u[3], n[3], o[3];
  nav_real *uc[3] = {0}, *ug[3] = {0}, *nc[3] = {0}, *ng[3] = {0}, *oc[3] = {0}, *og[3] = {0};
  for (int tiled = 0; tiled < 2; tiled++) {
    setenv("NAV_MOMENTUM_TILED", tiled ? "1" : "0", 1);
    for (int pass = 0; pass < 2; pass++) {
      const nav_real a = (nav_real)0.013, cc = pass ? (nav_real)-0.004 : 0;
      for (int c = 0; c < pb->dim; c++) {
        u[c] = field_new(pb, 0.2);
        n[c] = field_new(pb, 0);
        o[c] = field_new(pb, 0);
        uc[c] = u[c].c, ug[c] = u[c].g, nc[c] = n[c].c, ng[c] = n[c].g, oc[c] = o[c].c, og[c] = o[c].g;
      }
      OK(cpu->momentum_advance(bc, uc, (nav_real)0.01, a, cc, nc, oc));
      OK(gpu->momentum_advance(bg, ug, (nav_real)0.01, a, cc, ng, og));
      for (int c = 0; c < pb->dim; c++) {
        snprintf(name, sizeof name, "mom_advance%s N%s c%d", tiled ? " tiled" : "", pass ? " ab2" : " euler", c);
        check_field(name, pb, &n[c]);
        snprintf(name, sizeof name, "mom_advance%s u*%s c%d", tiled ? " tiled" : "", pass ? " ab2" : " euler", c);
        check_field(name, pb, &o[c]);
        field_free(&u[c]);
        field_free(&n[c]);
        field_free(&o[c]);
      }
    }
  }
  unsetenv("NAV_MOMENTUM_TILED");
}

/* 1 when x and y hold the same bits at every interior point of b (host arrays). */
static int same_interior(const nav_box *b, const nav_real *x, const nav_real *y) {
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
        if (memcmp(&x[p], &y[p], sizeof *x)) return 0;
      }
  return 1;
}

/* The explicit predictor with an eddy viscosity in one pass (advance_stress), on u and the face viscosities kf,
 * forward Euler and AB2: N and u* against the CPU's, and on each backend bit for bit the unfused path it replaces
 * (momentum_rhs with nu = 0, stress of both parts with scale 1, advance) at the interior faces. */
static void test_advance_stress(pair_box *pb, field *u, field *kf) {
  const nav_box *bc = &pb->c, *bg = &pb->g;
  const nav_viscous_kernels *vc = nav_viscous_kernels_of(cpu), *vg = nav_viscous_kernels_of(gpu);
  const size_t bytes = (size_t)bc->ntot * sizeof(nav_real);
  const int both = NAV_STRESS_DIAG | NAV_STRESS_CROSS;
  char name[64];
  nav_real *h[2] = {malloc(bytes), malloc(bytes)};
  for (int pass = 0; pass < 2; pass++) {
    const nav_real a = (nav_real)0.013, cc = pass ? (nav_real)-0.004 : 0;
    /* fused: N into n, u* over o (a copy of the history ro); unfused: N into r, u* over x (a copy of u) */
    field n[3], o[3], r[3], ro[3], x[3];
    nav_real *uc[3] = {0}, *ug[3] = {0}, *kc[3] = {0}, *kg[3] = {0}, *nc[3] = {0}, *ng[3] = {0}, *oc[3] = {0},
             *og[3] = {0}, *rc[3] = {0}, *rg[3] = {0}, *roc[3] = {0}, *rog[3] = {0}, *xc[3] = {0}, *xg[3] = {0};
    for (int c = 0; c < pb->dim; c++) {
      n[c] = field_new(pb, 0);
      o[c] = field_new(pb, 0);
      r[c] = field_new(pb, 0);
      ro[c] = field_new(pb, 0);
      x[c] = field_new(pb, 0);
      OK(cpu->copy(o[c].c, ro[c].c, bytes));
      OK(gpu->copy(o[c].g, ro[c].g, bytes));
      OK(cpu->copy(x[c].c, u[c].c, bytes));
      OK(gpu->copy(x[c].g, u[c].g, bytes));
      uc[c] = u[c].c, ug[c] = u[c].g, kc[c] = kf[c].c, kg[c] = kf[c].g, nc[c] = n[c].c, ng[c] = n[c].g;
      oc[c] = o[c].c, og[c] = o[c].g, rc[c] = r[c].c, rg[c] = r[c].g, roc[c] = ro[c].c, rog[c] = ro[c].g;
      xc[c] = x[c].c, xg[c] = x[c].g;
    }
    OK(vc->advance_stress(bc, uc, kc, NULL, 0, 0, a, cc, nc, oc));
    OK(vg->advance_stress(bg, ug, kg, NULL, 0, 0, a, cc, ng, og));
    OK(cpu->momentum_rhs(bc, uc, 0, rc));
    OK(gpu->momentum_rhs(bg, ug, 0, rg));
    OK(vc->stress(bc, uc, kc, both, 1, rc));
    OK(vg->stress(bg, ug, kg, both, 1, rg));
    OK(cpu->advance(bc, xc, rc, roc, a, cc));
    OK(gpu->advance(bg, xg, rg, rog, a, cc));
    for (int c = 0; c < pb->dim; c++) {
      const char *step = pass ? "ab2" : "euler";
      snprintf(name, sizeof name, "adv_stress N %s c%d", step, c);
      check_field(name, pb, &n[c]);
      snprintf(name, sizeof name, "adv_stress u* %s c%d", step, c);
      check_field(name, pb, &o[c]);
      const int same_c = same_interior(bc, n[c].c, r[c].c) && same_interior(bc, o[c].c, x[c].c);
      snprintf(name, sizeof name, "adv_stress=cpu %s c%d", step, c);
      report(name, pb->label, same_c ? 0 : 1);
      OK(gpu->to_host(h[0], n[c].g, bytes));
      OK(gpu->to_host(h[1], r[c].g, bytes));
      int same_g = same_interior(bc, h[0], h[1]);
      OK(gpu->to_host(h[0], o[c].g, bytes));
      OK(gpu->to_host(h[1], x[c].g, bytes));
      same_g = same_g && same_interior(bc, h[0], h[1]);
      snprintf(name, sizeof name, "adv_stress=gpu %s c%d", step, c);
      report(name, pb->label, same_g ? 0 : 1);
      field *all[5] = {&n[c], &o[c], &r[c], &ro[c], &x[c]};
      for (int q = 0; q < 5; q++) field_free(all[q]);
    }
  }
  free(h[0]);
  free(h[1]);
}

/* advance_stress with the face viscosities made from the cells (kf = NULL) on each backend: bit for bit the same
 * predictor on the face arrays filled from nut as nav_diffusion_viscosity_changed fills them (face_viscosity, the
 * ghosts periodic or zero-gradient, k_c reflected about its low face), x and z periodic or none; GPU against CPU. */
static void test_advance_stress_cells(pair_box *pb, field *u) {
  const nav_box *bc = &pb->c, *bg = &pb->g;
  const nav_viscous_kernels *vc = nav_viscous_kernels_of(cpu), *vg = nav_viscous_kernels_of(gpu);
  const size_t bytes = (size_t)bc->ntot * sizeof(nav_real);
  const nav_real nu = (nav_real)0.003, a = (nav_real)0.013, cc = (nav_real)-0.004;
  char name[64];
  nav_real *h[2] = {malloc(bytes), malloc(bytes)};
  for (int variant = 0; variant < 2; variant++) {
    const int periodic = variant ? (pb->dim == 3 ? 5 : 1) : 0;
    nav_scalar_bc kind[3][2]; /* the pressure's kinds: periodic or zero-gradient */
    for (int d = 0; d < 3; d++)
      kind[d][0] = kind[d][1] = (periodic >> d) & 1 ? NAV_SCALAR_PERIODIC : NAV_SCALAR_NEUMANN;
    field nut = field_new(pb, 1.5), kf[3], r[2][3], o[2][3];
    nav_real *uc[3] = {0}, *ug[3] = {0}, *kc[3] = {0}, *kg[3] = {0}, *rc[2][3] = {{0}}, *rg[2][3] = {{0}},
             *oc[2][3] = {{0}}, *og[2][3] = {{0}};
    for (int c = 0; c < pb->dim; c++) {
      kf[c] = field_new(pb, 0);
      uc[c] = u[c].c, ug[c] = u[c].g, kc[c] = kf[c].c, kg[c] = kf[c].g;
      for (int m = 0; m < 2; m++) {
        r[m][c] = field_new(pb, 0);
        o[m][c] = field_new(pb, 0);
        if (m) {
          OK(cpu->copy(o[m][c].c, o[0][c].c, bytes));
          OK(gpu->copy(o[m][c].g, o[0][c].g, bytes));
        }
        rc[m][c] = r[m][c].c, rg[m][c] = r[m][c].g, oc[m][c] = o[m][c].c, og[m][c] = o[m][c].g;
      }
    }
    OK(nav_fill_scalar_ghosts(cpu, bc, NULL, (const nav_scalar_bc(*)[2])kind, nut.c));
    OK(nav_fill_scalar_ghosts(gpu, bg, NULL, (const nav_scalar_bc(*)[2])kind, nut.g));
    OK(vc->face_viscosity(bc, nu, nut.c, kc));
    OK(vg->face_viscosity(bg, nu, nut.g, kg));
    for (int c = 0; c < pb->dim; c++) {
      OK(nav_fill_scalar_ghosts(cpu, bc, NULL, (const nav_scalar_bc(*)[2])kind, kc[c]));
      OK(nav_fill_scalar_ghosts(gpu, bg, NULL, (const nav_scalar_bc(*)[2])kind, kg[c]));
      if ((periodic >> c) & 1) continue;
      OK(cpu->fill_ghost(bc, kc[c], c, 0, NAV_GHOST_REFLECT, 0, 0));
      OK(gpu->fill_ghost(bg, kg[c], c, 0, NAV_GHOST_REFLECT, 0, 0));
    }
    OK(vc->advance_stress(bc, uc, kc, NULL, 0, 0, a, cc, rc[0], oc[0]));
    OK(vg->advance_stress(bg, ug, kg, NULL, 0, 0, a, cc, rg[0], og[0]));
    OK(vc->advance_stress(bc, uc, NULL, nut.c, nu, periodic, a, cc, rc[1], oc[1]));
    OK(vg->advance_stress(bg, ug, NULL, nut.g, nu, periodic, a, cc, rg[1], og[1]));
    for (int c = 0; c < pb->dim; c++) {
      snprintf(name, sizeof name, "adv_stress cells N p%d c%d", periodic, c);
      check_field(name, pb, &r[1][c]);
      snprintf(name, sizeof name, "adv_stress cells u* p%d c%d", periodic, c);
      check_field(name, pb, &o[1][c]);
      snprintf(name, sizeof name, "adv_stress cells=kf cpu p%d c%d", periodic, c);
      report(name, pb->label,
             same_interior(bc, r[0][c].c, r[1][c].c) && same_interior(bc, o[0][c].c, o[1][c].c) ? 0 : 1);
      OK(gpu->to_host(h[0], r[0][c].g, bytes));
      OK(gpu->to_host(h[1], r[1][c].g, bytes));
      int same_g = same_interior(bc, h[0], h[1]);
      OK(gpu->to_host(h[0], o[0][c].g, bytes));
      OK(gpu->to_host(h[1], o[1][c].g, bytes));
      same_g = same_g && same_interior(bc, h[0], h[1]);
      snprintf(name, sizeof name, "adv_stress cells=kf gpu p%d c%d", periodic, c);
      report(name, pb->label, same_g ? 0 : 1);
      field *all[5] = {&kf[c], &r[0][c], &r[1][c], &o[0][c], &o[1][c]};
      for (int q = 0; q < 5; q++)
        field_free(all[q]);
    }
    field_free(&nut);
  }
  free(h[0]);
  free(h[1]);
}

static void test_box(pair_box *pb) {
  const nav_box *bc = &pb->c, *bg = &pb->g;
  const int dim = pb->dim;
  char name[64];

  /* memory: from_host above, copy and to_host here */
  {
    field a = field_new(pb, 0), b = field_new(pb, 0);
    OK(cpu->copy(b.c, a.c, a.n * sizeof(nav_real)));
    OK(gpu->copy(b.g, a.g, a.n * sizeof(nav_real)));
    check_field("copy", pb, &b);
    field_free(&a);
    field_free(&b);
  }
  /* set */
  {
    field a = field_new(pb, 0);
    OK(cpu->set(bc, a.c, (nav_real)2.5));
    OK(gpu->set(bg, a.g, (nav_real)2.5));
    check_field("set", pb, &a);
    field_free(&a);
  }
  /* fill_ghost: every face and kind */
  {
    static const char *kinds[] = {"mirror", "periodic", "face", "reflect"};
    for (int dir = 0; dir < dim; dir++)
      for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < 4; kind++) {
          field a = field_new(pb, 0);
          const nav_real alpha = kind == NAV_GHOST_MIRROR ? -1 : 0, beta = (nav_real)0.3;
          OK(cpu->fill_ghost(bc, a.c, dir, side, (nav_ghost_kind)kind, alpha, beta));
          OK(gpu->fill_ghost(bg, a.g, dir, side, (nav_ghost_kind)kind, alpha, beta));
          snprintf(name, sizeof name, "fill_ghost d%d s%d %s", dir, side, kinds[kind]);
          check_field(name, pb, &a);
          field_free(&a);
        }
  }
  /* fill_ghost_dir: the faces of one direction of three fields in one pass (component 0 staggered: face
   * rules; 1: mirror and reflect; 2: periodic), every pair on, then the high side of field 1 off */
  for (int dir = 0; dir < dim; dir++)
    for (int variant = 0; variant < 2; variant++) {
      static const nav_ghost_kind kind[2][3] = {{NAV_GHOST_FACE, NAV_GHOST_MIRROR, NAV_GHOST_PERIODIC},
                                                {NAV_GHOST_FACE, NAV_GHOST_REFLECT, NAV_GHOST_PERIODIC}};
      field f[3] = {field_new(pb, 0), field_new(pb, 0), field_new(pb, 0)};
      nav_ghost_dir gc, gg;
      memset(&gc, 0, sizeof gc);
      for (int s = 0; s < 2; s++)
        for (int c = 0; c < 3; c++) {
          gc.on[s][c] = !(variant && s == 1 && c == 1);
          gc.kind[s][c] = kind[s][c];
          gc.alpha[s][c] = (nav_real)-1;
          gc.beta[s][c] = (nav_real)(0.2 + 0.1 * c + 0.05 * s);
        }
      gg = gc;
      for (int c = 0; c < 3; c++) {
        gc.x[c] = f[c].c;
        gg.x[c] = f[c].g;
      }
      OK(cpu->fill_ghost_dir(bc, dir, &gc));
      OK(gpu->fill_ghost_dir(bg, dir, &gg));
      for (int c = 0; c < 3; c++) {
        snprintf(name, sizeof name, "fill_ghost_dir d%d variant %d field %d", dir, variant, c);
        check_field(name, pb, &f[c]);
        field_free(&f[c]);
      }
    }
  /* inflow and outflow faces (nav_point_open.h): ghosts from a plane, the outflow update (with and
   * without a shift), the face integrals; every face, normal and tangential components */
  for (int dir = 0; dir < dim; dir++)
    for (int side = 0; side < 2; side++)
      for (int normal = 0; normal < 2; normal++) {
        field x = field_new(pb, 0), plane = field_new(pb, 1);
        OK(nav_open_kernels_of(cpu)->fill_ghost_plane(bc, x.c, dir, side, normal, plane.c));
        OK(nav_open_kernels_of(gpu)->fill_ghost_plane(bg, x.g, dir, side, normal, plane.g));
        snprintf(name, sizeof name, "fill_ghost_plane d%d s%d n%d", dir, side, normal);
        check_field(name, pb, &x);
        OK(nav_open_kernels_of(cpu)->outflow_update(bc, x.c, dir, side, normal, (nav_real)0.037, (nav_real)0.01, plane.c));
        OK(nav_open_kernels_of(gpu)->outflow_update(bg, x.g, dir, side, normal, (nav_real)0.037, (nav_real)0.01, plane.g));
        snprintf(name, sizeof name, "outflow_update d%d s%d n%d", dir, side, normal);
        check_field(name, pb, &plane);
        OK(nav_open_kernels_of(cpu)->outflow_update(bc, x.c, dir, side, normal, 0, (nav_real)-0.3, plane.c));
        OK(nav_open_kernels_of(gpu)->outflow_update(bg, x.g, dir, side, normal, 0, (nav_real)-0.3, plane.g));
        snprintf(name, sizeof name, "outflow shift d%d s%d n%d", dir, side, normal);
        check_field(name, pb, &plane);
        for (int what = 0; what <= dim; what++) {
          double sc, sg;
          if (what == 1 + dir) continue; /* the normal component has no wall gradient */
          const nav_real *xc = what ? x.c : plane.c, *xg = what ? x.g : plane.g;
          OK(cpu->face_integral(bc, dir, 1, &xc, &side, &what, &sc));
          OK(gpu->face_integral(bg, dir, 1, &xg, &side, &what, &sg));
          snprintf(name, sizeof name, "face_integral d%d s%d w%d", dir, side, what);
          check_scalar(name, pb, sc, sg);
        }
        field_free(&x);
        field_free(&plane);
      }
  /* the wall shear's batch (nav_models_wall_shear): both sides and every tangential component of a direction in
   * one face_integral, each sum bit for bit the single one's on the same backend */
  for (int dir = 0; dir < dim; dir++) {
    field u[3];
    const nav_real *xc[NAV_FACE_INTEGRALS_MAX], *xg[NAV_FACE_INTEGRALS_MAX];
    int side[NAV_FACE_INTEGRALS_MAX], what[NAV_FACE_INTEGRALS_MAX], n = 0;
    for (int c = 0; c < dim; c++)
      u[c] = field_new(pb, 0.1 * c);
    for (int s = 0; s < 2; s++)
      for (int c = 0; c < dim; c++)
        if (c != dir) xc[n] = u[c].c, xg[n] = u[c].g, side[n] = s, what[n] = 1 + c, n++;
    double bc_sum[NAV_FACE_INTEGRALS_MAX], bg_sum[NAV_FACE_INTEGRALS_MAX];
    OK(cpu->face_integral(bc, dir, n, xc, side, what, bc_sum));
    OK(gpu->face_integral(bg, dir, n, xg, side, what, bg_sum));
    for (int k = 0; k < n; k++) {
      double sc, sg;
      OK(cpu->face_integral(bc, dir, 1, &xc[k], &side[k], &what[k], &sc));
      OK(gpu->face_integral(bg, dir, 1, &xg[k], &side[k], &what[k], &sg));
      snprintf(name, sizeof name, "face_integral batch d%d k%d", dir, k);
      report(name, pb->label, bc_sum[k] == sc && bg_sum[k] == sg ? 0 : INFINITY); /* bit for bit */
      check_scalar(name, pb, bc_sum[k], bg_sum[k]);
    }
    for (int c = 0; c < dim; c++)
      field_free(&u[c]);
  }
  for (int c = 0; c < dim; c++) {
    field x = field_new(pb, 0.5);
    double sc, sg;
    OK(cpu->face_sum(bc, x.c, c, &sc));
    OK(gpu->face_sum(bg, x.g, c, &sg));
    snprintf(name, sizeof name, "face_sum c%d", c);
    check_scalar(name, pb, sc, sg);
    field_free(&x);
  }
  /* fill_ghosts: all faces at once, mixed mirror and periodic faces */
  for (int variant = 0; variant < 2; variant++) {
    nav_ghost_faces gf;
    for (int d = 0; d < 3; d++)
      for (int s = 0; s < 2; s++) {
        gf.kind[d][s] = (d + variant) % 2 ? NAV_GHOST_PERIODIC : NAV_GHOST_MIRROR;
        gf.alpha[d][s] = (nav_real)(s ? -1 : 1);
        gf.beta[d][s] = (nav_real)(0.1 * (d + 1) + 0.05 * s);
        gf.skip[d] = variant && d == 1; /* a direction left to the halo exchange */
      }
    field a = field_new(pb, 0);
    OK(cpu->fill_ghosts(bc, a.c, &gf));
    OK(gpu->fill_ghosts(bg, a.g, &gf));
    snprintf(name, sizeof name, "fill_ghosts variant %d", variant);
    check_field(name, pb, &a);
    field_free(&a);
  }
  /* pack_face / unpack_face (halo exchange): planes -1, 0, n-1, n of every direction */
  for (int dir = 0; dir < dim; dir++) {
    const int t0 = dir == 0 ? 1 : 0, t1 = dir == 2 ? 1 : 2;
    const size_t len = (size_t)(pb->n[t0] + 2) * (dim == 3 ? (size_t)(pb->n[t1] + 2) : 1);
    const int layers[4] = {-1, 0, pb->n[dir] - 1, pb->n[dir]};
    for (int l = 0; l < 4; l++) {
      const int side = layers[l] > pb->n[dir] / 2;
      field x = field_new(pb, 0), buf;
      buf.n = len;
      OK(cpu->alloc((void **)&buf.c, len * sizeof(nav_real)));
      OK(gpu->alloc((void **)&buf.g, len * sizeof(nav_real)));
      OK(cpu->pack_face(bc, x.c, dir, side, layers[l], buf.c));
      OK(gpu->pack_face(bg, x.g, dir, side, layers[l], buf.g));
      snprintf(name, sizeof name, "pack_face d%d l%d", dir, layers[l]);
      check_field(name, pb, &buf); /* the buffers */
      /* unpack the buffer into another random field */
      field y = field_new(pb, 0);
      OK(cpu->unpack_face(bc, y.c, dir, side, layers[l], buf.c));
      OK(gpu->unpack_face(bg, y.g, dir, side, layers[l], buf.g));
      snprintf(name, sizeof name, "unpack_face d%d l%d", dir, layers[l]);
      check_field(name, pb, &y);
      field_free(&x);
      field_free(&y);
      field_free(&buf);
    }
  }
  /* copy_faces (the halo exchange's packs and unpacks): 3 fields, both sides, and one side alone */
  for (int dir = 0; dir < dim; dir++)
    for (int sides = 1; sides <= 3; sides++) {
      const int t0 = dir == 0 ? 1 : 0, t1 = dir == 2 ? 1 : 2;
      const size_t len = (size_t)(pb->n[t0] + 2) * (dim == 3 ? (size_t)(pb->n[t1] + 2) : 1);
      field x[3], y[3], buf[2];
      nav_real *xc[3], *xg[3], *yc[3], *yg[3];
      for (int f = 0; f < 3; f++) {
        x[f] = field_new(pb, 0);
        y[f] = field_new(pb, 0);
        xc[f] = x[f].c, xg[f] = x[f].g, yc[f] = y[f].c, yg[f] = y[f].g;
      }
      nav_real *bcs[2] = {NULL, NULL}, *bgs[2] = {NULL, NULL};
      for (int s = 0; s < 2; s++) {
        buf[s].n = 3 * len;
        OK(cpu->alloc((void **)&buf[s].c, 3 * len * sizeof(nav_real)));
        OK(gpu->alloc((void **)&buf[s].g, 3 * len * sizeof(nav_real)));
        if (sides >> s & 1) bcs[s] = buf[s].c, bgs[s] = buf[s].g;
      }
      const int out[2] = {0, pb->n[dir] - 1}, in[2] = {-1, pb->n[dir]};
      OK(cpu->copy_faces(bc, xc, 3, dir, out, bcs, 1));
      OK(gpu->copy_faces(bg, xg, 3, dir, out, bgs, 1));
      for (int s = 0; s < 2; s++)
        if (sides >> s & 1) {
          snprintf(name, sizeof name, "copy_faces pack d%d side %d of mask %d", dir, s, sides);
          check_field(name, pb, &buf[s]);
        }
      OK(cpu->copy_faces(bc, yc, 3, dir, in, bcs, 0));
      OK(gpu->copy_faces(bg, yg, 3, dir, in, bgs, 0));
      for (int f = 0; f < 3; f++) {
        snprintf(name, sizeof name, "copy_faces unpack d%d field %d of mask %d", dir, f, sides);
        check_field(name, pb, &y[f]);
        field_free(&x[f]);
        field_free(&y[f]);
      }
      field_free(&buf[0]);
      field_free(&buf[1]);
    }
  /* flow kernels on a random velocity */
  {
    field u[3], r[3], ro[3], q = field_new(pb, 0), dv = field_new(pb, 0);
    nav_real *uc[3] = {0}, *ug[3] = {0}, *rc[3] = {0}, *rg[3] = {0}, *roc[3] = {0}, *rog[3] = {0};
    for (int c = 0; c < dim; c++) {
      u[c] = field_new(pb, 0.2);
      r[c] = field_new(pb, 0);
      ro[c] = field_new(pb, 0);
      uc[c] = u[c].c, ug[c] = u[c].g, rc[c] = r[c].c, rg[c] = r[c].g, roc[c] = ro[c].c, rog[c] = ro[c].g;
    }
    OK(cpu->momentum_rhs(bc, uc, (nav_real)0.01, rc));
    OK(gpu->momentum_rhs(bg, ug, (nav_real)0.01, rg));
    for (int c = 0; c < dim; c++) {
      snprintf(name, sizeof name, "momentum_rhs c%d", c);
      check_field(name, pb, &r[c]);
    }
    for (int pass = 0; pass < 2; pass++) { /* forward Euler (c = 0, rhs_old unread), then AB2 */
      const nav_real a = (nav_real)0.013, cc = pass ? (nav_real)-0.004 : 0;
      /* the fused predictor first, from the same u and rhs_old: N into n2, u* over o2 (a copy of rhs_old) */
      field n2[3], o2[3];
      nav_real *n2c[3] = {0}, *n2g[3] = {0}, *o2c[3] = {0}, *o2g[3] = {0};
      const size_t bytes = (size_t)bc->ntot * sizeof(nav_real);
      for (int c = 0; c < dim; c++) {
        n2[c] = field_new(pb, 0);
        o2[c] = field_new(pb, 0);
        OK(cpu->copy(o2[c].c, roc[c], bytes));
        OK(gpu->copy(o2[c].g, rog[c], bytes));
        n2c[c] = n2[c].c, n2g[c] = n2[c].g, o2c[c] = o2[c].c, o2g[c] = o2[c].g;
      }
      OK(cpu->momentum_advance(bc, uc, (nav_real)0.01, a, cc, n2c, o2c));
      OK(gpu->momentum_advance(bg, ug, (nav_real)0.01, a, cc, n2g, o2g));
      OK(cpu->momentum_rhs(bc, uc, (nav_real)0.01, rc)); /* N of this u, for advance */
      OK(gpu->momentum_rhs(bg, ug, (nav_real)0.01, rg));
      OK(cpu->advance(bc, uc, rc, roc, a, cc));
      OK(gpu->advance(bg, ug, rg, rog, a, cc));
      for (int c = 0; c < dim; c++) {
        snprintf(name, sizeof name, "advance%s c%d", pass ? " ab2" : " euler", c);
        check_field(name, pb, &u[c]);
        snprintf(name, sizeof name, "mom_advance N%s c%d", pass ? " ab2" : " euler", c);
        check_field(name, pb, &n2[c]);
        snprintf(name, sizeof name, "mom_advance u*%s c%d", pass ? " ab2" : " euler", c);
        check_field(name, pb, &o2[c]);
        /* the CPU's contract: bit for bit momentum_rhs then advance at the interior faces (the
         * ghosts of the fused arrays keep their random values) */
        int same = 1;
        for (int k = 0; k < bc->n[2]; k++)
          for (int j = 0; j < bc->n[1]; j++)
            for (int i = 0; i < bc->n[0]; i++) {
              const nav_idx p = bc->off + i * bc->st[0] + j * bc->st[1] + k * bc->st[2];
              same &= n2[c].c[p] == rc[c][p] && o2[c].c[p] == uc[c][p];
            }
        snprintf(name, sizeof name, "mom_advance=cpu%s c%d", pass ? " ab2" : " euler", c);
        report(name, pb->label, same ? 0 : 1);
        field_free(&n2[c]);
        field_free(&o2[c]);
      }
    }
    double mc, mg;
    OK(cpu->divergence(bc, uc, (nav_real)7, dv.c, &mc, NULL));
    OK(gpu->divergence(bg, ug, (nav_real)7, dv.g, &mg, NULL));
    check_field("divergence", pb, &dv);
    check_scalar("divergence max", pb, mc, mg);
    OK(cpu->divergence(bc, uc, 1, NULL, &mc, NULL));
    OK(gpu->divergence(bg, ug, 1, NULL, &mg, NULL));
    check_scalar("divergence max only", pb, mc, mg);
    { /* the sum of div dV on the device (backend memory), twice: the last-block counter resets. The
       * sum telescopes to the boundary fluxes (most terms cancel): differences of summation order are
       * measured against sum |div| dV */
      double *sg, sc, sgh, sum_c, sum_g, scale = 0;
      OK(gpu->alloc((void **)&sg, sizeof(double)));
      for (int rep = 0; rep < 2; rep++) {
        OK(cpu->divergence(bc, uc, (nav_real)3, dv.c, NULL, &sc));
        OK(gpu->divergence(bg, ug, (nav_real)3, dv.g, NULL, sg));
        OK(gpu->to_host(&sgh, sg, sizeof sgh));
        check_field("divergence +sum", pb, &dv);
        if (rep == 0)
          for (int k = 0; k < bc->n[2]; k++)
            for (int j = 0; j < bc->n[1]; j++)
              for (int i = 0; i < bc->n[0]; i++) {
                const int ijk[3] = {i, j, k};
                scale += fabs((double)dv.c[bc->off + i * bc->st[0] + j * bc->st[1] + k * bc->st[2]]) *
                         (double)nav_cell_volume(bc, ijk);
              }
        report("divergence sum", pb->label, fabs(sc - sgh) / scale);
      }
      OK(cpu->sum(bc, dv.c, &sum_c)); /* the same sum as `sum` of the values written */
      OK(gpu->sum(bg, dv.g, &sum_g));
      report("div sum = sum (cpu)", pb->label, fabs(sum_c - sc) / scale);
      report("div sum = sum (cuda)", pb->label, fabs(sum_g - sgh) / scale);
      gpu->free(sg);
    }
    OK(cpu->correct(bc, uc, q.c, (nav_real)0.05));
    OK(gpu->correct(bg, ug, q.g, (nav_real)0.05));
    for (int c = 0; c < dim; c++) {
      snprintf(name, sizeof name, "correct c%d", c);
      check_field(name, pb, &u[c]);
    }
    double ac, dc, nc, ag, dg, ng;
    field nf = field_new(pb, 1.5); /* a cell field standing for nu_t */
    OK(cpu->time_rates(bc, uc, nf.c, &ac, &dc, &nc));
    OK(gpu->time_rates(bg, ug, nf.g, &ag, &dg, &ng));
    check_scalar("time_rates adv", pb, ac, ag);
    check_scalar("time_rates diff", pb, dc, dg);
    check_scalar("time_rates nut_max", pb, nc, ng);
    field_free(&nf);
    OK(cpu->kinetic_energy(bc, uc, &mc));
    OK(gpu->kinetic_energy(bg, ug, &mg));
    check_scalar("kinetic_energy", pb, mc, mg);
    /* temperature: advection-diffusion right-hand side, and the force added to the momentum's */
    field T = field_new(pb, 0.5), st = field_new(pb, 0);
    OK(nav_heat_kernels_of(cpu)->scalar_rhs(bc, uc, T.c, (nav_real)0.03, NULL, 0, 0, st.c));
    OK(nav_heat_kernels_of(gpu)->scalar_rhs(bg, ug, T.g, (nav_real)0.03, NULL, 0, 0, st.g));
    check_field("scalar_rhs", pb, &st);
    /* with the eddy diffusivity nu_t / Pr_t of an LES closure (a random nu_t >= 0), periodic and walls all round */
    field nt = field_new(pb, 0.5);
    for (int walls = 0; walls < 2; walls++) {
      const int bnd = walls ? (dim == 3 ? 63 : 27) : 0;
      OK(nav_heat_kernels_of(cpu)->scalar_rhs(bc, uc, T.c, (nav_real)0.03, nt.c, (nav_real)(1 / 0.85), bnd, st.c));
      OK(nav_heat_kernels_of(gpu)->scalar_rhs(bg, ug, T.g, (nav_real)0.03, nt.g, (nav_real)(1 / 0.85), bnd, st.g));
      check_field(walls ? "scalar_rhs eddy walls" : "scalar_rhs eddy", pb, &st);
    }
    field_free(&nt);
    const nav_real coef[3][3] = {{(nav_real)0.3, (nav_real)-7.1, (nav_real)2.2}, {0, (nav_real)-710, 0}};
    for (int g = 0; g < 2; g++) {
      OK(nav_heat_kernels_of(cpu)->buoyancy(bc, T.c, coef[g], (nav_real)0.45, rc));
      OK(nav_heat_kernels_of(gpu)->buoyancy(bg, T.g, coef[g], (nav_real)0.45, rg));
      for (int c = 0; c < dim; c++) {
        snprintf(name, sizeof name, "buoyancy %s c%d", g ? "g=-y" : "g oblique", c);
        check_field(name, pb, &r[c]);
      }
    }
    field_free(&T);
    field_free(&st);
    for (int c = 0; c < dim; c++) {
      field_free(&u[c]);
      field_free(&r[c]);
      field_free(&ro[c]);
    }
    field_free(&q);
    }
  /* Poisson kernels */
  {
    field x = field_new(pb, 0), y = field_new(pb, 0), rhs = field_new(pb, 0), inv = field_new(pb, 0);
    OK(cpu->laplacian(bc, x.c, y.c));
    OK(gpu->laplacian(bg, x.g, y.g));
    check_field("laplacian", pb, &y);
    double rc, rg;
    OK(cpu->residual(bc, x.c, rhs.c, y.c, &rc));
    OK(gpu->residual(bg, x.g, rhs.g, y.g, &rg));
    check_field("residual", pb, &y);
    check_scalar("residual norm", pb, rc, rg);
    OK(cpu->shift(bc, y.c, 1)); /* make y differ from the last residual */
    OK(gpu->shift(bg, y.g, 1));
    OK(cpu->residual(bc, x.c, rhs.c, y.c, NULL));
    OK(gpu->residual(bg, x.g, rhs.g, y.g, NULL));
    check_field("residual (no norm)", pb, &y);
    OK(cpu->inverse_diagonal(bc, inv.c));
    OK(gpu->inverse_diagonal(bg, inv.g));
    check_field("inverse_diagonal", pb, &inv);
    for (int colour = 0; colour < 2; colour++) {
      OK(cpu->relax_colour(bc, x.c, rhs.c, inv.c, colour, (nav_real)1.3));
      OK(gpu->relax_colour(bg, x.g, rhs.g, inv.g, colour, (nav_real)1.3));
      snprintf(name, sizeof name, "relax_colour %s", colour ? "black" : "red");
      check_field(name, pb, &x);
    }
    for (int colour = 0; colour < 2; colour++) { /* the first half sweep from x = 0 (x's interior rewritten) */
      OK(nav_mg_kernels_of(cpu)->relax_first(bc, x.c, rhs.c, inv.c, colour, (nav_real)1.3));
      OK(nav_mg_kernels_of(gpu)->relax_first(bg, x.g, rhs.g, inv.g, colour, (nav_real)1.3));
      snprintf(name, sizeof name, "relax_first %s", colour ? "black" : "red");
      check_field(name, pb, &x);
    }
    OK(cpu->jacobi(bc, x.c, rhs.c, inv.c, y.c, (nav_real)0.8));
    OK(gpu->jacobi(bg, x.g, rhs.g, inv.g, y.g, (nav_real)0.8));
    check_field("jacobi", pb, &y);
    OK(cpu->diag_scale(bc, inv.c, rhs.c, y.c));
    OK(gpu->diag_scale(bg, inv.g, rhs.g, y.g));
    check_field("diag_scale", pb, &y);
    { /* dense_copy (the library's device blocks): a dense array into the interior of y and x back out */
      const size_t cells = (size_t)pb->n[0] * pb->n[1] * pb->n[2];
      double *dh = malloc(cells * sizeof *dh), *dc = malloc(cells * sizeof *dc), *dg;
      for (size_t q = 0; q < cells; q++) dh[q] = rnd();
      OK(gpu->alloc((void **)&dg, cells * sizeof *dg));
      OK(gpu->from_host(dg, dh, cells * sizeof *dh));
      OK(cpu->dense_copy(bc, y.c, dh, 1));
      OK(gpu->dense_copy(bg, y.g, dg, 1));
      check_field("dense_copy in", pb, &y);
      OK(cpu->dense_copy(bc, x.c, dc, 0));
      OK(gpu->dense_copy(bg, x.g, dg, 0));
      OK(gpu->to_host(dh, dg, cells * sizeof *dh));
      double dmax = 0, xmax = 0;
      for (size_t q = 0; q < cells; q++) dmax = fmax(dmax, fabs(dc[q] - dh[q])), xmax = fmax(xmax, fabs(dc[q]));
      report("dense_copy out", pb->label, xmax > 0 ? dmax / xmax : dmax);
      gpu->free(dg);
      free(dh);
      free(dc);
    }
    field_free(&x);
    field_free(&y);
    field_free(&rhs);
    field_free(&inv);
  }
  /* the Poisson kernels in Helmholtz form (implicit diffusion): a random positive coefficient at the
   * cells and a shift */
  {
    field x = field_new(pb, 0), y = field_new(pb, 0), rhs = field_new(pb, 0), inv = field_new(pb, 0);
    field kc = field_new(pb, 2.5); /* in [1.5, 3.5) */
    nav_box hc = *bc, hg = *bg;
    hc.kc = kc.c;
    hg.kc = kc.g;
    hc.shift = hg.shift = (nav_real)3.7;
    OK(cpu->laplacian(&hc, x.c, y.c));
    OK(gpu->laplacian(&hg, x.g, y.g));
    check_field("helmholtz laplacian", pb, &y);
    double rc, rg;
    OK(cpu->residual(&hc, x.c, rhs.c, y.c, &rc));
    OK(gpu->residual(&hg, x.g, rhs.g, y.g, &rg));
    check_field("helmholtz residual", pb, &y);
    check_scalar("helmholtz residual norm", pb, rc, rg);
    OK(cpu->inverse_diagonal(&hc, inv.c));
    OK(gpu->inverse_diagonal(&hg, inv.g));
    check_field("helmholtz inverse_diag", pb, &inv);
    for (int colour = 0; colour < 2; colour++) {
      OK(cpu->relax_colour(&hc, x.c, rhs.c, inv.c, colour, (nav_real)1.2));
      OK(gpu->relax_colour(&hg, x.g, rhs.g, inv.g, colour, (nav_real)1.2));
      snprintf(name, sizeof name, "helmholtz relax %s", colour ? "black" : "red");
      check_field(name, pb, &x);
    }
    OK(nav_mg_kernels_of(cpu)->relax_first(&hc, x.c, rhs.c, inv.c, 1, (nav_real)1.2));
    OK(nav_mg_kernels_of(gpu)->relax_first(&hg, x.g, rhs.g, inv.g, 1, (nav_real)1.2));
    check_field("helmholtz relax_first black", pb, &x);
    OK(cpu->jacobi(&hc, x.c, rhs.c, inv.c, y.c, (nav_real)0.8));
    OK(gpu->jacobi(&hg, x.g, rhs.g, inv.g, y.g, (nav_real)0.8));
    check_field("helmholtz jacobi", pb, &y);
    field_free(&x);
    field_free(&y);
    field_free(&rhs);
    field_free(&inv);
    field_free(&kc);
  }
  /* variable viscosity: the face viscosity of every component, the stress-form viscous term (each
   * part, with and without a viscosity field) */
  {
    field u[3], r[3], kf[3], nut = field_new(pb, 1.5);
    nav_real *uc[3] = {0}, *ug[3] = {0}, *rc[3] = {0}, *rg[3] = {0}, *kc[3] = {0}, *kg[3] = {0};
    for (int c = 0; c < dim; c++) {
      u[c] = field_new(pb, 0.2);
      r[c] = field_new(pb, 0);
      kf[c] = field_new(pb, 1.0);
      uc[c] = u[c].c, ug[c] = u[c].g, rc[c] = r[c].c, rg[c] = r[c].g;
      kc[c] = kf[c].c, kg[c] = kf[c].g;
    }
    OK(nav_viscous_kernels_of(cpu)->face_viscosity(bc, (nav_real)0.01, nut.c, kc));
    OK(nav_viscous_kernels_of(gpu)->face_viscosity(bg, (nav_real)0.01, nut.g, kg));
    for (int c = 0; c < dim; c++) {
      snprintf(name, sizeof name, "face_viscosity c%d", c);
      check_field(name, pb, &kf[c]);
    }
    for (int part = 1; part <= 3; part++)
      for (int withk = 0; withk < 2; withk++) {
        OK(nav_viscous_kernels_of(cpu)->stress(bc, uc, withk ? kc : NULL, part, (nav_real)0.7, rc));
        OK(nav_viscous_kernels_of(gpu)->stress(bg, ug, withk ? kg : NULL, part, (nav_real)0.7, rg));
        for (int c = 0; c < dim; c++) {
          snprintf(name, sizeof name, "stress part%d%s c%d", part, withk ? " k" : "", c);
          check_field(name, pb, &r[c]);
        }
      }
    test_advance_stress(pb, u, kf);
    test_advance_stress_cells(pb, u);
    for (int c = 0; c < dim; c++) {
      field_free(&u[c]);
      field_free(&r[c]);
      field_free(&kf[c]);
    }
    field_free(&nut);
  }
  /* vector algebra and reductions */
  {
    field x = field_new(pb, 0), y = field_new(pb, 0), z = field_new(pb, 0.5);
    OK(cpu->axpby(bc, (nav_real)0.7, x.c, (nav_real)-1.1, y.c));
    OK(gpu->axpby(bg, (nav_real)0.7, x.g, (nav_real)-1.1, y.g));
    check_field("axpby", pb, &y);
    OK(cpu->extrapolate(bc, (nav_real)0.8, y.c, x.c));
    OK(gpu->extrapolate(bg, (nav_real)0.8, y.g, x.g));
    check_field("extrapolate x", pb, &y);
    check_field("extrapolate x_old", pb, &x);
    double sc, sg, tc, tg;
    OK(cpu->dot(bc, x.c, z.c, &sc));
    OK(gpu->dot(bg, x.g, z.g, &sg));
    check_scalar("dot", pb, sc, sg);
    OK(cpu->sum(bc, z.c, &sc));
    OK(gpu->sum(bg, z.g, &sg));
    check_scalar("sum", pb, sc, sg);
    OK(cpu->shift(bc, x.c, (nav_real)0.25));
    OK(gpu->shift(bg, x.g, (nav_real)0.25));
    check_field("shift", pb, &x);
    int badc, badg;
    OK(cpu->max_abs_diff(bc, x.c, y.c, &sc, &tc, &badc));
    OK(gpu->max_abs_diff(bg, x.g, y.g, &sg, &tg, &badg));
    check_scalar("max_abs_diff diff", pb, sc, sg);
    check_scalar("max_abs_diff max", pb, tc, tg);
    check_scalar("max_abs_diff bad=0", pb, badc, badg);
    OK(cpu->max_abs_diff(bc, x.c, NULL, NULL, &tc, NULL));
    OK(gpu->max_abs_diff(bg, x.g, NULL, NULL, &tg, NULL));
    check_scalar("max_abs_diff (y NULL)", pb, tc, tg);
    /* a NaN at an interior point: both flag it */
    const nav_real nan = (nav_real)NAN;
    const nav_idx p = bc->off + (nav_idx)(bc->n[0] / 2) * bc->st[0] + (nav_idx)(bc->n[1] / 3) * bc->st[1];
    OK(cpu->from_host(x.c + p, &nan, sizeof nan));
    OK(gpu->from_host(x.g + p, &nan, sizeof nan));
    OK(cpu->max_abs_diff(bc, x.c, y.c, &sc, &tc, &badc));
    OK(gpu->max_abs_diff(bg, x.g, y.g, &sg, &tg, &badg));
    check_scalar("max_abs_diff bad=1", pb, badc + 10.0 * (badc != 1), badg);
    check_scalar("max_abs_diff NaN max", pb, tc, tg);
    field_free(&x);
    field_free(&y);
    field_free(&z);
  }
}

/* The k-omega SST cell terms (nav_point_sst.h) on random fields: k in [0.5, 2.5), omega in [2, 4), the
 * wall distance in [0.5, 2.5) (F1, F2 between 0 and 1), every output array; and the Helmholtz
 * operator with a variable shift (the k, omega solves of physics/turbulence/nav_sst.h). */
static void test_sst(pair_box *pb) {
  const int dim = pb->dim;
  char name[64];
  field u[3], k = field_new(pb, 1.5), w = field_new(pb, 3.0), wd = field_new(pb, 1.5), out[8];
  nav_real *uc[3] = {0}, *ug[3] = {0}, *oc[8], *og[8];
  for (int c = 0; c < dim; c++) {
    u[c] = field_new(pb, 0.2);
    uc[c] = u[c].c, ug[c] = u[c].g;
  }
  for (int i = 0; i < 8; i++) {
    out[i] = field_new(pb, 0);
    oc[i] = out[i].c, og[i] = out[i].g;
  }
  OK(nav_sst_kernels_of(cpu)->sst_cells(&pb->c, uc, k.c, w.c, wd.c, (nav_real)0.01, oc));
  OK(nav_sst_kernels_of(gpu)->sst_cells(&pb->g, ug, k.g, w.g, wd.g, (nav_real)0.01, og));
  static const char *const what[8] = {"nut", "F1", "Gamma_k", "Gamma_w", "q_k", "q_w", "c_k", "c_w"};
  for (int i = 0; i < 8; i++) {
    snprintf(name, sizeof name, "sst_cells %s", what[i]);
    check_field(name, pb, &out[i]);
  }
  /* the Helmholtz laplacian and residual with coefficient Gamma_k and variable shift c_w, the CPU's values
   * given to both backends (so the check measures these kernels, not the round-off of sst_cells that
   * made them), positive at the ghosts too as the solver's filled coefficient ghosts are (the random
   * ghosts of the output arrays, in [-1, 1), made diagonals near 0: 1e-11 apart by rounding alone) */
  for (size_t p = 0; p < out[2].n; p++) {
    out[2].c[p] = (nav_real)(fabs((double)out[2].c[p]) + 0.01);
    out[7].c[p] = (nav_real)fabs((double)out[7].c[p]);
  }
  OK(gpu->from_host(out[2].g, out[2].c, out[2].n * sizeof(nav_real)));
  OK(gpu->from_host(out[7].g, out[7].c, out[7].n * sizeof(nav_real)));
  field y = field_new(pb, 0), rhs = field_new(pb, 0), inv = field_new(pb, 0);
  nav_box hc = pb->c, hg = pb->g;
  hc.kc = out[2].c, hg.kc = out[2].g;
  hc.sc = out[7].c, hg.sc = out[7].g;
  hc.shift = hg.shift = (nav_real)2.0;
  OK(cpu->laplacian(&hc, k.c, y.c));
  OK(gpu->laplacian(&hg, k.g, y.g));
  check_field("helmholtz laplacian, variable shift", pb, &y);
  OK(cpu->inverse_diagonal(&hc, inv.c));
  OK(gpu->inverse_diagonal(&hg, inv.g));
  check_field("helmholtz inverse_diag, variable shift", pb, &inv);
  OK(gpu->from_host(inv.g, inv.c, inv.n * sizeof(nav_real))); /* the relaxation from the same diagonal */
  OK(cpu->relax_colour(&hc, k.c, rhs.c, inv.c, 0, (nav_real)1.0));
  OK(gpu->relax_colour(&hg, k.g, rhs.g, inv.g, 0, (nav_real)1.0));
  check_field("helmholtz relax, variable shift", pb, &k);
  field_free(&y);
  field_free(&rhs);
  field_free(&inv);
  for (int c = 0; c < dim; c++) field_free(&u[c]);
  for (int i = 0; i < 8; i++) field_free(&out[i]);
  field_free(&k);
  field_free(&w);
  field_free(&wd);
}

/* Artificial compressibility (nav_point_ac.h): the stage updates with residual maxima, on random
 * fields (velocity offset 0.2, so every rate is positive). */
static void test_ac(pair_box *pb) {
  const int dim = pb->dim;
  char name[64];
  field u[3], u0[3], r[3], q = field_new(pb, 0), q0 = field_new(pb, 0), fp = field_new(pb, 0);
  field T = field_new(pb, 0), T0 = field_new(pb, 0), rT = field_new(pb, 0);
  nav_real *uc[3] = {0}, *ug[3] = {0}, *u0c[3] = {0}, *u0g[3] = {0}, *rc[3] = {0}, *rg[3] = {0};
  for (int c = 0; c < dim; c++) {
    u[c] = field_new(pb, 0.2);
    u0[c] = field_new(pb, 0.2);
    r[c] = field_new(pb, 0);
    uc[c] = u[c].c, ug[c] = u[c].g, u0c[c] = u0[c].c, u0g[c] = u0[c].g, rc[c] = r[c].c, rg[c] = r[c].g;
  }
  /* ac_u_ref: u_ref^2 from the largest |u_c| at the interior points (random ghosts around them), the speed of the
   * state above the floor, below it, and a fixed u_ref; both backends give the host's value from max_abs_diff bit
   * for bit (a max is exact) */
  field ur = array_new(1);
  double umax = 0;
  for (int c = 0; c < dim; c++) {
    double m;
    OK(cpu->max_abs_diff(&pb->c, uc[c], NULL, NULL, &m, NULL));
    umax = fmax(umax, m);
  }
  const double refs[3][2] = {{0, 0.1}, {0, 5}, {0.3, 5}}; /* ac_u_ref, floor */
  for (int i = 0; i < 3; i++) {
    const nav_real want = nav_ac_u_ref2(umax, refs[i][0], refs[i][1]);
    nav_real got_g;
    OK(nav_ac_kernels_of(cpu)->ac_u_ref(&pb->c, uc, refs[i][0], refs[i][1], ur.c));
    OK(nav_ac_kernels_of(gpu)->ac_u_ref(&pb->g, ug, refs[i][0], refs[i][1], ur.g));
    OK(gpu->to_host(&got_g, ur.g, sizeof got_g));
    snprintf(name, sizeof name, "ac_u_ref %d", i);
    report(name, pb->label, ur.c[0] == want && got_g == want ? 0 : NAN);
  }
  const nav_real u_ref2 = (nav_real)0.04;
  OK(cpu->from_host(ur.c, &u_ref2, sizeof u_ref2));
  OK(gpu->from_host(ur.g, &u_ref2, sizeof u_ref2));
  nav_ac_params a = {.alpha = (nav_real)0.5, .cfl = (nav_real)1.5, .beta2 = (nav_real)1.3, .u_ref2 = ur.c,
                     .nu = (nav_real)0.01, .diss = (nav_real)0.7, .skip_low = {1, 0, 1}};
  nav_ac_params ag = a; /* u_ref2 in the device's memory */
  ag.u_ref2 = ur.g;
  double mc[2], mg[2];
  for (int pass = 0; pass < 2; pass++) { /* with and without the temperature and the forcing */
    OK(nav_ac_kernels_of(cpu)->ac_cells(&pb->c, uc, u0c, q.c, q0.c, pass ? fp.c : NULL, pass ? T.c : NULL, T0.c, rT.c, &a, mc));
    OK(nav_ac_kernels_of(gpu)->ac_cells(&pb->g, ug, u0g, q.g, q0.g, pass ? fp.g : NULL, pass ? T.g : NULL, T0.g, rT.g, &ag, mg));
    snprintf(name, sizeof name, "ac_cells p%s", pass ? " T f" : "");
    check_field(name, pb, &q);
    check_scalar("ac_cells max div", pb, mc[0], mg[0]);
    if (pass) {
      check_field("ac_cells T", pb, &T);
      check_scalar("ac_cells max S(T)", pb, mc[1], mg[1]);
    }
  }
  OK(nav_ac_kernels_of(cpu)->ac_momentum(&pb->c, uc, u0c, rc, q.c, &a, mc));
  OK(nav_ac_kernels_of(gpu)->ac_momentum(&pb->g, ug, u0g, rg, q.g, &ag, mg));
  for (int c = 0; c < dim; c++) {
    snprintf(name, sizeof name, "ac_momentum c%d", c);
    check_field(name, pb, &u[c]);
  }
  check_scalar("ac_momentum max", pb, mc[0], mg[0]);
  OK(nav_ac_kernels_of(cpu)->ac_dissipation(&pb->c, uc, T.c, a.diss, rc, rT.c));
  OK(nav_ac_kernels_of(gpu)->ac_dissipation(&pb->g, ug, T.g, a.diss, rg, rT.g));
  for (int c = 0; c < dim; c++) {
    snprintf(name, sizeof name, "ac_dissipation c%d", c);
    check_field(name, pb, &r[c]);
  }
  check_field("ac_dissipation T", pb, &rT);
  for (int c = 0; c < dim; c++) {
    field_free(&u[c]);
    field_free(&u0[c]);
    field_free(&r[c]);
  }
  field *fs[7] = {&q, &q0, &fp, &T, &T0, &rT, &ur};
  for (int i = 0; i < 7; i++) field_free(fs[i]);
}

/* The immersed-boundary forcing: tags of three bodies with random solid fractions on about half of the
 * faces (0 elsewhere), random velocities and pressure; first with the body velocities and no pressure term,
 * then with the pressure term, a velocity per face (rotating bodies) and the sums. */
static void test_ibm(pair_box *pb) {
  const int dim = pb->dim;
  field u[3], tag[3], vel[3], q = field_new(pb, 0);
  nav_real *uc[3] = {0}, *ug[3] = {0}, *tc[3] = {0}, *tg[3] = {0}, *vcp[3] = {0}, *vgp[3] = {0};
  for (int c = 0; c < dim; c++) {
    u[c] = field_new(pb, 0.3);
    vel[c] = field_new(pb, 0);
    vcp[c] = vel[c].c, vgp[c] = vel[c].g;
    tag[c] = field_new(pb, 0);
    nav_real *h = malloc(tag[c].n * sizeof *h);
    for (size_t p = 0; p < tag[c].n; p++) {
      const double r = rnd(), a = 0.5 * (rnd() + 1);
      h[p] = r < 0 ? 0 : nav_ibm_tag((int)(3 * r) % 3, (nav_real)(r < 0.1 ? 1.0 : a));
    }
    OK(cpu->from_host(tag[c].c, h, tag[c].n * sizeof *h));
    OK(gpu->from_host(tag[c].g, h, tag[c].n * sizeof *h));
    free(h);
    uc[c] = u[c].c, ug[c] = u[c].g, tc[c] = tag[c].c, tg[c] = tag[c].g;
  }
  nav_ibm_params a;
  memset(&a, 0, sizeof a);
  a.nbody = 3;
  for (int k = 0; k < 3; k++)
    for (int c = 0; c < 3; c++) a.velocity[k][c] = (nav_real)rnd();
  for (int pass = 0; pass < 2; pass++) {
    double sc[NAV_IBM_NSUM], sg[NAV_IBM_NSUM];
    a.gscale = pass ? (nav_real)0.37 : 0;
    OK(nav_ibm_kernels_of(cpu)->ibm_force(&pb->c, uc, tc, q.c, pass ? vcp : NULL, &a, pass ? sc : NULL));
    OK(nav_ibm_kernels_of(gpu)->ibm_force(&pb->g, ug, tg, q.g, pass ? vgp : NULL, &a, pass ? sg : NULL));
    for (int c = 0; c < dim; c++) check_field(pass ? "ibm_force u (grad p, v)" : "ibm_force u", pb, &u[c]);
    for (int n = 0; pass && n < 3 * a.nbody; n++)
      if (n % 3 < dim) check_scalar("ibm_force sum", pb, sc[n], sg[n]);
  }
  for (int c = 0; c < dim; c++) {
    field_free(&u[c]);
    field_free(&tag[c]);
    field_free(&vel[c]);
  }
  field_free(&q);
}

/* The sharp-interface forcing: about a quarter of the interior faces of each component forced (distinct targets),
 * each with NAV_IBM_NSRC random sources anywhere in the array (ghosts included; some weights 0, some sources other
 * targets: the update must read them before it writes), random constants, volumes and owners among three bodies;
 * without and with the sums. */
static void test_ibm_sharp(pair_box *pb) {
  const int dim = pb->dim;
  const nav_box *b = &pb->c;
  field u[3];
  nav_real *uc[3] = {0}, *ug[3] = {0};
  for (int c = 0; c < dim; c++) {
    u[c] = field_new(pb, 0.3);
    uc[c] = u[c].c, ug[c] = u[c].g;
  }
  const size_t cap = (size_t)dim * (size_t)b->ntot, nq = NAV_IBM_NSRC;
  nav_idx *target = malloc(cap * sizeof *target), *src = malloc(nq * cap * sizeof *src);
  int *owner = malloc(cap * sizeof *owner);
  nav_real *weight = malloc(nq * cap * sizeof *weight), *value = malloc(cap * sizeof *value);
  nav_real *volume = malloc(cap * sizeof *volume);
  nav_ibm_stencils s;
  memset(&s, 0, sizeof s);
  nav_idx n = 0;
  for (int c = 0; c < 3; c++) {
    s.start[c] = n;
    for (int k = 0; c < dim && k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++)
          if (rnd() < -0.5) {
            target[n] = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
            owner[n] = (int)(3 * (rnd() + 1) / 2) % 3;
            value[n] = (nav_real)rnd();
            volume[n] = (nav_real)(1 + rnd());
            n++;
          }
  }
  s.start[3] = s.n = n;
  for (int q = 0; q < NAV_IBM_NSRC; q++)
    for (nav_idx m = 0; m < n; m++) {
      const double r = rnd();
      src[q * n + m] = (nav_idx)((r + 1) / 2 * (double)(b->ntot - 1));
      weight[q * n + m] = r < -0.7 ? 0 : (nav_real)(0.25 * (rnd() + 1));
    }
  nav_ibm_stencils sc = s, sg = s;
  struct {
    void **c, **g;
    const void *h;
    size_t bytes;
  } arrays[7] = {{(void **)&sc.target, (void **)&sg.target, target, (size_t)n * sizeof *target},
                 {(void **)&sc.owner, (void **)&sg.owner, owner, (size_t)n * sizeof *owner},
                 {(void **)&sc.src, (void **)&sg.src, src, nq * (size_t)n * sizeof *src},
                 {(void **)&sc.weight, (void **)&sg.weight, weight, nq * (size_t)n * sizeof *weight},
                 {(void **)&sc.value, (void **)&sg.value, value, (size_t)n * sizeof *value},
                 {(void **)&sc.volume, (void **)&sg.volume, volume, (size_t)n * sizeof *volume},
                 {(void **)&sc.next, (void **)&sg.next, value, (size_t)n * sizeof *value}};
  for (int a = 0; a < 7; a++) {
    OK(cpu->alloc(arrays[a].c, arrays[a].bytes));
    OK(gpu->alloc(arrays[a].g, arrays[a].bytes));
    OK(cpu->from_host(*arrays[a].c, arrays[a].h, arrays[a].bytes));
    OK(gpu->from_host(*arrays[a].g, arrays[a].h, arrays[a].bytes));
  }
  for (int pass = 0; pass < 2; pass++) {
    double sumc[NAV_IBM_NSUM], sumg[NAV_IBM_NSUM];
    OK(nav_ibm_kernels_of(cpu)->ibm_sharp(uc, &sc, pass ? sumc : NULL));
    OK(nav_ibm_kernels_of(gpu)->ibm_sharp(ug, &sg, pass ? sumg : NULL));
    for (int c = 0; c < dim; c++) check_field(pass ? "ibm_sharp u (sums)" : "ibm_sharp u", pb, &u[c]);
    for (int m = 0; pass && m < 3 * 3; m++)
      if (m % 3 < dim) check_scalar("ibm_sharp sum", pb, sumc[m], sumg[m]);
  }
  for (int a = 0; a < 7; a++) {
    cpu->free(*arrays[a].c);
    gpu->free(*arrays[a].g);
  }
  for (int c = 0; c < dim; c++) field_free(&u[c]);
  free(target);
  free(src);
  free(owner);
  free(weight);
  free(value);
  free(volume);
}

/* The face transfers of the pseudo-time multigrid (even counts). */
static void test_ac_transfer(pair_box *f, pair_box *c) {
  field uf[3], uc[3];
  nav_real *fc[3] = {0}, *fg[3] = {0}, *cc[3] = {0}, *cg[3] = {0};
  for (int k = 0; k < f->dim; k++) {
    uf[k] = field_new(f, 0);
    uc[k] = field_new(c, 0);
    fc[k] = uf[k].c, fg[k] = uf[k].g, cc[k] = uc[k].c, cg[k] = uc[k].g;
  }
  OK(nav_ac_kernels_of(cpu)->ac_restrict_faces(&f->c, fc, &c->c, cc));
  OK(nav_ac_kernels_of(gpu)->ac_restrict_faces(&f->g, fg, &c->g, cg));
  for (int k = 0; k < f->dim; k++) check_field("ac_restrict_faces", c, &uc[k]);
  OK(nav_ac_kernels_of(cpu)->ac_prolong_faces_add(&c->c, cc, &f->c, fc));
  OK(nav_ac_kernels_of(gpu)->ac_prolong_faces_add(&c->g, cg, &f->g, fg));
  for (int k = 0; k < f->dim; k++) check_field("ac_prolong_faces_add", f, &uf[k]);
  for (int k = 0; k < f->dim; k++) {
    field_free(&uf[k]);
    field_free(&uc[k]);
  }
}

/* Transfers between a fine pair and its coarse pair. */
static void test_transfer(pair_box *f, pair_box *c) {
  field r = field_new(f, 0), rhs = field_new(c, 0), xc = field_new(c, 0), x = field_new(f, 0);
  OK(cpu->restrict_residual(&f->c, r.c, &c->c, rhs.c));
  OK(gpu->restrict_residual(&f->g, r.g, &c->g, rhs.g));
  check_field("restrict_residual", c, &rhs);
  { /* the fused residual and restriction (GPU) against the CPU's residual then restriction */
    field xr = field_new(f, 0), br = field_new(f, 0), rr = field_new(f, 0), cr = field_new(c, 0);
    OK(cpu->residual(&f->c, xr.c, br.c, rr.c, NULL));
    OK(cpu->restrict_residual(&f->c, rr.c, &c->c, cr.c));
    OK(nav_mg_kernels_of(gpu)->residual_restrict(&f->g, xr.g, br.g, &c->g, cr.g));
    check_field("residual_restrict", c, &cr);
    field_free(&xr);
    field_free(&br);
    field_free(&rr);
    field_free(&cr);
  }
  OK(cpu->prolong_add(&c->c, xc.c, &f->c, x.c));
  OK(gpu->prolong_add(&c->g, xc.g, &f->g, x.g));
  check_field("prolong_add", f, &x);
  field_free(&r);
  field_free(&rhs);
  field_free(&xc);
  field_free(&x);
}

/* The whole red-black sweep in one pass (relax_sweep, the CUDA wavefront kernel) against the CPU's two colour
 * sweeps with the ghost fill between (both orders, from x and from x = 0), on a 3D uniform box under mirror rules
 * (Neumann and Dirichlet faces mixed), the results' ghosts filled; then the float version (nav_box.lo) against the
 * CUDA backend's own float colour kernels (the same operations: the tolerance is float's 1e-6, not TOL). */
static void test_sweep(pair_box *pb) {
  const nav_box *bc = &pb->c, *bg = &pb->g;
  if (!nav_mg_kernels_of(gpu)->relax_sweep || pb->dim != 3 || !bc->uniform) return;
  char name[96];
  nav_ghost_faces gf;
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      gf.kind[d][s] = NAV_GHOST_MIRROR;
      gf.alpha[d][s] = (nav_real)((d + s) % 2 ? -1 : 1);
      gf.beta[d][s] = 0;
      gf.skip[d] = 0;
    }
  const nav_real omega = (nav_real)1.2;
  field x = field_new(pb, 0), rhs = field_new(pb, 0), out = field_new(pb, 0), inv = field_new(pb, 0);
  OK(cpu->inverse_diagonal(bc, inv.c));
  for (int from_zero = 0; from_zero < 2; from_zero++)
    for (int first = 0; first < 2; first++) {
      OK(cpu->fill_ghosts(bc, x.c, &gf));
      OK(gpu->fill_ghosts(bg, x.g, &gf));
      OK(cpu->copy(out.c, x.c, out.n * sizeof(nav_real)));
      if (from_zero)
        OK(nav_mg_kernels_of(cpu)->relax_first(bc, out.c, rhs.c, inv.c, first, omega));
      else
        OK(cpu->relax_colour(bc, out.c, rhs.c, inv.c, first, omega));
      OK(cpu->fill_ghosts(bc, out.c, &gf));
      OK(cpu->relax_colour(bc, out.c, rhs.c, inv.c, 1 - first, omega));
      OK(cpu->fill_ghosts(bc, out.c, &gf));
      OK(nav_mg_kernels_of(gpu)->relax_sweep(bg, from_zero ? NULL : x.g, rhs.g, out.g, first, omega));
      OK(gpu->fill_ghosts(bg, out.g, &gf));
      snprintf(name, sizeof name, "relax_sweep %s%s", first ? "black" : "red", from_zero ? " from 0" : "");
      check_field(name, pb, &out);
      OK(cpu->copy(x.c, out.c, x.n * sizeof(nav_real))); /* the next sweep from this one's result */
      OK(gpu->copy(x.g, out.g, x.n * sizeof(nav_real)));
    }
  /* float: the sweep against relax_colour (relax_first), fill, relax_colour on the same float arrays */
  nav_box lo = *bg;
  lo.lo = 1;
  const size_t n = x.n;
  float *h = malloc(n * sizeof *h), *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
  float *xf, *rf, *of;
  OK(gpu->alloc((void **)&xf, n * sizeof *h));
  OK(gpu->alloc((void **)&rf, n * sizeof *h));
  OK(gpu->alloc((void **)&of, n * sizeof *h));
  for (size_t p = 0; p < n; p++)
    h[p] = (float)rnd();
  OK(gpu->from_host(rf, h, n * sizeof *h));
  for (size_t p = 0; p < n; p++)
    h[p] = (float)rnd();
  for (int from_zero = 0; from_zero < 2; from_zero++)
    for (int first = 0; first < 2; first++) {
      OK(gpu->from_host(xf, h, n * sizeof *h));
      OK(gpu->fill_ghosts(&lo, (nav_real *)xf, &gf));
      OK(gpu->copy(of, xf, n * sizeof *h));
      if (from_zero)
        OK(nav_mg_kernels_of(gpu)->relax_first(&lo, (nav_real *)of, (nav_real *)rf, NULL, first, omega));
      else
        OK(gpu->relax_colour(&lo, (nav_real *)of, (nav_real *)rf, NULL, first, omega));
      OK(gpu->fill_ghosts(&lo, (nav_real *)of, &gf));
      OK(gpu->relax_colour(&lo, (nav_real *)of, (nav_real *)rf, NULL, 1 - first, omega));
      OK(gpu->fill_ghosts(&lo, (nav_real *)of, &gf));
      OK(gpu->to_host(ref, of, n * sizeof *h));
      OK(nav_mg_kernels_of(gpu)->relax_sweep(&lo, from_zero ? NULL : (nav_real *)xf, (nav_real *)rf, (nav_real *)of,
                                             first, omega));
      OK(gpu->fill_ghosts(&lo, (nav_real *)of, &gf));
      OK(gpu->to_host(got, of, n * sizeof *h));
      double dmax = 0, xmax = 0;
      for (size_t p = 0; p < n; p++)
        dmax = fmax(dmax, fabs((double)got[p] - ref[p])), xmax = fmax(xmax, fabs((double)ref[p]));
      const double rel = xmax > 0 ? dmax / xmax : dmax;
      checks++;
      if (!(rel <= 1e-6)) failures++;
      snprintf(name, sizeof name, "relax_sweep float %s%s", first ? "black" : "red", from_zero ? " from 0" : "");
      printf("%-22s %-26s rel diff %.3e  %s\n", name, pb->label, rel, rel <= 1e-6 ? "ok" : "FAIL");
    }
  gpu->free(xf);
  gpu->free(rf);
  gpu->free(of);
  free(h);
  free(ref);
  free(got);
  field_free(&x);
  field_free(&rhs);
  field_free(&out);
  field_free(&inv);
}

int main(int argc, char **argv) {
  const int only_sharp = argc > 1 && !strcmp(argv[1], "ibm_sharp"); /* gpu_kernels_ibm_sharp: that kernel alone */
  if (nav_backend_device_count("cuda") == 0) {
    printf("test_kernels: no CUDA device visible (or CUDA not built): skipped\n");
    return 77;
  }
  cpu = nav_backend_get("cpu", 0);
  gpu = nav_backend_get("cuda", 0);
  if (!cpu || !gpu) {
    fprintf(stderr, "test_kernels: backend missing (cpu %p, cuda %p)\n", (const void *)cpu, (const void *)gpu);
    return 1;
  }
  pair_box boxes[5];
  box_make(&boxes[0], "2D 37x29 stretched g0=1", 2, 37, 29, 1, 1, 0);
  box_make(&boxes[1], "2D 64x48 uniform", 2, 64, 48, 1, 0, 1);
  box_make(&boxes[2], "3D 19x23x17 stretched g0=1", 3, 19, 23, 17, 1, 0);
  box_make(&boxes[3], "3D 32x16x24 uniform", 3, 32, 16, 24, 0, 1);
  box_make(&boxes[4], "3D 66x40x36 stretched", 3, 66, 40, 36, 0, 0);
  if (only_sharp) {
    for (int i = 0; i < 5; i++) {
      test_ibm_sharp(&boxes[i]);
      box_free(&boxes[i]);
    }
    printf("test_kernels ibm_sharp: %d of %d checks passed\n", checks - failures, checks);
    return failures ? 1 : 0;
  }
  for (int i = 0; i < 5; i++) {
    test_ibm_sharp(&boxes[i]);
    test_box(&boxes[i]);
    test_face_integral_to(&boxes[i]);
    test_ac(&boxes[i]);
    test_sst(&boxes[i]);
    test_ibm(&boxes[i]);
    test_lines(&boxes[i]);
    test_sweep(&boxes[i]);
  }
  { /* the wavefront sweep and momentum_advance's tiled kernel on odd counts, partial tiles, several chunks of planes
     * and a red-black origin on black; the second box has chunks of 9 planes in float and 23 in FP64 on a GPU of
     * 132 SMs (more steps than plane slots, chunks that start on odd planes); the third 33 chunks of momentum_advance,
     * the last one of 2 planes */
    pair_box odd[3];
    box_make(&odd[0], "3D 37x21x45 uniform g0=1", 3, 37, 21, 45, 1, 1);
    box_make(&odd[1], "3D 200x200x45 uniform g0=1", 3, 200, 200, 45, 1, 1);
    box_make(&odd[2], "3D 70x18x130 uniform", 3, 70, 18, 130, 0, 1);
    for (int i = 0; i < 3; i++) {
      test_sweep(&odd[i]);
      test_momentum_advance(&odd[i]);
      box_free(&odd[i]);
    }
  }
  { /* face_integral_to on faces of 300 and 1500 blocks of 256 points (z): nav_cuda_reduce's finishing block then
     * has 320 and 1024 threads, the kernel's last block 256 */
    pair_box big[2];
    box_make(&big[0], "3D 300x256x3 uniform", 3, 300, 256, 3, 0, 1);
    box_make(&big[1], "3D 640x600x3 stretched", 3, 640, 600, 3, 0, 0);
    for (int i = 0; i < 2; i++) {
      test_face_integral_to(&big[i]);
      box_free(&big[i]);
    }
  }
  /* the line kernels on long lines (a CUDA thread block per line: 256 threads for 1703 and 2048 cells,
   * 128 for 600) and on lines too long for a block's shared memory (the thread-per-line fallback) */
  enum { NL = 5 };
  pair_box lb[NL];
  box_make_h(&lb[0], "2D 1703x6 lines g0=1", 2, 1703, 6, 1, 1, 0, 1.0 / 64);
  box_make_h(&lb[1], "2D 5x2048 lines", 2, 5, 2048, 1, 0, 0, 1.0 / 64);
  box_make_h(&lb[2], "3D 9x7x600 lines g0=1", 3, 9, 7, 600, 1, 0, 1.0 / 64);
  box_make_h(&lb[3], "2D 12001x3 lines (fallback)", 2, 12001, 3, 1, 0, 0, 1.0 / 64);
  box_make_h(&lb[4], "2D 3x12000 lines (fallback)", 2, 3, 12000, 1, 1, 0, 1.0 / 64);
  for (int i = 0; i < NL; i++) {
    test_lines(&lb[i]);
    box_free(&lb[i]);
  }
  /* multigrid transfers: fine boxes (even and odd counts) and their coarse boxes */
  enum { NT = 5 };
  pair_box fine[NT], coarse[NT];
  box_make(&fine[0], "2D 40x34 stretched (fine)", 2, 40, 34, 1, 0, 0);
  box_make(&fine[1], "3D 18x22x16 stretched (fine)", 3, 18, 22, 16, 0, 0);
  box_make(&fine[2], "3D 32x32x32 uniform (fine)", 3, 32, 32, 32, 0, 1);
  box_make(&fine[3], "2D 37x29 stretched (fine)", 2, 37, 29, 1, 0, 0);
  box_make(&fine[4], "3D 19x22x13 stretched (fine)", 3, 19, 22, 13, 0, 0);
  const char *cl[NT] = {"2D 20x17 (coarse)", "3D 9x11x8 (coarse)", "3D 16x16x16 (coarse)", "2D 19x15 (coarse)",
                        "3D 10x11x7 (coarse)"};
  for (int i = 0; i < NT; i++) {
    box_coarsen(&fine[i], &coarse[i], cl[i]);
    test_transfer(&fine[i], &coarse[i]);
    if (i < 3) test_ac_transfer(&fine[i], &coarse[i]); /* even counts */
  }
  /* semi-coarsening: y kept */
  pair_box semi[2];
  const int keep_y[3] = {0, 1, 0};
  box_coarsen_keep(&fine[0], &semi[0], "2D 20x34 (y kept)", keep_y);
  box_coarsen_keep(&fine[4], &semi[1], "3D 10x22x7 (y kept)", keep_y);
  test_transfer(&fine[0], &semi[0]);
  test_transfer(&fine[4], &semi[1]);
  box_free(&semi[0]);
  box_free(&semi[1]);
  for (int i = 0; i < 5; i++) box_free(&boxes[i]);
  for (int i = 0; i < NT; i++) {
    box_free(&fine[i]);
    box_free(&coarse[i]);
  }
  printf("test_kernels: %d of %d checks failed (tolerance %.0e, relative max norm)\n", failures, checks, TOL);
  return failures ? 1 : 0;
}
