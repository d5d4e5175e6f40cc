/* Geometric multigrid for the cell-centred Poisson operator.
 *
 * Hierarchy: each level merges pairs of cells in every direction, n -> (n + 1) / 2, while some
 * direction has more than 2 cells. A level with an odd count is coarsened only when it has more
 * than NAV_MG_ODD_MIN_CELLS cells (its last coarse cell holds one fine cell, which slows the
 * cycle: 0.14 instead of 0.07 per cycle at 100^2); smaller ones become the coarsest level.
 * Stretched grids: a level smoothed by lines (mg_line.c) keeps the cells of its line directions
 * while another direction can still be paired (semi-coarsening, nav_box.keep on the coarse level;
 * the odd-count rule then looks at the paired directions only).
 * Coarse widths are sums of fine widths and the operator is re-discretised on each level. The
 * coarsest level is solved directly (banded Cholesky, mg_direct.c) when it is serial and on the CPU,
 * else by Jacobi-preconditioned CG (relative 1e-10).
 * Cycle on level l (V; the F-cycle recurses with an F-cycle then a V-cycle):
 *   pre-smooth, r = b - L x, b_{l+1} = R r, x_{l+1} = 0, cycle on l+1, x += P x_{l+1}, post-smooth.
 * R: volume-weighted average of the children; P: linear interpolation (nav_point_poisson.h).
 * Smoother: red-black Gauss-Seidel over-relaxed by NAV_MG_OMEGA, red then black; as the
 * preconditioner of CG the post-smoothing runs black then red so the cycle is symmetric. Levels with
 * strongly anisotropic couplings (stretched grids) use zebra line Gauss-Seidel instead (mg_line.c).
 * Across ranks: the hierarchy is the one-rank hierarchy, whatever the split. Each rank coarsens
 * its own block (n -> (n+1)/2) while the global grid would be coarsened (the rule above, on the
 * global counts) and every block count is even (the last block of a direction may be odd) and
 * >= 4 (coarse blocks keep >= 2 cells): then the ranks' coarse blocks are exactly the one-rank
 * coarse grid. Every rank knows every block (the partition), so the coarse partition and the coarse
 * global widths (the concatenation of the blocks' coarse widths) need no communication. When a
 * level's blocks cannot be coarsened so, its residual is gathered onto rank 0 (MPI_Gatherv) into a
 * serial copy of the level (the transfer level), restricted and cycled there on one block with
 * the one-rank code, prolonged into the transfer level, and the correction is scattered back
 * (MPI_Scatterv) and added; the other ranks wait. nav_decomp splits grids in units of 2^k cells so
 * that the gather comes late (on a small level).
 * Overlap: on a level split over ranks whose blocks have at least opt.overlap_cells cells, each
 * colour of a sweep may relax the block's shell first and its core while the halo exchange runs
 * on the backend's side stream ([run] halo_overlap, nav_mg_relax_overlapped); the result is the
 * same bit for bit.
 * Measured choices (docs/performance.md): the linear (adjoint) restriction instead of the average
 * doubled the V(2,2) factor (0.22 vs 0.13 at 256^2); post-smoothing red-black instead of
 * black-red took it from 0.13 to 0.094 (2D) and 0.15 to 0.12 (3D); omega = 1.2 to 0.069 (2D, 256^2)
 * and 0.084 (3D, 64^3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_metric.h"
#include "backend/nav_mg_kernels.h"
#include "core/nav_error.h"
#include "core/nav_profile.h"
#include "solvers/poisson/poisson_impl.h"

#define NAV_MG_COARSE_TOL 1e-10
#define NAV_MG_OMEGA 1.2          /* over-relaxation of the red-black smoother */
#define NAV_MG_ODD_MIN_CELLS 4096 /* coarsen a level with an odd count only above this size */
/* On a device backend, the levels of at most NAV_MG_CPU_CELLS cells (global; [pressure]
 * cpu_coarse_cells overrides) go to the CPU of rank 0 (through the gather): a launch there costs
 * more than the level's work (HPGMG's per-level backend choice). The level above them is what
 * the gather moves through the host, so the threshold also sets that traffic. The thresholds were
 * chosen from the measured step and Poisson-solve times of the 3D cavity (256^3 on 1 GPU, 512x256x256
 * on 2) and the 2D snake-like grid (docs/performance.md; `bench/gpu.sh PART` reruns them): 3D on one
 * rank keeps the levels down to 512 cells on the device (NAV_MG_CPU_CELLS_3D1), the fastest there;
 * on several ranks 4096 was the fastest; 2D keeps 4096 (its GPU levels below 64^2 are launch-bound,
 * so a lower threshold is several times slower). */
#define NAV_MG_CPU_CELLS 4096
#define NAV_MG_CPU_CELLS_3D1 512
/* Helmholtz solves (implicit diffusion): the cycle stops at the first level whose shift sigma is at
 * least NAV_MG_BOTTOM_DOMINANCE times the largest diagonal of its Laplacian part (the Jacobi
 * iteration there contracts by 1/(1 + 4) or better, red-black Gauss-Seidel by its square), and
 * relaxes it with NAV_MG_BOTTOM_SWEEPS red-black sweeps (alternating order) instead of going coarser:
 * the coarser levels would only cost launches and reductions (nav_psolver_set_shift). */
#define NAV_MG_BOTTOM_DOMINANCE 4.0
#define NAV_MG_BOTTOM_SWEEPS 2

