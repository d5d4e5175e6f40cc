/* Artificial compressibility: the pseudo-time march to the steady state, with multigrid in
 * pseudo-time (see nav_ac.h). */
#include "solvers/nav_ac.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_ac.h"
#include "backend/nav_ac_kernels.h"
#include "backend/nav_heat_kernels.h"
#include "core/nav_error.h"
#include "core/nav_profile.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_flow.h"
#include "solvers/poisson/poisson_impl.h"

/* One level of the pseudo-time multigrid. Level 0 is the flow's grid and reuses the flow's arrays
 * (u0 = u_prev, r = rhs, p0 = div, rc = rhs_old[0], T0 = T_prev, rT = rhs_T, rTc = rhs_old[1]);
 * the coarse levels take the geometry (box, halo) of the pressure multigrid's distributed levels
 * and own their arrays. f: the FAS forcing (NULL on level 0); s: the restricted state before the
 * coarse iterations (its change is the correction). */
typedef struct nav_ac_level {
  const nav_box *box;
  nav_halo *halo;
  nav_real *u[3], *u0[3], *r[3], *f[3], *s[3];
  nav_real *p, *p0, *rc, *fp, *sp;
  nav_real *T, *T0, *rT, *fT, *sT;
  nav_temperature_bc tbc, tbc0; /* tbc0: homogeneous (corrections) */
  nav_ac_params a;
  int owned; /* 1: the arrays are this level's allocations */
  int w;     /* 1: a W-cycle visits this level twice per visit of the finer one (global edge >= ac_w_min_cells) */
} nav_ac_level;

#define NAV_AC_MAX_LEVELS NAV_MG_MAX_LEVELS
#define NAV_AC_KEY (NAV_AC_MAX_LEVELS * 27 + 18 + 1) /* pointers of nav_ac_key */

typedef struct nav_ac {
  int nlev;
  nav_ac_level lev[NAV_AC_MAX_LEVELS];
  nav_velocity_bc vbc0; /* homogeneous velocity boundaries (corrections) */
  double u_floor;       /* the automatic u_ref without max|u|: the largest of the wall speeds, the
                           buoyancy speed sqrt(|b| dT l_min) and the diffusion speed max(nu, kappa) / l_min */
  char cycle;           /* 'v', 'w' or 'f' ([run] ac_cycle) */
  double rh_max[3];     /* 1 / the smallest cell width per direction (global grid) */
  double nu;            /* max(nu, kappa) */
  double rate_max;      /* nav_ac_rate_max: the largest rate at the last diagnosed iteration, 0 before */
  double work;          /* smoothing iterations so far, in finest-grid units (cells_l / cells_0 each) */
  long nested_cycles[NAV_AC_MAX_LEVELS]; /* cycles of the nested-iteration start per level */
  const nav_ac_kernels *k;       /* its kernel table of the flow's backend */
  const nav_heat_kernels *heat;  /* the temperature's (the scalar slot's S(T) and Boussinesq force) */
  nav_real *u_ref2;              /* backend memory: u_ref^2 of the current iteration, read by every level */
  int graphs;                    /* iterations that are not diagnosed run as one CUDA graph: 1 yes, -1 no */
  void *graph;                   /* the recorded iteration (nav_ac_graphed); NULL: not recorded */
  const void *graph_key[NAV_AC_KEY]; /* the arrays and boxes it was recorded with (nav_ac_key) */
  double graph_work;             /* the work units of its cycle */
  long unchecked;                /* the first iteration run as a graph since the last NaN/Inf check; 0: none */
} nav_ac;


/* Interior cells of a block. */
static double nav_ac_cells(const nav_box *b) {
  return (double)b->n[0] * b->n[1] * b->n[2];
}

static nav_err nav_ac_alloc(const nav_kernel_ops *ops, const nav_box *b, nav_real **x) {
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  NAV_CALL(ops->alloc((void **)x, bytes));
  return ops->set(b, *x, 0);
}