/* Does level l hand the rest of the hierarchy to the CPU of rank 0? */
static int nav_mg_to_cpu(const nav_psolver *ps, const nav_level *l) {
  const nav_idx limit = ps->opt.cpu_coarse_cells > 0                 ? (nav_idx)ps->opt.cpu_coarse_cells
                        : l->dc.dim == 3 && ps->lev[0].dc.size == 1 ? NAV_MG_CPU_CELLS_3D1
                                                                     : NAV_MG_CPU_CELLS;
  return ps->ops != &nav_kernel_ops_cpu && (nav_idx)l->N[0] * l->N[1] * l->N[2] <= limit;
}

/* Would one rank coarsen the global grid of this level, pairing the cells of the directions with
 * keep[d] = 0? */
static int nav_mg_can_coarsen(const nav_level *l, const int keep[3]) {
  int big = 0, odd = 0;
  for (int d = 0; d < l->dc.dim; d++) {
    if (keep[d]) continue;
    big |= l->N[d] > 2;
    odd |= l->N[d] % 2;
  }
  return big && (!odd || (nav_idx)l->N[0] * l->N[1] * l->N[2] > NAV_MG_ODD_MIN_CELLS);
}

/* Can the ranks coarsen their own blocks of level l and get the one-rank coarse grid? Every
 * block count of a paired direction must be even (except the last block of a direction: one rank
 * pairs the cells of an odd count the same way) and at least 4, so coarse blocks keep >= 2 cells. */
static int nav_mg_blocks_coarsen(const nav_level *l, const int keep[3]) {
  if (l->dc.size == 1) return 1;
  for (int d = 0; d < l->dc.dim; d++)
    for (int j = 0; j < l->dc.p[d] && !keep[d]; j++) {
      const int c = nav_decomp_count(&l->dc, d, j);
      if (c < 4 || (c % 2 && j < l->dc.p[d] - 1)) return 0;
    }
  return 1;
}

/* Coarse partition (every block n -> (n+1)/2 in the paired directions, n in the kept ones) and coarse
 * global widths of the fine level f (on every rank: the smoother choice of gathered levels needs them). */
static nav_err nav_mg_coarsen(const nav_psolver *ps, const nav_level *f, const int keep[3], nav_decomp *cd,
                              double *wc[3]) {
  NAV_CALL(nav_decomp_copy(&f->dc, cd));
  for (int d = 0; d < 3; d++) {
    cd->start[d][0] = 0;
    for (int j = 0; j < cd->p[d]; j++) {
      const int m = nav_decomp_count(&f->dc, d, j);
      cd->start[d][j + 1] = cd->start[d][j] + (d >= cd->dim ? 1 : keep[d] ? m : nav_coarse_count(m));
    }
    cd->N[d] = cd->start[d][cd->p[d]];
    cd->n[d] = nav_decomp_count(cd, d, cd->coord[d]);
    cd->g0[d] = cd->start[d][cd->coord[d]];
  }
  for (int d = 0; d < cd->dim; d++) {
    wc[d] = nav_widths_alloc(cd->N[d]);
    NAV_CHECK(wc[d], NAV_ERR_MEMORY, "cannot allocate widths");
    for (int j = 0; j < cd->p[d]; j++) {
      const int m = nav_decomp_count(&f->dc, d, j), sf = f->dc.start[d][j], sc = cd->start[d][j];
      for (int I = 0; I < cd->start[d][j + 1] - sc; I++)
        wc[d][sc + I] = keep[d] ? f->w[d][sf + I] : f->w[d][sf + 2 * I] + (2 * I + 1 < m ? f->w[d][sf + 2 * I + 1] : 0);
    }
    nav_widths_ghosts(wc[d], cd->N[d], ps->bc[d][0] == NAV_SCALAR_PERIODIC);
  }
  return NAV_OK;
}

/* Level c = the coarsening of f: a block per rank (f distributed), or on rank 0 only (partition and
 * widths elsewhere) when f is serial. */
static nav_err nav_mg_add_level(nav_psolver *ps, const nav_level *f, const int keep[3]) {
  nav_level *c = &ps->lev[ps->nlev];
  nav_decomp cd;
  double *wc[3] = {NULL, NULL, NULL};
  nav_err e = nav_mg_coarsen(ps, f, keep, &cd, wc);
  if (e == NAV_OK && f->active) {
    e = nav_level_init(c, f->ops, &cd, wc, (const nav_scalar_bc(*)[2])ps->bc, 0);
    for (int d = 0; d < 3; d++) c->box.keep[d] = keep[d];
  } else if (e == NAV_OK) {
    e = nav_decomp_copy(&cd, &c->dc);
    for (int d = 0; d < 3; d++) {
      c->N[d] = cd.N[d];
      c->w[d] = wc[d]; /* kept: nav_level_free frees them */
      wc[d] = NULL;
    }
  }
  for (int d = 0; d < 3; d++)
    nav_widths_free(wc[d]);
  nav_decomp_release(&cd);
  ps->nlev++;
  return e;
}

/* The directions that the coarsening of level f keeps (semi-coarsening): its line directions, when
 * some other direction can still be coarsened (more than 2 cells); otherwise none. Line relaxation
 * along y smooths the error in x and z whatever the coupling in y, and the y grid that is kept resolves
 * every y frequency on the coarse levels: robust for a weak as well as a strong coupling in y. With
 * lines in every direction (2D, alternating) the cells are paired everywhere. */
static void nav_mg_keep(const nav_psolver *ps, const nav_level *f, int keep[3]) {
  int dirs[3], line[3] = {0, 0, 0}, other = 0;
  const int n = nav_mg_line_dirs(ps, f, dirs);
  for (int q = 0; q < n; q++) line[dirs[q]] = 1;
  for (int d = 0; d < f->dc.dim; d++) other |= !line[d] && f->N[d] > 2;
  for (int d = 0; d < 3; d++) keep[d] = other && line[d];
}

static int nav_mg_graphs_apply(const nav_psolver *ps);

nav_err nav_mg_setup(nav_psolver *ps) {
  ps->gather = NAV_MG_MAX_LEVELS + 1;
  int keep[3];
  while (ps->nlev < NAV_MG_MAX_LEVELS && !ps->opt.sweeps) { /* sweeps: level 0 alone (nav_psolver.h) */
    const nav_level *f = &ps->lev[ps->nlev - 1];
    nav_mg_keep(ps, f, keep);
    if (!nav_mg_can_coarsen(f, keep)) break;
    if (nav_mg_blocks_coarsen(f, keep) && !nav_mg_to_cpu(ps, f)) {
      NAV_CALL(nav_mg_add_level(ps, f, keep));
      continue;
    }
    /* gather: rank 0 holds a serial copy of f (the transfer level, on the CPU) and coarsens it
     * alone */
    ps->gather = ps->nlev;
    nav_level *t = &ps->transfer;
    nav_decomp one;
    NAV_CALL(nav_decomp_serial(f->dc.dim, f->N, f->dc.periodic, &one));
    nav_err e =
        f->dc.rank == 0 ? nav_level_init(t, &nav_kernel_ops_cpu, &one, f->w, (const nav_scalar_bc(*)[2])ps->bc, 0) : nav_decomp_copy(&one, &t->dc);
    for (int d = 0; d < 3; d++)
      t->N[d] = f->N[d];
    for (int d = 0; d < f->dc.dim && f->dc.rank != 0 && e == NAV_OK; d++) { /* widths everywhere */
      t->w[d] = nav_widths_alloc(f->N[d]);
      if (t->w[d]) memcpy(t->w[d] - 1, f->w[d] - 1, ((size_t)f->N[d] + 2) * sizeof(double));
      else e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate widths");
    }
    nav_decomp_release(&one);
    NAV_CALL(e);
    const size_t nb = (size_t)f->box.n[0] * f->box.n[1] * f->box.n[2], ng = (size_t)f->N[0] * f->N[1] * f->N[2];
    const nav_idx stage = t->box.ntot > f->box.ntot ? t->box.ntot : f->box.ntot;
    ps->gblock = malloc(nb * sizeof(double));
    ps->gglobal = malloc(ng * sizeof(double));
    ps->gstage = malloc((size_t)stage * sizeof(nav_real));
    NAV_CHECK(ps->gblock && ps->gglobal && ps->gstage, NAV_ERR_MEMORY, "cannot allocate the gather buffers");
    const nav_level *g = t;
    for (;;) {
      NAV_CALL(nav_mg_add_level(ps, g, keep));
      g = &ps->lev[ps->nlev - 1];
      nav_mg_keep(ps, g, keep);
      if (ps->nlev >= NAV_MG_MAX_LEVELS || !nav_mg_can_coarsen(g, keep)) break;
    }
    break;
  }
  for (int l = 0; l < ps->nlev - 1; l++) /* the coarsest level is not smoothed */
    if (ps->lev[l].active) NAV_CALL(nav_mg_line_setup(ps, &ps->lev[l]));
  if (ps->opt.sweeps) { /* level 0 is smoothed and never solved */
    ps->graphs = -1;
    ps->cband_state = -1;
    return nav_mg_line_setup(ps, &ps->lev[0]);
  }
  ps->graphs = nav_mg_graphs_apply(ps) ? 1 : -1;
  const nav_level *cl = &ps->lev[ps->nlev - 1];
  if (!cl->active) return NAV_OK;
  const size_t bytes = (size_t)cl->box.ntot * sizeof(nav_real);
  nav_real **v[3] = {&ps->cz, &ps->cp, &ps->cq};
  ps->coarse_ops = cl->ops;
  ps->cband_state = nav_mg_direct_applies(cl) ? 0 : -1;
  for (int i = 0; i < 3; i++) {
    NAV_CALL(cl->ops->alloc((void **)v[i], bytes));
    NAV_CALL(cl->ops->set(&cl->box, *v[i], 0));
  }
  return NAV_OK;
}

nav_err nav_mg_refresh(nav_psolver *ps) {
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (!lev->active) continue;
    NAV_CALL(nav_mg_line_refresh(lev)); /* the split lines' responses follow the operator */
  }
  nav_mg_bottom(ps);
  if (ps->cband_state > 0) ps->cband_state = 0; /* the coarsest level's factor follows the operator */
  return NAV_OK;
}

void nav_mg_destroy(nav_psolver *ps) {
  free(ps->gblock);
  free(ps->gglobal);
  free(ps->gstage);
  free(ps->cband);
  ps->gblock = ps->gglobal = NULL;
  ps->gstage = NULL;
  ps->cband = NULL;
  nav_mg_graphs_free(ps);
  nav_real *v[3] = {ps->cz, ps->cp, ps->cq};
  for (int i = 0; i < 3; i++)
    if (v[i]) ps->coarse_ops->free(v[i]);
  ps->cz = ps->cp = ps->cq = NULL;
  for (int i = 0; i < 3; i++) {
    if (ps->lo0[i]) ps->ops->free(ps->lo0[i]);
    ps->lo0[i] = NULL;
  }
  for (int l = 0; l < ps->nlev; l++)
    if (ps->lev[l].ops) nav_mg_line_free(&ps->lev[l]);
  for (int l = 1; l < ps->nlev; l++) nav_level_free(&ps->lev[l]);
  ps->nlev = 1;
  if (ps->transfer.dc.start[0]) {
    if (ps->transfer.ops) nav_mg_line_free(&ps->transfer);
    nav_level_free(&ps->transfer);
  }
}

/* The staging of a float level (nav_box.lo) in place: its n floats at the start of stage widened to n
 * nav_real (from the last: element i is read before the bytes of element i are overwritten), or n nav_real
 * narrowed to n floats (from the first). */