/* Coarse level l from the pressure multigrid's level l (geometry only). */
static nav_err nav_ac_level_coarse(nav_flow *f, nav_ac_level *L, nav_level *pl) {
  const nav_kernel_ops *ops = f->ops;
  L->box = &pl->box;
  L->halo = pl->halo;
  L->owned = 1;
  for (int c = 0; c < f->dim; c++) {
    nav_real **v[5] = {&L->u[c], &L->u0[c], &L->r[c], &L->f[c], &L->s[c]};
    for (int i = 0; i < 5; i++) NAV_CALL(nav_ac_alloc(ops, L->box, v[i]));
  }
  nav_real **q[5] = {&L->p, &L->p0, &L->rc, &L->fp, &L->sp};
  for (int i = 0; i < 5; i++) NAV_CALL(nav_ac_alloc(ops, L->box, q[i]));
  if (f->scalar.T) {
    nav_real **t[5] = {&L->T, &L->T0, &L->rT, &L->fT, &L->sT};
    for (int i = 0; i < 5; i++) NAV_CALL(nav_ac_alloc(ops, L->box, t[i]));
    nav_temperature_bc_from_config(f->cfg, pl->w, pl->N, &L->tbc);
  }
  return NAV_OK;
}

/* Level 0: the flow's box, halo and arrays as they are now (at every iteration: they are the flow's). */
static void nav_ac_level0(nav_flow *f, nav_ac *ac) {
  nav_ac_level *L0 = &ac->lev[0];
  L0->box = &f->box;
  L0->halo = f->halo;
  for (int c = 0; c < f->dim; c++) {
    L0->u[c] = f->u[c];
    L0->u0[c] = f->u_prev[c];
    L0->r[c] = f->rhs[c];
  }
  L0->p = f->p;
  L0->p0 = f->div;
  L0->rc = f->rhs_old[0];
  L0->T = f->scalar.T;
  L0->T0 = f->scalar.T_prev;
  L0->rT = f->scalar.rhs_T;
}

/* The levels of the pseudo-time multigrid: the pressure multigrid's distributed levels on the
 * flow's backend, as long as every rank's block halves exactly (even cells, even start). */
static nav_err nav_ac_levels(nav_flow *f, nav_ac *ac) {
  nav_ac_level0(f, ac);
  ac->lev[0].tbc = f->scalar.tbc;
  ac->nlev = 1;
  const int want = f->cfg->ac_levels > 0 ? f->cfg->ac_levels : NAV_AC_MAX_LEVELS;
  nav_psolver *ps = f->poisson;
  if (!ps->multigrid) return NAV_OK; /* the multigrid hierarchy of mg and mgpcg */
  const int last = ps->gather < ps->nlev ? ps->gather : ps->nlev;
  for (int l = 1; l < last && ac->nlev < want; l++) {
    const nav_box *fb = ac->lev[l - 1].box, *cb = &ps->lev[l].box;
    double bad = ps->lev[l].ops != f->ops || !ps->lev[l].active;
    for (int d = 0; d < f->dim; d++)
      bad = bad || fb->n[d] != 2 * cb->n[d] || fb->g0[d] != 2 * cb->g0[d] || cb->n[d] < 2;
    nav_reduce_max(f->comm, &bad, 1);
    if (bad) break;
    NAV_CALL(nav_ac_level_coarse(f, &ac->lev[l], &ps->lev[l]));
    ac->nlev++;
  }
  return NAV_OK;
}

/* CUDA graphs of the iterations that are not diagnosed (ops->graph_*, nav_ac_graphed): on one rank of a backend
 * that records them, with no halo on any level. NAV_AC_GRAPHS=0 turns them off (to measure what they save). */
static int nav_ac_graphs_apply(const nav_flow *f, const nav_ac *ac) {
  if (!f->ops->graph_begin || f->dc.size > 1 || nav_profile_switched_off("NAV_AC_GRAPHS")) return 0;
  for (int l = 0; l < ac->nlev; l++)
    if (ac->lev[l].halo) return 0;
  return 1;
}