static void nav_mg_stage_widen(nav_real *stage, nav_idx n) {
  const float *f = (const float *)(void *)stage;
  for (nav_idx i = n - 1; i >= 0; i--) stage[i] = (nav_real)f[i];
}
static void nav_mg_stage_narrow(nav_real *stage, nav_idx n) {
  float *f = (float *)(void *)stage;
  for (nav_idx i = 0; i < n; i++) f[i] = (float)stage[i];
}

/* Distributed level f's residual f->r -> the transfer level's r on rank 0. Collective. */
static nav_err nav_mg_gather(nav_psolver *ps, nav_level *f) {
  nav_level *t = &ps->transfer;
  NAV_CALL(f->ops->to_host(ps->gstage, f->r, (size_t)f->box.ntot * (f->box.lo ? sizeof(float) : sizeof(nav_real))));
  if (f->box.lo) nav_mg_stage_widen(ps->gstage, f->box.ntot);
  nav_level_dense(&f->box, ps->gstage, ps->gblock, 1);
  NAV_CALL(nav_decomp_gather(&f->dc, ps->gblock, ps->gglobal, 0));
  if (!t->active) return NAV_OK;
  memset(ps->gstage, 0, (size_t)t->box.ntot * sizeof(nav_real));
  nav_level_dense(&t->box, ps->gstage, ps->gglobal, 0);
  return t->ops->from_host(t->r, ps->gstage, (size_t)t->box.ntot * sizeof(nav_real));
}

/* The transfer level's x (the correction, rank 0) -> added to the distributed f->x. Collective. */
static nav_err nav_mg_scatter_add(nav_psolver *ps, nav_level *f) {
  nav_level *t = &ps->transfer;
  const nav_kernel_ops *ops = f->ops;
  if (t->active) {
    NAV_CALL(t->ops->to_host(ps->gstage, t->x, (size_t)t->box.ntot * sizeof(nav_real)));
    nav_level_dense(&t->box, ps->gstage, ps->gglobal, 1);
  }
  NAV_CALL(nav_decomp_scatter(&f->dc, ps->gglobal, ps->gblock, 0));
  memset(ps->gstage, 0, (size_t)f->box.ntot * sizeof(nav_real));
  nav_level_dense(&f->box, ps->gstage, ps->gblock, 0);
  if (f->box.lo) nav_mg_stage_narrow(ps->gstage, f->box.ntot);
  NAV_CALL(ops->from_host(f->r, ps->gstage, (size_t)f->box.ntot * (f->box.lo ? sizeof(float) : sizeof(nav_real))));
  return ops->axpby(&f->box, 1, f->r, 1, f->x);
}

void nav_mg_bottom(nav_psolver *ps) {
  ps->bottom = NAV_MG_MAX_LEVELS + 1;
  if (!ps->opt.helmholtz) return;
  for (int l = 0; l < ps->nlev; l++) {
    const nav_level *lev = &ps->lev[l];
    if (!lev->active) return; /* gathered levels of another rank: never cycled here */
    double diag = 0; /* the largest diagonal of k lap: k_max sum_d 2 / h_d,min^2 (x2 for stretching) */
    for (int d = 0; d < lev->dc.dim; d++) {
      double hmin = lev->w[d][0];
      for (int i = 0; i < lev->N[d]; i++) hmin = lev->w[d][i] < hmin ? lev->w[d][i] : hmin;
      diag += 4 / (hmin * hmin);
    }
    if (ps->sigma >= NAV_MG_BOTTOM_DOMINANCE * ps->kmax * diag) {
      ps->bottom = l;
      return;
    }
  }
}

/* The array of level l that nav_mg_restrict_cells moves: the coefficient (which 0) or the variable shift. */
static nav_real **nav_mg_cell_array(nav_level *l, int which) { return which ? &l->sv : &l->kc; }

/* Restrict a cell-centred array of the Helmholtz operator from level 0 to every coarse level: it
 * travels like a residual (volume average, through f->r and the gather to the transfer level). */
static nav_err nav_mg_restrict_cells(nav_psolver *ps, int which) {
  for (int l = 1; l < ps->nlev; l++) {
    nav_level *f = &ps->lev[l - 1], *c = &ps->lev[l];
    const int gather = l == ps->gather;
    if (gather) {
      NAV_CALL(f->ops->copy(f->r, *nav_mg_cell_array(f, which), (size_t)f->box.ntot * sizeof(nav_real)));
      NAV_CALL(nav_mg_gather(ps, f));
    }
    if (!c->active) continue;
    const nav_level *src = gather ? &ps->transfer : f;
    nav_real *sarr = gather ? src->r : *nav_mg_cell_array((nav_level *)src, which), *carr = *nav_mg_cell_array(c, which);
    NAV_CALL(c->ops->restrict_residual(&src->box, sarr, &c->box, carr));
    NAV_CALL(nav_level_fill_coefficient(c, carr));
  }
  return NAV_OK;
}

nav_err nav_mg_coefficients(nav_psolver *ps) { return nav_mg_restrict_cells(ps, 0); }
nav_err nav_mg_shift_fields(nav_psolver *ps) { return nav_mg_restrict_cells(ps, 1); }

/* One colour of a red-black sweep with the ghost fill after it, the halo exchange overlapping
 * the work: the shell of the block (the cells next to a face) is relaxed first, then the core
 * (which reads no ghost) on the main stream while the fill (packs, messages, unpacks, physical
 * faces) runs on the side stream, which reads and writes only the shell's outer planes and the
 * ghosts. Cells of one colour read only the other colour, so the parts may run in any order and
 * the result is that of one relax over the block, bit for bit. On a backend without streams the
 * parts run in order (same result). */
static nav_err nav_mg_relax_overlapped(nav_psolver *ps, nav_level *lev, const nav_box shell[6], int nshell,
                                       const nav_box *core, int colour) {
  const nav_kernel_ops *ops = lev->ops;
  ps->overlapped++;
  for (int i = 0; i < nshell; i++)
    NAV_CALL(ops->relax_colour(&shell[i], lev->x, lev->b, lev->inv_diag, colour, (nav_real)NAV_MG_OMEGA));
  if (!ops->stream_fork) {
    NAV_CALL(ops->relax_colour(core, lev->x, lev->b, lev->inv_diag, colour, (nav_real)NAV_MG_OMEGA));
    return nav_level_fill(lev, lev->x);
  }
  NAV_CALL(ops->stream_fork());
  /* launched before the fill: with MPI transports the host waits inside the fill */
  NAV_CALL(ops->relax_colour(core, lev->x, lev->b, lev->inv_diag, colour, (nav_real)NAV_MG_OMEGA));
  NAV_CALL(ops->stream_use(1));
  const nav_err e = nav_level_fill(lev, lev->x);
  NAV_CALL(ops->stream_use(0));
  NAV_CALL(e);
  return ops->stream_join();
}

/* Does level lev relax a whole sweep in place in one pass (nav_mg_kernels.relax_pair: the CPU's wavefront, each cell
 * read once per sweep instead of twice, one ghost fill instead of two)? Where its contract holds: one block, no
 * halo, point smoothing, every face's ghosts by the mirror rules (Neumann or Dirichlet, or a face slot on a
 * level other than a staggered solve's level 0, whose pinned slots are another rule). The environment variable
 * NAV_MG_PAIR=0 turns it off (to measure it; the same result bit for bit). */
static int nav_mg_pair(const nav_level *lev) {
  if (!nav_mg_kernels_of(lev->ops)->relax_pair || lev->halo || lev->nline || lev->dc.size > 1 ||
      nav_profile_switched_off("NAV_MG_PAIR"))
    return 0;
  for (int d = 0; d < lev->box.dim; d++)
    for (int s = 0; s < 2; s++)
      if (lev->bc[d][s] == NAV_SCALAR_PERIODIC || (lev->bc[d][s] == NAV_SCALAR_FACE && lev->finest)) return 0;
  return 1;
}

/* One red-black Gauss-Seidel sweep; order 0: red then black, 1: black then red. On a level whose x is 0 but
 * not stored (x_zero, nav_mg_zero), the first colour is relaxed from zero and writes every cell
 * (nav_mg_kernels.relax_first): the memset of x and the colour's reads of x saved, the same values. Otherwise,
 * where the backend can, both colours in one pass (nav_mg_pair). */
static nav_err nav_mg_sweep(nav_psolver *ps, nav_level *lev, int order) {
  nav_box shell[6], core;
  const long cells = (long)lev->box.n[0] * lev->box.n[1] * lev->box.n[2];
  const int overlap = !lev->nline && lev->halo && ps->opt.overlap_cells > 0 && cells >= ps->opt.overlap_cells;
  const int nshell = overlap ? nav_box_shell(&lev->box, shell, &core) : 0;
  int from_zero = lev->x_zero;
  lev->x_zero = 0;
  if (from_zero && (lev->nline || nshell)) { /* these sweeps read x first: store the zeros */
    NAV_CALL(lev->ops->set(&lev->box, lev->x, 0));
    from_zero = 0;
  }
  if (lev->nline) return nav_mg_line_sweep(ps, lev, order);
  if (!from_zero && !nshell && nav_mg_pair(lev)) {
    NAV_CALL(nav_mg_kernels_of(lev->ops)->relax_pair(&lev->box, lev->x, lev->b, lev->inv_diag, order,
                                                     (nav_real)NAV_MG_OMEGA));
    return nav_level_fill(lev, lev->x);
  }
  for (int h = 0; h < 2; h++) {
    if (nshell) {
      NAV_CALL(nav_mg_relax_overlapped(ps, lev, shell, nshell, &core, h ^ order));
      continue;
    }
    if (h == 0 && from_zero)
      NAV_CALL(nav_mg_kernels_of(lev->ops)->relax_first(&lev->box, lev->x, lev->b, lev->inv_diag, order,
                                                        (nav_real)NAV_MG_OMEGA));
    else
      NAV_CALL(lev->ops->relax_colour(&lev->box, lev->x, lev->b, lev->inv_diag, h ^ order, (nav_real)NAV_MG_OMEGA));
    NAV_CALL(nav_level_fill(lev, lev->x));
  }
  return NAV_OK;
}

/* Does level lev relax whole sweeps in one pass (nav_mg_kernels.relax_sweep: the CUDA backend's wavefront kernel, 12
 * bytes per cell and sweep in float instead of 24, one ghost fill instead of two)? Where its contract holds: a 3D block
 * that is the whole grid (no halo), uniform, the plain Poisson operator, and ghosts by the mirror rules (no
 * periodic face; not level 0 of a staggered solve, whose pinned face slots are another rule). The environment
 * variable NAV_MG_WAVEFRONT=0 turns it off (to measure it; the same values to round-off). */
static int nav_mg_wavefront(const nav_psolver *ps, const nav_level *lev) {
  const nav_box *b = &lev->box;
  if (nav_profile_switched_off("NAV_MG_WAVEFRONT") || !nav_mg_kernels_of(lev->ops)->relax_sweep || b->dim != 3 ||
      lev->halo || lev->nline || lev->dc.size > 1 || !nav_box_plain(b) || (lev == &ps->lev[0] && ps->opt.staggered))
    return 0;
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      if (ps->bc[d][s] != NAV_SCALAR_NEUMANN && ps->bc[d][s] != NAV_SCALAR_DIRICHLET) return 0;
  return 1;
}