nav_err nav_ac_create(nav_flow *f) {
  const nav_config *c = f->cfg;
  if (strcmp(c->method, "artificial_compressibility")) return NAV_OK;
  nav_ac *ac = calloc(1, sizeof *ac);
  NAV_CHECK(ac, NAV_ERR_MEMORY, "cannot allocate the artificial-compressibility state");
  f->ac = ac;
  ac->k = nav_ac_kernels_of(f->ops);
  ac->heat = nav_heat_kernels_of(f->ops);
  NAV_CHECK(ac->k && ac->heat, NAV_ERR_INPUT, "backend %s has no kernels of artificial compressibility", f->ops->name);
  ac->vbc0 = f->vbc;
  memset(ac->vbc0.wall_velocity, 0, sizeof ac->vbc0.wall_velocity);
  double lmin = fmin(c->lx, c->ly);
  if (f->dim == 3) lmin = fmin(lmin, c->lz);
  const double nu = fmax(c->nu, f->scalar.T ? c->diffusivity : 0);
  ac->u_floor = nu / lmin;
  ac->nu = nu;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (c->bc[d][s] == NAV_BC_WALL)
        for (int k = 0; k < f->dim; k++) ac->u_floor = fmax(ac->u_floor, fabs(c->wall_velocity[d][s][k]));
  if (f->scalar.T) {
    const double b = sqrt(c->buoyancy[0] * c->buoyancy[0] + c->buoyancy[1] * c->buoyancy[1] +
                          c->buoyancy[2] * c->buoyancy[2]);
    ac->u_floor = fmax(ac->u_floor, sqrt(b * f->scalar.t_scale * lmin));
  }
  ac->cycle = c->ac_cycle[0];
  for (int d = 0; d < f->dim; d++)
    for (int i = 0; i < f->n[d]; i++) ac->rh_max[d] = fmax(ac->rh_max[d], 1 / f->w[d][i]);
  NAV_CALL(nav_ac_levels(f, ac));
  const nav_real zero = 0;
  NAV_CALL(f->ops->alloc((void **)&ac->u_ref2, sizeof(nav_real)));
  NAV_CALL(f->ops->from_host(ac->u_ref2, &zero, sizeof zero));
  for (int l = 0; l < ac->nlev; l++) {
    nav_ac_level *L = &ac->lev[l];
    L->a.u_ref2 = ac->u_ref2;
    L->a.cfl = (nav_real)c->ac_cfl;
    L->a.beta2 = (nav_real)(c->ac_beta * c->ac_beta);
    L->a.nu = (nav_real)nu;
    L->a.diss = l > 0 ? (nav_real)c->ac_dissipation : 0; /* the finest level stays central */
    for (int d = 0; d < f->dim; d++) L->a.skip_low[d] = L->box->g0[d] == 0 && c->bc[d][0] != NAV_BC_PERIODIC;
    int edge = f->n[0];
    for (int d = 1; d < f->dim; d++) edge = f->n[d] < edge ? f->n[d] : edge;
    L->w = (edge >> l) >= c->ac_w_min_cells; /* the level's smallest global edge: the same on every rank */
    L->tbc0 = L->tbc;
    memset(L->tbc0.beta, 0, sizeof L->tbc0.beta);
  }
  ac->graphs = nav_ac_graphs_apply(f, ac) ? 1 : -1;
  return NAV_OK;
}

void nav_ac_destroy(nav_flow *f) {
  nav_ac *ac = f->ac;
  if (!ac) return;
  if (ac->graph) f->ops->graph_free(ac->graph);
  if (ac->u_ref2) f->ops->free(ac->u_ref2);
  for (int l = 1; l < ac->nlev; l++) {
    nav_ac_level *L = &ac->lev[l];
    for (int c = 0; c < f->dim; c++) {
      nav_real *v[5] = {L->u[c], L->u0[c], L->r[c], L->f[c], L->s[c]};
      for (int i = 0; i < 5; i++)
        if (v[i]) f->ops->free(v[i]);
    }
    nav_real *q[10] = {L->p, L->p0, L->rc, L->fp, L->sp, L->T, L->T0, L->rT, L->fT, L->sT};
    for (int i = 0; i < 10; i++)
      if (q[i]) f->ops->free(q[i]);
  }
  free(ac);
  f->ac = NULL;
}

/* max |u_c| over the interior of level L and every component, reduced over the ranks; fails on NaN/Inf. On
 * level 0 also the check of the iterations run as graphs since the last one (nav_ac_graphed), which the
 * message names. Collective. */
static nav_err nav_ac_max(nav_flow *f, const nav_ac_level *L, double *m) {
  nav_ac *ac = f->ac;
  double v[2] = {0, 0};
  for (int c = 0; c < f->dim; c++) {
    double d, mx;
    int bad;
    NAV_CALL(f->ops->max_abs_diff(L->box, L->u[c], NULL, &d, &mx, &bad));
    v[0] = fmax(v[0], mx);
    v[1] = fmax(v[1], bad);
  }
  nav_reduce_max(f->comm, v, 2);
  const long from = L == &ac->lev[0] ? ac->unchecked : 0;
  NAV_CHECK(!v[1] || !from, NAV_ERR_BLOWUP, "the artificial-compressibility iteration blew up: a value is NaN or "
            "Inf, detected after iteration %ld (iterations %ld to %ld ran as CUDA graphs, which are checked at the "
            "monitor steps only); reduce [run] ac_cfl", f->step, from, f->step);
  NAV_CHECK(!v[1], NAV_ERR_BLOWUP, "the artificial-compressibility iteration blew up at iteration %ld: a value is "
            "NaN or Inf; reduce [run] ac_cfl", f->step + 1);
  if (L == &ac->lev[0]) ac->unchecked = 0;
  *m = v[0];
  return NAV_OK;
}

/* Ghosts of the state of level L (u, p, T) with the case's boundaries. */
static nav_err nav_ac_fill(nav_flow *f, nav_ac_level *L) {
  NAV_CALL(nav_fill_velocity_ghosts(f->ops, L->box, L->halo, &f->vbc, L->u));
  NAV_CALL(nav_fill_scalar_ghosts(f->ops, L->box, L->halo, (const nav_scalar_bc(*)[2])f->pbc, L->p));
  if (f->scalar.T) NAV_CALL(nav_fill_temperature_ghosts(f->ops, L->box, L->halo, &L->tbc, L->T));
  return NAV_OK;
}

/* r = N(u) + B(T) (+ f), rT = S(T) (+ fT) on level L (the momentum part of the residual without
 * the pressure gradient). */
static nav_err nav_ac_rhs(nav_flow *f, nav_ac_level *L) {
  const nav_kernel_ops *ops = f->ops;
  const nav_config *c = f->cfg;
  NAV_CALL(ops->momentum_rhs(L->box, L->u, (nav_real)c->nu, L->r));
  if (f->scalar.T) {
    const nav_real coef[3] = {(nav_real)c->buoyancy[0], (nav_real)c->buoyancy[1], (nav_real)c->buoyancy[2]};
    NAV_CALL(f->ac->heat->scalar_rhs(L->box, L->u, L->T, (nav_real)c->diffusivity, NULL, 0, 0, L->rT));
    NAV_CALL(f->ac->heat->buoyancy(L->box, L->T, coef, (nav_real)c->t_ref, L->r));
    if (L->fT) NAV_CALL(ops->axpby(L->box, 1, L->fT, 1, L->rT));
  }
  if (L->a.diss > 0) NAV_CALL(f->ac->k->ac_dissipation(L->box, L->u, f->scalar.T ? L->T : NULL, L->a.diss, L->r, L->rT));
  if (L->f[0])
    for (int k = 0; k < f->dim; k++) NAV_CALL(ops->axpby(L->box, 1, L->f[k], 1, L->r[k]));
  return NAV_OK;
}

/* One smoothing iteration (ac_stages stages) on level L; raw != NULL: measure the residual maxima
 * of the state at its start (first stage) into raw[0..2] (this rank's). */
static nav_err nav_ac_smooth(nav_flow *f, nav_ac_level *L, double *raw) {
  const nav_kernel_ops *ops = f->ops;
  const nav_box *b = L->box;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  for (int k = 0; k < f->dim; k++) NAV_CALL(ops->copy(L->u0[k], L->u[k], bytes));
  NAV_CALL(ops->copy(L->p0, L->p, bytes));
  if (f->scalar.T) NAV_CALL(ops->copy(L->T0, L->T, bytes));
  const int m = f->cfg->ac_stages;
  f->ac->work += nav_ac_cells(b) / nav_ac_cells(&f->box);
  for (int s = 0; s < m; s++) {
    const int measure = raw && s == 0;
    L->a.alpha = (nav_real)(1.0 / (m - s));
    NAV_CALL(nav_ac_rhs(f, L));
    double rc[2] = {0, 0}, rm = 0;
    NAV_CALL(f->ac->k->ac_cells(b, L->u, L->u0, L->p, L->p0, L->fp, L->T, L->T0, L->rT, &L->a, measure ? rc : NULL));
    NAV_CALL(nav_fill_scalar_ghosts(ops, b, L->halo, (const nav_scalar_bc(*)[2])f->pbc, L->p));
    NAV_CALL(f->ac->k->ac_momentum(b, L->u, L->u0, L->r, L->p, &L->a, measure ? &rm : NULL));
    NAV_CALL(nav_fill_velocity_ghosts(ops, b, L->halo, &f->vbc, L->u));
    if (f->scalar.T) NAV_CALL(nav_fill_temperature_ghosts(ops, b, L->halo, &L->tbc, L->T));
    if (measure) {
      raw[0] = rm;
      raw[1] = rc[0];
      raw[2] = rc[1];
    }
  }
  return NAV_OK;
}