/* count sweeps of one order (nav_mg_sweep) on level lev. Where the level relaxes whole sweeps in one pass
 * (nav_mg_wavefront): a first sweep from x = 0 straight into x, then pairs of sweeps x -> r -> x (lev->r is
 * scratch while the level smooths), so that the level's x stays the same array (a graphed cycle holds the
 * pointers); an odd last sweep runs colour by colour. */
static nav_err nav_mg_smooth_level(nav_psolver *ps, nav_level *lev, int count, int order) {
  const nav_mg_kernels *mk = nav_mg_kernels_of(lev->ops);
  const nav_real omega = (nav_real)NAV_MG_OMEGA;
  int s = 0;
  if (count > 0 && nav_mg_wavefront(ps, lev)) {
    if (lev->x_zero) {
      lev->x_zero = 0;
      NAV_CALL(mk->relax_sweep(&lev->box, NULL, lev->b, lev->x, order, omega));
      NAV_CALL(nav_level_fill(lev, lev->x));
      s = 1;
    }
    for (; s + 1 < count; s += 2) {
      NAV_CALL(mk->relax_sweep(&lev->box, lev->x, lev->b, lev->r, order, omega));
      NAV_CALL(nav_level_fill(lev, lev->r));
      NAV_CALL(mk->relax_sweep(&lev->box, lev->r, lev->b, lev->x, order, omega));
      NAV_CALL(nav_level_fill(lev, lev->x));
    }
  }
  for (; s < count; s++) NAV_CALL(nav_mg_sweep(ps, lev, order));
  return NAV_OK;
}

/* x = 0 on level l before its cycle: deferred to the first pre-smoothing sweep (nav_mg_sweep) on a level that
 * nav_mg_down smooths first, stored here elsewhere (the coarsest level's solve and the shift-dominated bottom
 * levels start from x). */
static nav_err nav_mg_zero(nav_psolver *ps, int l) {
  nav_level *lev = &ps->lev[l];
  if (l < ps->nlev - 1 && l < ps->bottom && ps->opt.pre_smooth > 0) {
    lev->x_zero = 1;
    return NAV_OK;
  }
  lev->x_zero = 0;
  return lev->ops->set(&lev->box, lev->x, 0);
}

nav_err nav_mg_smooth(nav_psolver *ps, int sweeps) {
  nav_level *l0 = &ps->lev[0];
  NAV_CALL(l0->ops->set(&l0->box, l0->x, 0));
  for (int s = 0; s < sweeps; s++) NAV_CALL(nav_mg_sweep(ps, l0, s & 1));
  return NAV_OK;
}

static nav_err nav_mg_coarse_solve(nav_psolver *ps, nav_level *lev) {
  int it, direct;
  double rel;
  if (ps->singular) NAV_CALL(nav_level_remove_mean(lev, lev->b));
  const int n = lev->N[0] * lev->N[1] * lev->N[2];
  NAV_CALL(nav_mg_direct_solve(ps, lev, &direct));
  if (!direct)
    NAV_CALL(nav_pcg_iterate(ps, lev, lev->x, lev->b, lev->r, ps->cz, ps->cp, ps->cq, nav_precond_jacobi, 0,
                             fmax(NAV_MG_COARSE_TOL, 100 * NAV_REAL_EPS), 2 * n + 50, &it, &rel));
  /* the correction's constant is arbitrary: keep it at 0 so that it does not grow over the cycles
   * (in single precision a drifting constant swallows the digits of the correction) */
  if (ps->singular) NAV_CALL(nav_level_remove_mean(lev, lev->x));
  return nav_level_fill(lev, lev->x);
}

nav_err nav_precond_mg(nav_psolver *ps, nav_level *lev, const nav_real *r, nav_real *z) {
  if (ps->lo) { /* mixed precision: one iteration from z = 0, whose residual is r itself (in float) */
    NAV_CALL(lev->ops->set(&lev->box, z, 0));
    NAV_CALL(nav_mg_kernels_of(lev->ops)->residual_lo(&lev->box, z, r, (float *)(void *)ps->lo0[1], NULL));
    return nav_mg_cycle_lo(ps, z, 0);
  }
  nav_real *x = lev->x, *b = lev->b;
  lev->x = z;
  lev->b = (nav_real *)r; /* read only: the cycle never writes the right-hand side of level 0 */
  nav_err e = nav_mg_zero(ps, 0);
  if (e == NAV_OK) e = nav_mg_cycle(ps, 0, 0);
  lev->x = x;
  lev->b = b;
  return e;
}

/* Whether nav_mg_down fuses the residual and its restriction where the backend can (nav_mg_kernels.residual_restrict):
 * the environment variable NAV_MG_FUSED=0 turns it off (to measure what it saves; the same result bit for bit). */
static int nav_mg_fused(void) { return !nav_profile_switched_off("NAV_MG_FUSED"); }

/* The cycle on level l (above the coarsest) in three parts: down (pre-smoothing, the residual and, when
 * level l + 1 is not gathered, its restriction there), the levels below (nav_mg_cycle on l + 1, or
 * nav_mg_gathered), up (the prolongation from l + 1 when not gathered, the fill, post-smoothing). */