/* The full residual of level L's state (ghosts filled) with its forcing: r = N + B - grad p + f,
 * rc = -div u + fp, rT = S(T) + fT. */
static nav_err nav_ac_residual(nav_flow *f, nav_ac_level *L) {
  const nav_kernel_ops *ops = f->ops;
  NAV_CALL(nav_ac_rhs(f, L));
  NAV_CALL(ops->correct(L->box, L->r, L->p, 1));
  NAV_CALL(ops->divergence(L->box, L->u, -1, L->rc, NULL, NULL));
  if (L->fp) NAV_CALL(ops->axpby(L->box, 1, L->fp, 1, L->rc));
  return NAV_OK;
}

/* The state of level L restricted to the next level C (interiors, then ghosts); C's s = that
 * restricted state (the base of C's change). */
static nav_err nav_ac_restrict_state(nav_flow *f, nav_ac_level *L, nav_ac_level *C) {
  const nav_kernel_ops *ops = f->ops;
  const size_t bytes = (size_t)C->box->ntot * sizeof(nav_real);
  NAV_CALL(f->ac->k->ac_restrict_faces(L->box, L->u, C->box, C->u));
  NAV_CALL(ops->restrict_residual(L->box, L->p, C->box, C->p));
  if (f->scalar.T) NAV_CALL(ops->restrict_residual(L->box, L->T, C->box, C->T));
  NAV_CALL(nav_ac_fill(f, C));
  for (int k = 0; k < f->dim; k++) NAV_CALL(ops->copy(C->s[k], C->u[k], bytes));
  NAV_CALL(ops->copy(C->sp, C->p, bytes));
  if (f->scalar.T) NAV_CALL(ops->copy(C->sT, C->T, bytes));
  return NAV_OK;
}

/* L's state += the change of C's state since its restriction (C's state - s), interpolated with
 * homogeneous boundaries; then L's ghosts. C's s is overwritten. */
static nav_err nav_ac_correct(nav_flow *f, nav_ac_level *C, nav_ac_level *L) {
  const nav_kernel_ops *ops = f->ops;
  for (int k = 0; k < f->dim; k++) NAV_CALL(ops->axpby(C->box, 1, C->u[k], -1, C->s[k]));
  NAV_CALL(nav_fill_velocity_ghosts(ops, C->box, C->halo, &f->ac->vbc0, C->s));
  NAV_CALL(f->ac->k->ac_prolong_faces_add(C->box, C->s, L->box, L->u));
  NAV_CALL(ops->axpby(C->box, 1, C->p, -1, C->sp));
  NAV_CALL(nav_fill_scalar_ghosts(ops, C->box, C->halo, (const nav_scalar_bc(*)[2])f->pbc, C->sp));
  NAV_CALL(ops->prolong_add(C->box, C->sp, L->box, L->p));
  if (f->scalar.T) {
    NAV_CALL(ops->axpby(C->box, 1, C->T, -1, C->sT));
    NAV_CALL(nav_fill_temperature_ghosts(ops, C->box, C->halo, &C->tbc0, C->sT));
    NAV_CALL(ops->prolong_add(C->box, C->sT, L->box, L->T));
  }
  return nav_ac_fill(f, L);
}

/* One FAS cycle of kind k from level l: a smoothing iteration, the coarse-grid correction, another
 * smoothing iteration (the coarsest level: two iterations). The coarse-grid correction runs, on the
 * same coarse problem of level l + 1: k = 'v' one V-cycle, 'w' two W-cycles (level l is visited
 * 2^l times) while level l + 1 has at least ac_w_min_cells cells along its shortest global edge,
 * V-cycles below (their visits cost launches on a GPU, little work), 'f' one F-cycle then one
 * V-cycle (level l visited l + 1 times). */
static nav_err nav_ac_cycle(nav_flow *f, int l, char k, double *raw) {
  nav_ac *ac = f->ac;
  const nav_kernel_ops *ops = f->ops;
  nav_ac_level *L = &ac->lev[l];
  NAV_CALL(nav_ac_smooth(f, L, raw));
  if (l + 1 < ac->nlev) {
    nav_ac_level *C = &ac->lev[l + 1];
    /* coarse state = restriction of the fine state; coarse forcing f = I r_fine - R_coarse(I u) */
    NAV_CALL(nav_ac_residual(f, L));
    NAV_CALL(nav_ac_restrict_state(f, L, C));
    nav_real *fc[3] = {C->f[0], C->f[1], C->f[2]}, *fp = C->fp, *fT = C->fT;
    C->f[0] = C->f[1] = C->f[2] = NULL; /* R_coarse without forcing */
    C->fp = C->fT = NULL;
    const nav_err e = nav_ac_residual(f, C);
    for (int k = 0; k < 3; k++) C->f[k] = fc[k]; /* also on an error: a failed recording runs the cycle again */
    C->fp = fp;
    C->fT = fT;
    NAV_CALL(e);
    NAV_CALL(f->ac->k->ac_restrict_faces(L->box, L->r, C->box, C->f));
    for (int k = 0; k < f->dim; k++) NAV_CALL(ops->axpby(C->box, -1, C->r[k], 1, C->f[k]));
    NAV_CALL(ops->restrict_residual(L->box, L->rc, C->box, C->fp));
    NAV_CALL(ops->axpby(C->box, -1, C->rc, 1, C->fp));
    if (f->scalar.T) {
      NAV_CALL(ops->restrict_residual(L->box, L->rT, C->box, C->fT));
      NAV_CALL(ops->axpby(C->box, -1, C->rT, 1, C->fT));
    }
    if (k == 'w' && !C->w) k = 'v'; /* below ac_w_min_cells: V-cycles */
    NAV_CALL(nav_ac_cycle(f, l + 1, k, NULL));
    if (k != 'v') NAV_CALL(nav_ac_cycle(f, l + 1, k == 'w' ? 'w' : 'v', NULL));
    NAV_CALL(nav_ac_correct(f, C, L));
  }
  return nav_ac_smooth(f, L, NULL);
}

/* u_ref^2 of every level (ac->u_ref2, nav_ac.h) from the state of level L, whose largest speed over every rank
 * is umax: on one rank by ac_u_ref on the backend (what a graphed iteration records), on several the value of
 * umax copied there (the same value: a max is exact). */
static nav_err nav_ac_set_u_ref(nav_flow *f, const nav_ac_level *L, double umax) {
  nav_ac *ac = f->ac;
  if (f->dc.size == 1) return ac->k->ac_u_ref(L->box, L->u, f->cfg->ac_u_ref, ac->u_floor, ac->u_ref2);
  const nav_real u_ref2 = nav_ac_u_ref2(umax, f->cfg->ac_u_ref, ac->u_floor);
  return f->ops->from_host(ac->u_ref2, &u_ref2, sizeof u_ref2);
}

/* The residual norms (nav_ac.h) from this rank's maxima raw[3] of a level whose largest speed is
 * umax: reduced over the ranks into res[3]; fails on NaN/Inf. Collective. */
static nav_err nav_ac_norms(nav_flow *f, double *raw, double umax, double *res) {
  nav_reduce_max(f->comm, raw, 3);
  NAV_CHECK(isfinite(raw[0]) && isfinite(raw[1]) && isfinite(raw[2]), NAV_ERR_BLOWUP,
            "the artificial-compressibility iteration blew up at iteration %ld: a residual is NaN or Inf; reduce "
            "[run] ac_cfl", f->step + 1);
  res[0] = umax > 0 ? raw[0] / umax : raw[0];
  res[1] = raw[1];
  res[2] = f->scalar.T && f->scalar.t_scale > 0 ? raw[2] / f->scalar.t_scale : 0;
  return NAV_OK;
}

/* The pointers that a recorded iteration holds, into key[NAV_AC_KEY]: every level's box, halo and arrays, the
 * velocity boundaries' planes, u_ref2 (nothing of them changes during a run today; the flow's arrays are
 * level 0's, nav_ac_level0). */
static void nav_ac_key(const nav_flow *f, const void **key) {
  const nav_ac *ac = f->ac;
  int n = 0;
  memset(key, 0, NAV_AC_KEY * sizeof *key);
  for (int l = 0; l < ac->nlev; l++) {
    const nav_ac_level *L = &ac->lev[l];
    key[n++] = L->box;
    key[n++] = L->halo;
    for (int c = 0; c < 3; c++) {
      const void *v[5] = {L->u[c], L->u0[c], L->r[c], L->f[c], L->s[c]};
      for (int i = 0; i < 5; i++) key[n++] = v[i];
    }
    const void *q[10] = {L->p, L->p0, L->rc, L->fp, L->sp, L->T, L->T0, L->rT, L->fT, L->sT};
    for (int i = 0; i < 10; i++) key[n++] = q[i];
  }
  n = NAV_AC_MAX_LEVELS * 27;
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      for (int c = 0; c < 3; c++) key[n++] = f->vbc.plane[d][s][c];
  key[n] = ac->u_ref2;
}