static nav_err nav_mg_down(nav_psolver *ps, int l) {
  nav_level *lev = &ps->lev[l], *c = &ps->lev[l + 1];
  NAV_CALL(nav_mg_smooth_level(ps, lev, ps->opt.pre_smooth, 0));
  const int below = l + 1 != ps->gather && c->active; /* restricted to level l + 1 here */
  const nav_mg_kernels *mk = nav_mg_kernels_of(lev->ops);
  if (below && c->ops == lev->ops && mk->residual_restrict && nav_mg_fused()) { /* lev->r: only restricted */
    NAV_CALL(mk->residual_restrict(&lev->box, lev->x, lev->b, &c->box, c->b));
  } else {
    NAV_CALL(lev->ops->residual(&lev->box, lev->x, lev->b, lev->r, NULL));
    if (!below) return NAV_OK;
    NAV_CALL(c->ops->restrict_residual(&lev->box, lev->r, &c->box, c->b));
  }
  return nav_mg_zero(ps, l + 1);
}

static nav_err nav_mg_up(nav_psolver *ps, int l) {
  nav_level *lev = &ps->lev[l], *c = &ps->lev[l + 1];
  if (l + 1 != ps->gather && c->active) NAV_CALL(c->ops->prolong_add(&c->box, c->x, &lev->box, lev->x));
  NAV_CALL(nav_level_fill(lev, lev->x));
  NAV_CALL(nav_mg_smooth_level(ps, lev, ps->opt.post_smooth, ps->symmetric));
  return NAV_OK;
}

/* The levels below l = gather - 1: the residual gathered onto rank 0's transfer level (the serial copy of
 * l's grid, on the CPU), restricted and cycled there, the correction prolonged into the transfer level,
 * scattered back and added to l's x. */
static nav_err nav_mg_gathered(nav_psolver *ps, int l, int fcycle) {
  nav_level *lev = &ps->lev[l], *c = &ps->lev[l + 1], *t = &ps->transfer;
  NAV_CALL(nav_mg_gather(ps, lev));
  if (c->active) { /* t and c share a backend */
    NAV_CALL(c->ops->restrict_residual(&t->box, t->r, &c->box, c->b));
    NAV_CALL(nav_mg_zero(ps, l + 1));
    NAV_CALL(nav_mg_cycle(ps, l + 1, fcycle));
    if (fcycle) NAV_CALL(nav_mg_cycle(ps, l + 1, 0)); /* c->x returns with its ghosts filled */
    NAV_CALL(c->ops->set(&t->box, t->x, 0));
    NAV_CALL(c->ops->prolong_add(&c->box, c->x, &t->box, t->x));
  }
  return nav_mg_scatter_add(ps, lev);
}

/* CUDA graphs of the V-cycle (ops->graph_*): on one rank with the coarse levels on the CPU, the device
 * levels' part of a V-cycle is two fixed launch sequences, the down parts of levels 0 .. gather-1 and
 * their up parts in reverse, with the gathered levels between them on the host. Each is recorded once
 * (the first cycle) and then launched as one graph: about 25 launches per level and V(2,2)-cycle become
 * two, which is what the small device levels cost (they are launch-bound from 64^3 down,
 * docs/performance.md). The same launches in the same order as nav_mg_cycle: the same result bit
 * for bit. Recorded again when level 0's x or b is another array (the graphs hold the pointers). The
 * environment variable NAV_MG_GRAPHS=0 turns them off (to measure what they save). */
static int nav_mg_graphs_apply(const nav_psolver *ps) {
  if (!ps->ops->graph_begin || ps->gather >= ps->nlev || ps->opt.helmholtz ||
      nav_profile_switched_off("NAV_MG_GRAPHS") || !strcmp(ps->opt.cycle, "f"))
    return 0;
  for (int l = 0; l < ps->gather; l++)
    if (ps->lev[l].halo || ps->lev[l].nline || ps->lev[l].dc.size > 1) return 0;
  return 1;
}

void nav_mg_graphs_free(nav_psolver *ps) {
  for (int q = 0; q < 2; q++) {
    if (ps->graph[q]) ps->ops->graph_free(ps->graph[q]);
    ps->graph[q] = NULL;
  }
}

/* A recording failed: say why, and run the cycles of this solver kernel by kernel from now on. */
static void nav_mg_graphs_off(nav_psolver *ps) {
  fprintf(stderr, "navier: warning: the multigrid cycle runs without CUDA graphs: %s\n", nav_error_message());
  nav_error_clear();
  ps->graphs = -1;
  nav_mg_graphs_free(ps);
}

/* Part q of the graphed cycle (0: down, 1: up), recorded first when needed. *ran = 0 when the recording
 * failed (nothing was run; graphs are then off for this solver and the caller runs the part itself). */
static nav_err nav_mg_graph_part(nav_psolver *ps, int q, int *ran) {
  const nav_kernel_ops *ops = ps->ops;
  *ran = 0;
  if (!ps->graph[q]) {
    if (ops->graph_begin() != NAV_OK) {
      nav_mg_graphs_off(ps);
      return NAV_OK;
    }
    nav_err e = NAV_OK;
    for (int i = 0; i < ps->gather && e == NAV_OK; i++) e = q ? nav_mg_up(ps, ps->gather - 1 - i) : nav_mg_down(ps, i);
    const nav_err ee = ops->graph_end(e == NAV_OK ? &ps->graph[q] : NULL);
    if (e != NAV_OK || ee != NAV_OK) {
      nav_mg_graphs_off(ps);
      return NAV_OK;
    }
  }
  NAV_CALL(ops->graph_launch(ps->graph[q]));
  *ran = 1;
  return NAV_OK;
}

static nav_err nav_mg_cycle_graphed(nav_psolver *ps) {
  const nav_level *l0 = &ps->lev[0];
  if (ps->graph_x != l0->x || ps->graph_b != l0->b) {
    nav_mg_graphs_free(ps);
    ps->graph_x = l0->x;
    ps->graph_b = l0->b;
  }
  int ran;
  NAV_CALL(nav_mg_graph_part(ps, 0, &ran));
  for (int l = 0; l < ps->gather && ran; l++) ps->lev[l].x_zero = 0; /* the replayed sweeps wrote them */
  for (int l = 0; l < ps->gather && !ran; l++) NAV_CALL(nav_mg_down(ps, l));
  NAV_CALL(nav_mg_gathered(ps, ps->gather - 1, 0));
  if (ps->graphs > 0) NAV_CALL(nav_mg_graph_part(ps, 1, &ran));
  else ran = 0;
  for (int l = ps->gather - 1; l >= 0 && !ran; l--) NAV_CALL(nav_mg_up(ps, l));
  return NAV_OK;
}

nav_err nav_mg_cycle(nav_psolver *ps, int l, int fcycle) {
  nav_level *lev = &ps->lev[l];
  if (l == ps->nlev - 1) return nav_mg_coarse_solve(ps, lev);
  if (l >= ps->bottom) { /* a Helmholtz level dominated by its shift: smoothing alone solves it */
    for (int s = 0; s < NAV_MG_BOTTOM_SWEEPS; s++) NAV_CALL(nav_mg_sweep(ps, lev, s & 1));
    return NAV_OK;
  }
  if (l == 0 && !fcycle && ps->graphs > 0) return nav_mg_cycle_graphed(ps);
  NAV_CALL(nav_mg_down(ps, l));
  if (l + 1 == ps->gather) {
    NAV_CALL(nav_mg_gathered(ps, l, fcycle));
  } else if (ps->lev[l + 1].active) {
    NAV_CALL(nav_mg_cycle(ps, l + 1, fcycle));
    if (fcycle) NAV_CALL(nav_mg_cycle(ps, l + 1, 0)); /* returns with the ghosts of l + 1's x filled */
  }
  return nav_mg_up(ps, l);
}

/* Mixed precision (opt.precision "mixed"; docs/design.md): iterative refinement with float cycles. The
 * iterate x and the residual stay in nav_real (double): each iteration stores r = b - L x (computed in
 * double) in float as level 0's right-hand side, runs one cycle for the correction e (level 0's float x,
 * initial guess 0) in float on the device levels, the gathered coarse levels in double on the CPU as
 * before, and adds x += e. Each cycle reduces the error of the correction equation by the cycle's factor
 * (~0.1), far above float's round-off (6e-8 relative to e), and e shrinks with the residual: the
 * iteration converges to the double tolerance at the double cycle's rate, and the device levels move half
 * the bytes. Applies to the plain multigrid (solver mg) of the Poisson problem on one rank of a device
 * backend with point smoothing and the coarsest levels on the CPU; elsewhere (why) the levels stay in
 * nav_real. */
int nav_mg_mixed_applies(const nav_psolver *ps, char *why, int size) {
  const char *no = NULL;
  if (sizeof(nav_real) == sizeof(float)) no = "the build is single precision";
  else if (!ps->multigrid || ps->symmetric) no = "it serves the solver mg only";
  else if (!nav_mg_kernels_of(ps->ops)->residual_lo)
    no = "the backend has no float cycles (a device backend has)";
  else if (ps->opt.helmholtz) no = "it serves the Poisson problem only";
  else if (ps->gather >= ps->nlev) no = "the coarsest level is not on the CPU ([pressure] cpu_coarse_cells)";
  for (int l = 0; l < ps->nlev && !no; l++) {
    const nav_level *lev = &ps->lev[l];
    if (!lev->active || lev->ops != ps->ops) continue;
    if (lev->halo) no = "the grid is split over ranks";
    else if (lev->nline) no = "a level is smoothed by lines ([pressure] smoother = point applies)";
  }
  if (no) snprintf(why, (size_t)size, "%s", no);
  return !no;
}

nav_err nav_mg_mixed_setup(nav_psolver *ps) {
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (!lev->active || lev->ops != ps->ops) continue;
    /* level 0 keeps its nav_real arrays (x and b are the caller's, r the outer residual's scratch) and
     * gets float ones for the cycles (ps->lo0); the other device levels hold float arrays only */
    nav_real **v[3] = {l ? &lev->x : &ps->lo0[0], l ? &lev->b : &ps->lo0[1], l ? &lev->r : &ps->lo0[2]};
    nav_box lo = lev->box;
    lo.lo = 1;
    for (int i = 0; i < 3; i++) {
      if (*v[i]) lev->ops->free(*v[i]);
      *v[i] = NULL;
      NAV_CALL(lev->ops->alloc((void **)v[i], (size_t)lev->box.ntot * sizeof(float)));
      NAV_CALL(lev->ops->set(&lo, *v[i], 0));
    }
    if (l > 0) lev->box.lo = 1;
  }
  ps->lo = 1;
  return NAV_OK;
}

/* One iteration of the mixed-precision multigrid on the nav_real iterate x, whose residual level 0's
 * float b (ps->lo0[1]) holds: e = one float cycle, x += e (ghosts included). */
nav_err nav_mg_cycle_lo(nav_psolver *ps, nav_real *x, int fcycle) {
  nav_level *l0 = &ps->lev[0];
  nav_real *keep[3] = {l0->x, l0->b, l0->r};
  l0->x = ps->lo0[0];
  l0->b = ps->lo0[1];
  l0->r = ps->lo0[2];
  l0->box.lo = 1;
  nav_err e = nav_mg_zero(ps, 0);
  if (e == NAV_OK) e = nav_mg_cycle(ps, 0, fcycle);
  l0->box.lo = 0;
  l0->x = keep[0];
  l0->b = keep[1];
  l0->r = keep[2];
  NAV_CALL(e);
  return nav_mg_kernels_of(l0->ops)->add_lo(&l0->box, x, (const float *)(void *)ps->lo0[0]);
}