/* A recording failed: say why, and run every iteration kernel by kernel from now on. */
static void nav_ac_graphs_off(nav_flow *f) {
  nav_ac *ac = f->ac;
  fprintf(stderr, "navier: warning: the artificial-compressibility iterations run without CUDA graphs: %s\n",
          nav_error_message());
  nav_error_clear();
  ac->graphs = -1;
  if (ac->graph) f->ops->graph_free(ac->graph);
  ac->graph = NULL;
}

/* One iteration that is not diagnosed, as one CUDA graph: ac_u_ref from the state, then the cycle from level 0
 * (the u_ref of nav_ac_set_u_ref and the cycle of nav_ac_step, no residuals measured), a fixed launch sequence
 * that nothing on the host needs to see; recorded at the first such iteration, again when a pointer it holds
 * changed (nav_ac_key), and then launched as one graph: the thousands of small launches of a W-cycle's coarse
 * levels, which bound it on a GPU, become one. The same launches in the same order with the same arguments as
 * the iteration kernel by kernel: the same result bit for bit. The work of its smoothing iterations is counted
 * at each launch (recorded with the cycle). Not checked for NaN/Inf (that would wait for the device): the
 * next check of level 0 (nav_ac_max, diagnosed iterations, nav_ac_check) covers it. *ran = 0 when the
 * recording failed (nothing ran; graphs are then off and the caller runs the iteration). */
static nav_err nav_ac_graphed(nav_flow *f, int *ran) {
  nav_ac *ac = f->ac;
  const nav_kernel_ops *ops = f->ops;
  const void *key[NAV_AC_KEY];
  *ran = 0;
  nav_ac_key(f, key);
  if (ac->graph && memcmp(key, ac->graph_key, sizeof key)) {
    ops->graph_free(ac->graph);
    ac->graph = NULL;
  }
  if (!ac->graph) {
    if (ops->graph_begin() != NAV_OK) {
      nav_ac_graphs_off(f);
      return NAV_OK;
    }
    const double work = ac->work;
    nav_err e = ac->k->ac_u_ref(ac->lev[0].box, ac->lev[0].u, f->cfg->ac_u_ref, ac->u_floor, ac->u_ref2);
    if (e == NAV_OK) e = nav_ac_cycle(f, 0, ac->cycle, NULL);
    ac->graph_work = ac->work - work; /* recorded, not run */
    ac->work = work;
    const nav_err ee = ops->graph_end(e == NAV_OK ? &ac->graph : NULL);
    if (e != NAV_OK || ee != NAV_OK) {
      nav_ac_graphs_off(f);
      return NAV_OK;
    }
    memcpy(ac->graph_key, key, sizeof key);
  }
  NAV_CALL(ops->graph_launch(ac->graph));
  ac->work += ac->graph_work;
  *ran = 1;
  return NAV_OK;
}

#define NAV_AC_NESTED_MAX 200 /* cycles per level of the nested-iteration start, at most */

/* Nested iteration (full multigrid start, ac_nested_tol > 0): the initial state restricted to
 * every level; from the coarsest level up to level 1, cycles on that level's own steady problem
 * (no FAS forcing; its operators those of a coarse level, dissipation included) until
 * max(R_m, R_c, R_T) < ac_nested_tol or NAV_AC_NESTED_MAX cycles, then its change interpolated
 * to the next finer level, whose cycles start from there. Collective. */
static nav_err nav_ac_nested(nav_flow *f) {
  nav_ac *ac = f->ac;
  const nav_kernel_ops *ops = f->ops;
  for (int l = 0; l + 1 < ac->nlev; l++) NAV_CALL(nav_ac_restrict_state(f, &ac->lev[l], &ac->lev[l + 1]));
  for (int l = ac->nlev - 1; l >= 1; l--) {
    nav_ac_level *L = &ac->lev[l];
    for (int k = 0; k < f->dim; k++) NAV_CALL(ops->set(L->box, L->f[k], 0));
    NAV_CALL(ops->set(L->box, L->fp, 0));
    if (f->scalar.T) NAV_CALL(ops->set(L->box, L->fT, 0));
    for (int it = 0; it < NAV_AC_NESTED_MAX; it++) {
      double umax, raw[3] = {0, 0, 0}, res[3];
      NAV_CALL(nav_ac_max(f, L, &umax));
      NAV_CALL(nav_ac_set_u_ref(f, L, umax));
      NAV_CALL(nav_ac_cycle(f, l, ac->cycle, raw));
      ac->nested_cycles[l]++;
      NAV_CALL(nav_ac_norms(f, raw, umax, res));
      if (fmax(res[0], fmax(res[1], res[2])) < f->cfg->ac_nested_tol) break;
    }
    NAV_CALL(nav_ac_correct(f, L, &ac->lev[l - 1]));
  }
  if (f->dc.rank == 0) {
    printf("artificial compressibility: nested start, cycles per level (coarsest first):");
    for (int l = ac->nlev - 1; l >= 1; l--) printf(" %ld", ac->nested_cycles[l]);
    printf(" (%.1f work units)\n", ac->work);
  }
  return NAV_OK;
}

nav_err nav_ac_step(nav_flow *f, int diagnose) {
  nav_ac *ac = f->ac;
  nav_ac_level0(f, ac);
  if (f->step == 0 && f->cfg->ac_nested_tol > 0 && ac->nlev > 1) NAV_CALL(nav_ac_nested(f));
  int ran = 0;
  if (!diagnose && ac->graphs > 0) NAV_CALL(nav_ac_graphed(f, &ran));
  if (ran) {
    f->step++;
    if (!ac->unchecked) ac->unchecked = f->step;
    f->change = -1;
    return NAV_OK;
  }
  double umax;
  NAV_CALL(nav_ac_max(f, &ac->lev[0], &umax)); /* of the state: a restart continues bit for bit */
  NAV_CALL(nav_ac_set_u_ref(f, &ac->lev[0], umax));
  double raw[3] = {0, 0, 0};
  NAV_CALL(nav_ac_cycle(f, 0, ac->cycle, diagnose ? raw : NULL));
  f->step++;
  f->change = -1;
  if (diagnose) {
    NAV_CALL(nav_ac_norms(f, raw, umax, f->res));
    f->max_div = raw[1];
    double x;
    NAV_CALL(nav_ac_max(f, &ac->lev[0], &x)); /* NaN/Inf after the update */
    f->change = fmax(f->res[0], fmax(f->res[1], f->res[2]));
    /* the rate lambda of nav_point_ac.h at the largest speed and the smallest widths (no dissipation
     * on the finest level) */
    const double u_ref = nav_ac_u_ref(umax, f->cfg->ac_u_ref, ac->u_floor);
    const double beta2 = f->cfg->ac_beta * f->cfg->ac_beta * fmax(umax * umax, u_ref * u_ref);
    ac->rate_max = 0;
    for (int d = 0; d < f->dim; d++)
      ac->rate_max += (umax + sqrt(umax * umax + beta2)) * ac->rh_max[d] +
                      2 * ac->nu * ac->rh_max[d] * ac->rh_max[d];
    NAV_CALL(nav_models_diagnose_pseudo(&f->models, nav_flow_view_sync(f))); /* the temperature's monitors */
  }
  return NAV_OK;
}

nav_err nav_ac_check(nav_flow *f) {
  double umax;
  return f->ac && f->ac->unchecked ? nav_ac_max(f, &f->ac->lev[0], &umax) : NAV_OK;
}

double nav_ac_rate_max(const nav_flow *f) {
  return f->ac ? f->ac->rate_max : 0;
}

double nav_ac_work(const nav_flow *f) {
  return f->ac ? f->ac->work : -1;
}

void nav_ac_describe(const nav_flow *f, char *buf, size_t n) {
  const nav_ac *ac = f->ac;
  const nav_box *cb = ac->lev[ac->nlev - 1].box;
  snprintf(buf, n, "artificial compressibility: %d-stage pseudo-time scheme, ac_cfl %g, ac_beta %g, multigrid in "
           "pseudo-time on %d level(s) (%s-cycles, coarse-level dissipation %g, nested start to %g), coarsest block "
           "%dx%d%s%.0d%s", f->cfg->ac_stages, f->cfg->ac_cfl, f->cfg->ac_beta, ac->nlev, ac->cycle == 'w' ? "W" : ac->cycle == 'f' ? "F" : "V",
           f->cfg->ac_dissipation, f->cfg->ac_nested_tol, cb->n[0], cb->n[1], f->dim == 3 ? "x" : "",
           f->dim == 3 ? cb->n[2] : 0, ac->graphs > 0 ? ", CUDA graphs between monitor steps" : "");
}
