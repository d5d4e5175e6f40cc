/* The public Poisson library API (include/navier/poisson.h) over the internal nav_psolver.
 *
 * Three parts: the application's block layout (grid/nav_layout.h, checked on every rank), the
 * solver's decomposition (the application's own layout when it can serve, else navier's split of
 * the solver ranks), and the moves between them (nav_move: point-to-point messages between ranks
 * whose boxes intersect). Consolidation (ranks_per_solver > 1) is the second case with fewer solver
 * ranks than ranks: the same code on every backend. Every call ends with a collective verdict
 * (nav_poisson_agree): an error on any rank is returned, with its message, on every rank. */
#include "navier/poisson.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "grid/nav_decomp.h"
#include "grid/nav_layout.h"
#include "solvers/poisson/nav_psolver.h"

struct nav_poisson {
  nav_psolver_options opt;
  char backend[16];
  const nav_kernel_ops *ops; /* solver ranks: the solver's backend; others: the backend of their memory */
  MPI_Comm comm, scomm;      /* the caller's ranks; the solver ranks (MPI_COMM_NULL elsewhere) */
  int rank, size, group;     /* group: index of this rank's solver among its node's (the device index) */
  int rps, is_solver, nsolvers;
  nav_poisson_memory memory; /* options.memory */
  nav_poisson_memory mem;    /* the memory of the blocks of nav_poisson_run (host for replicated calls) */
  int zero_guess;
  int decomposition[3];
  char transport[16]; /* the halo transport asked for (nav_transport.h) */
  /* set_grid */
  int moved, replicated;
  int ready;           /* set_grid succeeded on every rank */
  nav_layout app, sol; /* the application's blocks; the solver's (moved only) */
  nav_move mv;
  nav_shm_move sm;     /* the moves through shared memory (moved == 2) */
  char gather[16];     /* options.gather */
  nav_psolver *solver; /* solver ranks */
  nav_decomp dc;       /* the solver's decomposition (solver ranks) */
  nav_box box;         /* layout of the solver's ghosted arrays */
  nav_real *x, *b;     /* backend arrays with ghost cells */
  nav_real *hx, *hb;   /* host staging arrays with ghost cells (or the shared window's part) */
  int pinned;          /* hx, hb page-locked by ops->host_register: 1 each, 2 the window part from hb */
  double *w[3];
  double *ax, *ab; /* host copies of the application block (device memory, replicated calls) */
  double *sx, *sb; /* dense solver block (moved only) */
  char description[256];
};

void nav_poisson_options_default(nav_poisson_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->solver = "mg";
  opt->tolerance = 1e-8;
  opt->max_iterations = 200;
  opt->cycle = "v";
  opt->pre_smooth = 2;
  opt->post_smooth = 2;
  opt->backend = "cpu";
  opt->halo_transport = "auto";
  opt->memory = NAV_POISSON_HOST;
}

const char *nav_poisson_error(void) { return nav_error_message(); }

/* The verdict of every rank of comm on a step: the worst code, with the message of the lowest
 * rank that failed, returned on every rank. Collective. */
static nav_err nav_poisson_agree(MPI_Comm comm, nav_err e) {
  int mine[2] = {(int)e, e != NAV_OK ? 0 : 1}, all[2], rank;
  MPI_Comm_rank(comm, &rank);
  mine[1] = e != NAV_OK ? rank : 1 << 30;
  MPI_Allreduce(mine, all, 1, MPI_2INT, MPI_MAXLOC, comm); /* code, rank (ties: the lowest) */
  if (all[0] == NAV_OK) return NAV_OK;
  int first = mine[1];
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", rank == first ? nav_error_message() : "");
  MPI_Bcast(msg, sizeof msg, MPI_CHAR, first, comm);
  if (rank == first) return (nav_err)all[0];
  return nav_error_set((nav_err)all[0], __FILE__, __LINE__, __func__, "%s", msg);
}

static nav_err nav_poisson_create_local(MPI_Comm comm, const nav_poisson_options *opt, nav_poisson *ps) {
  NAV_CHECK(opt->solver && opt->cycle, NAV_ERR_INPUT, "nav_poisson_create: solver and cycle must be set");
  NAV_CHECK(strlen(opt->solver) < sizeof ps->opt.solver && strlen(opt->cycle) < sizeof ps->opt.cycle, NAV_ERR_INPUT,
            "nav_poisson_create: solver '%s' or cycle '%s' unknown", opt->solver, opt->cycle);
  const char *backend = opt->backend ? opt->backend : "cpu";
  NAV_CHECK(strlen(backend) < sizeof ps->backend, NAV_ERR_INPUT, "nav_poisson_create: backend '%s' unknown", backend);
  snprintf(ps->backend, sizeof ps->backend, "%s", backend);
  const char *transport = opt->halo_transport ? opt->halo_transport : "auto";
  NAV_CHECK(!strcmp(transport, "auto") || !strcmp(transport, "mpi") || !strcmp(transport, "cuda-aware") ||
                !strcmp(transport, "nccl") || !strcmp(transport, "cuda-ipc"),
            NAV_ERR_INPUT, "nav_poisson_create: halo_transport '%s' unknown (auto, mpi, cuda-aware, nccl, cuda-ipc)", transport);
  snprintf(ps->transport, sizeof ps->transport, "%s", transport);
  const char *gather = opt->gather ? opt->gather : "auto";
  NAV_CHECK(!strcmp(gather, "auto") || !strcmp(gather, "messages") || !strcmp(gather, "shared"), NAV_ERR_INPUT,
            "nav_poisson_create: gather '%s' unknown (auto, messages, shared)", gather);
  snprintf(ps->gather, sizeof ps->gather, "%s", gather);
  NAV_CHECK(!opt->smoother || strlen(opt->smoother) < sizeof ps->opt.smoother, NAV_ERR_INPUT,
            "nav_poisson_create: smoother '%s' unknown (auto, point, line)", opt->smoother);
  NAV_CHECK(opt->memory == NAV_POISSON_HOST || opt->memory == NAV_POISSON_DEVICE, NAV_ERR_INPUT,
            "nav_poisson_create: memory %d unknown (NAV_POISSON_HOST, NAV_POISSON_DEVICE)", (int)opt->memory);
  NAV_CHECK(opt->memory == NAV_POISSON_HOST || strcmp(backend, "cpu"), NAV_ERR_INPUT,
            "nav_poisson_create: memory NAV_POISSON_DEVICE needs a device backend (backend '%s')", backend);
  NAV_CHECK(opt->ranks_per_solver >= 0, NAV_ERR_INPUT, "nav_poisson_create: ranks_per_solver %d must be >= 0",
            opt->ranks_per_solver);
  strcpy(ps->opt.solver, opt->solver);
  strcpy(ps->opt.cycle, opt->cycle);
  ps->opt.tolerance = opt->tolerance;
  ps->opt.max_iterations = opt->max_iterations;
  ps->opt.pre_smooth = opt->pre_smooth;
  ps->opt.post_smooth = opt->post_smooth;
  ps->opt.omega = opt->omega;
  ps->opt.cpu_coarse_cells = opt->cpu_coarse_cells;
  snprintf(ps->opt.smoother, sizeof ps->opt.smoother, "%s", opt->smoother ? opt->smoother : "auto");
  snprintf(ps->opt.precision, sizeof ps->opt.precision, "%s", opt->precision ? opt->precision : "double");
  memcpy(ps->decomposition, opt->decomposition, sizeof ps->decomposition);
  ps->memory = opt->memory;
  ps->zero_guess = opt->zero_guess != 0;
  ps->opt.async = opt->skip_residual ? 2 : 0; /* the FFT solver's unmeasured solves (nav_psolver.h) */
  /* consolidation: groups of rps consecutive node-local ranks, the first of each solves */
  int local_size, local = nav_decomp_local_rank(comm, &local_size);
  int rps = opt->ranks_per_solver;
  if (rps == 0) {
    const int devices = strcmp(backend, "cpu") ? nav_backend_device_count(backend) : 0;
    rps = devices > 0 ? (local_size + devices - 1) / devices : 1;
  }
  ps->rps = rps;
  ps->group = local / rps;
  ps->is_solver = local % rps == 0;
  /* only the solver ranks, and the ranks whose arrays live on the device, touch the device */
  if (ps->is_solver || ps->memory == NAV_POISSON_DEVICE) {
    ps->ops = nav_backend_get(backend, ps->group);
    NAV_CHECK(ps->ops, NAV_ERR_INPUT, "nav_poisson_create: backend '%s' not available (%s)", backend,
              nav_backend_list());
  } else {
    ps->ops = &nav_kernel_ops_cpu;
  }
  return NAV_OK;
}

nav_err nav_poisson_create(MPI_Comm comm, const nav_poisson_options *opt, nav_poisson **out) {
  nav_poisson_options def;
  nav_poisson_options_default(&def);
  if (!opt) opt = &def;
  *out = NULL;
  int size = 1;
  NAV_CHECK(comm != MPI_COMM_NULL && MPI_Comm_size(comm, &size) == MPI_SUCCESS, NAV_ERR_INPUT,
            "nav_poisson_create: bad communicator");
  nav_poisson *ps = calloc(1, sizeof *ps);
  NAV_CHECK(ps, NAV_ERR_MEMORY, "nav_poisson_create: out of memory");
  ps->comm = comm;
  ps->scomm = MPI_COMM_NULL;
  ps->dc.comm = MPI_COMM_NULL;
  MPI_Comm_rank(comm, &ps->rank);
  ps->size = size;
  nav_err e = nav_poisson_agree(comm, nav_poisson_create_local(comm, opt, ps));
  if (e == NAV_OK) {
    MPI_Allreduce(&ps->is_solver, &ps->nsolvers, 1, MPI_INT, MPI_SUM, comm);
    if (MPI_Comm_split(comm, ps->is_solver ? 0 : MPI_UNDEFINED, ps->rank, &ps->scomm) != MPI_SUCCESS)
      e = nav_error_set(NAV_ERR_MPI, __FILE__, __LINE__, __func__, "nav_poisson_create: MPI_Comm_split failed");
  }
  if (e != NAV_OK) {
    free(ps);
    return e;
  }
  *out = ps;
  return NAV_OK;
}

/* The staging arrays page-locked on a device backend (ops->host_register), so that the copies to and
 * from the device run at the pinned speed (measured: docs/performance.md); the window's part (b then
 * x, contiguous) as one range. */
static nav_err nav_poisson_pin(nav_poisson *ps, int window) {
  if (!ps->ops->host_register) return NAV_OK;
  const size_t bytes = (size_t)(window ? ps->sm.ntot : ps->box.ntot) * sizeof(nav_real);
  if (!bytes) return NAV_OK;
  NAV_CALL(ps->ops->host_register(ps->hb, window ? 2 * bytes : bytes));
  ps->pinned = window ? 2 : 1;
  if (!window) NAV_CALL(ps->ops->host_register(ps->hx, bytes));
  return NAV_OK;
}

static void nav_poisson_unpin(nav_poisson *ps) {
  if (ps->pinned) ps->ops->host_unregister(ps->hb);
  if (ps->pinned == 1) ps->ops->host_unregister(ps->hx);
  ps->pinned = 0;
}

static void nav_poisson_release(nav_poisson *ps) {
  nav_psolver_destroy(ps->solver);
  ps->solver = NULL;
  if (ps->x) ps->ops->free(ps->x);
  if (ps->b) ps->ops->free(ps->b);
  if (ps->box.rdf[0]) nav_box_destroy(ps->ops, &ps->box);
  memset(&ps->box, 0, sizeof ps->box);
  nav_poisson_unpin(ps);
  if (ps->moved != 2) { /* shared memory: hx and hb are the window's */
    free(ps->hx);
    free(ps->hb);
  }
  nav_shm_move_destroy(&ps->sm);
  free(ps->ax);
  free(ps->ab);
  free(ps->sx);
  free(ps->sb);
  if (ps->dc.start[0]) nav_decomp_destroy(&ps->dc);
  ps->dc.comm = MPI_COMM_NULL;
  nav_layout_destroy(&ps->app);
  nav_layout_destroy(&ps->sol);
  nav_move_destroy(&ps->mv);
  ps->x = ps->b = ps->hx = ps->hb = NULL;
  ps->ax = ps->ab = ps->sx = ps->sb = NULL;
  ps->moved = ps->replicated = ps->ready = 0;
  ps->mem = ps->memory;
  for (int d = 0; d < 3; d++) {
    nav_widths_free(ps->w[d]);
    ps->w[d] = NULL;
  }
}

/* The boundary conditions and widths (every rank checks the same arguments). */
static nav_err nav_poisson_geometry(nav_poisson *ps, int dim, const int N[3], const double *const h[3],
                                    const nav_poisson_bc bc[3][2], nav_scalar_bc sbc[3][2], int periodic[3]) {
  NAV_CHECK(dim == 2 || dim == 3, NAV_ERR_INPUT, "nav_poisson_set_grid: dim %d must be 2 or 3", dim);
  for (int d = 0; d < 3; d++) {
    periodic[d] = 0;
    for (int s = 0; s < 2; s++)
      sbc[d][s] = NAV_SCALAR_NEUMANN;
  }
  for (int d = 0; d < dim; d++) {
    NAV_CHECK(N[d] >= 1, NAV_ERR_INPUT, "nav_poisson_set_grid: n[%d] = %d must be >= 1", d, N[d]);
    for (int s = 0; s < 2; s++) {
      NAV_CHECK(bc[d][s] >= NAV_POISSON_NEUMANN && bc[d][s] <= NAV_POISSON_PERIODIC, NAV_ERR_INPUT,
                "nav_poisson_set_grid: bc[%d][%d] = %d unknown", d, s, (int)bc[d][s]);
      sbc[d][s] = bc[d][s] == NAV_POISSON_NEUMANN     ? NAV_SCALAR_NEUMANN
                  : bc[d][s] == NAV_POISSON_DIRICHLET ? NAV_SCALAR_DIRICHLET
                                                      : NAV_SCALAR_PERIODIC;
    }
    NAV_CHECK((sbc[d][0] == NAV_SCALAR_PERIODIC) == (sbc[d][1] == NAV_SCALAR_PERIODIC), NAV_ERR_INPUT,
              "nav_poisson_set_grid: direction %d is periodic on one side only", d);
    periodic[d] = sbc[d][0] == NAV_SCALAR_PERIODIC;
    NAV_CHECK(h[d], NAV_ERR_INPUT, "nav_poisson_set_grid: h[%d] is NULL", d);
    ps->w[d] = nav_widths_alloc(N[d]);
    NAV_CHECK(ps->w[d], NAV_ERR_MEMORY, "nav_poisson_set_grid: out of memory");
    for (int i = 0; i < N[d]; i++) {
      NAV_CHECK(h[d][i] > 0, NAV_ERR_INPUT, "nav_poisson_set_grid: width h[%d][%d] = %g must be > 0", d, i, h[d][i]);
      ps->w[d][i] = h[d][i];
    }
    nav_widths_ghosts(ps->w[d], N[d], periodic[d]);
  }
  return NAV_OK;
}

/* Can the solver use the application's layout as its decomposition? One rank per solver, no
 * empty block, and blocks of at least NAV_DECOMP_MIN_CELLS cells along every split direction. */
static int nav_poisson_direct(const nav_poisson *ps) {
  const nav_layout *L = &ps->app;
  if (ps->nsolvers != ps->size || L->empty) return 0;
  for (int d = 0; d < L->dim; d++)
    for (int j = 0; j < L->p[d] && L->p[d] > 1; j++)
      if (L->start[d][j + 1] - L->start[d][j] < NAV_DECOMP_MIN_CELLS) return 0;
  return 1;
}

/* The solver's decomposition: the application's blocks (direct) or navier's split of the solver
 * ranks; on every rank the solver layout and the moves (moved). */
static nav_err nav_poisson_decompose(nav_poisson *ps, int dim, const int N[3], const int periodic[3]) {
  ps->moved = !nav_poisson_direct(ps);
  nav_err e = NAV_OK;
  if (!ps->moved) {
    if (ps->size > 1)
      e = nav_decomp_create_blocks(ps->comm, dim, N, periodic, ps->app.p, ps->app.start, ps->app.coord[ps->rank],
                                   &ps->dc);
    else
      e = nav_decomp_serial(dim, N, periodic, &ps->dc);
    return e;
  }
  if (ps->is_solver) {
    const int *preq = ps->nsolvers == ps->size ? ps->decomposition : NULL;
    if (ps->nsolvers > 1)
      e = nav_decomp_create_grid(ps->scomm, dim, N, periodic, preq, "nav_poisson_set_grid", &ps->dc);
    else
      e = nav_decomp_serial(dim, N, periodic, &ps->dc);
  }
  NAV_CALL(nav_poisson_agree(ps->comm, e));
  const int none[3] = {0, 0, 0};
  NAV_CALL(
      nav_layout_gather(ps->comm, dim, N, ps->is_solver ? ps->dc.g0 : none, ps->is_solver ? ps->dc.n : none, &ps->sol));
  NAV_CALL(nav_move_create(ps->comm, &ps->app, &ps->sol, &ps->mv));
  if (ps->is_solver) {
    const size_t cells = (size_t)ps->dc.n[0] * ps->dc.n[1] * ps->dc.n[2];
    ps->sx = malloc(cells * sizeof(double));
    ps->sb = malloc(cells * sizeof(double));
    NAV_CHECK(ps->sx && ps->sb, NAV_ERR_MEMORY, "nav_poisson_set_grid: out of memory");
  }
  return NAV_OK;
}

/* The solver of a solver rank on its decomposition: transport, arrays, levels. */
static nav_err nav_poisson_solver(nav_poisson *ps, int dim, const int N[3], nav_scalar_bc sbc[3][2]) {
  if (ps->dc.size > 1) /* the halo transport of the grid's ranks; nav_decomp_destroy frees it */
    NAV_CALL(nav_transport_create(ps->ops, ps->dc.comm, ps->transport, "nav_poisson_set_grid", &ps->dc.transport));
  NAV_CALL(nav_box_create(ps->ops, dim, ps->dc.n, ps->dc.g0, ps->w, &ps->box));
  const size_t bytes = (size_t)ps->box.ntot * sizeof(nav_real);
  NAV_CALL(ps->ops->alloc((void **)&ps->x, bytes));
  NAV_CALL(ps->ops->alloc((void **)&ps->b, bytes));
  ps->hx = calloc((size_t)ps->box.ntot, sizeof(nav_real));
  ps->hb = calloc((size_t)ps->box.ntot, sizeof(nav_real));
  NAV_CHECK(ps->hx && ps->hb, NAV_ERR_MEMORY, "nav_poisson_set_grid: out of memory");
  NAV_CALL(nav_poisson_pin(ps, 0));
  NAV_CALL(nav_psolver_create(ps->ops, &ps->dc, dim, N, ps->w, (const nav_scalar_bc(*)[2])sbc, &ps->opt, &ps->solver));
  nav_psolver_describe(ps->solver, ps->description, sizeof ps->description);
  return NAV_OK;
}

static nav_err nav_poisson_shared(nav_poisson *ps, int dim);

/* Set up on the application layout (this rank's block at offset, count cells); replicated: for
 * nav_poisson_solve (whole host arrays, staged through host blocks). */
static nav_err nav_poisson_setup(nav_poisson *ps, int dim, const int N[3], const int offset[3], const int count[3],
                                 const double *const h[3], const nav_poisson_bc bc[3][2], int replicated) {
  nav_poisson_release(ps);
  ps->replicated = replicated;
  ps->mem = replicated ? NAV_POISSON_HOST : ps->memory;
  nav_scalar_bc sbc[3][2];
  int periodic[3];
  /* the layout first (the same verdict everywhere): a rank whose dim or N differs from rank 0's
   * is reported before any width array is read */
  NAV_CALL(nav_layout_gather(ps->comm, dim, N, offset, count, &ps->app));
  NAV_CALL(nav_layout_check(&ps->app, "nav_poisson_set_grid_block: block layout"));
  NAV_CALL(nav_poisson_agree(ps->comm, nav_poisson_geometry(ps, dim, N, h, bc, sbc, periodic)));
  NAV_CALL(nav_poisson_agree(ps->comm, nav_poisson_decompose(ps, dim, N, periodic)));
  const nav_idx cells = nav_layout_cells(&ps->app, ps->rank);
  nav_err e = NAV_OK;
  if (ps->mem == NAV_POISSON_DEVICE || ps->replicated) {
    ps->ax = malloc((size_t)(cells > 0 ? cells : 1) * sizeof(double));
    ps->ab = malloc((size_t)(cells > 0 ? cells : 1) * sizeof(double));
    if (!ps->ax || !ps->ab) e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "out of memory");
  }
  if (e == NAV_OK && ps->is_solver) e = nav_poisson_solver(ps, dim, N, sbc);
  NAV_CALL(nav_poisson_agree(ps->comm, e));
  if (ps->moved && strcmp(ps->gather, "messages")) NAV_CALL(nav_poisson_agree(ps->comm, nav_poisson_shared(ps, dim)));
  /* the description of the solver rank 0 (rank 0 of comm is node-local rank 0: a solver) */
  MPI_Bcast(ps->description, sizeof ps->description, MPI_CHAR, 0, ps->comm);
  ps->ready = 1;
  return NAV_OK;
}

/* Moves through shared memory: the solver ranks' staging arrays become their part of the window. */
static nav_err nav_poisson_shared(nav_poisson *ps, int dim) {
  int usable;
  NAV_CALL(nav_shm_move_create(ps->comm, &ps->sol, &ps->mv, dim, &ps->sm, &usable));
  NAV_CHECK(usable || strcmp(ps->gather, "shared"), NAV_ERR_INPUT,
            "nav_poisson_set_grid_block: gather 'shared' but some blocks go to a solver rank on another node");
  if (!usable) return NAV_OK;
  NAV_CHECK(!ps->is_solver || ps->sm.ntot == ps->box.ntot, NAV_ERR_INTERNAL, "shared window of %ld points, box %ld",
            (long)ps->sm.ntot, (long)ps->box.ntot);
  if (ps->is_solver) {
    nav_poisson_unpin(ps);
    free(ps->hx);
    free(ps->hb);
    ps->hb = ps->sm.mine;
    ps->hx = ps->sm.mine + ps->sm.ntot;
    NAV_CALL(nav_poisson_pin(ps, 1));
  }
  ps->moved = 2;
  return NAV_OK;
}

nav_err nav_poisson_set_grid_block(nav_poisson *ps, int dim, const int N[3], const int offset[3], const int count[3],
                                   const double *const h[3], const nav_poisson_bc bc[3][2]) {
  return nav_poisson_setup(ps, dim, N, offset, count, h, bc, 0);
}

nav_err nav_poisson_set_grid(nav_poisson *ps, int dim, const int n[3], const double *const h[3],
                             const nav_poisson_bc bc[3][2]) {
  /* the blocks of navier's decomposition of comm (options.decomposition or automatic) */
  int lo[3] = {0, 0, 0}, cnt[3] = {1, 1, 1}, periodic[3] = {0, 0, 0};
  NAV_CHECK(dim == 2 || dim == 3, NAV_ERR_INPUT, "nav_poisson_set_grid: dim %d must be 2 or 3", dim);
  for (int d = 0; d < dim; d++) {
    cnt[d] = n[d];
    periodic[d] = bc[d][0] == NAV_POISSON_PERIODIC;
  }
  if (ps->size > 1) {
    nav_decomp dc;
    NAV_CALL(nav_decomp_create_grid(ps->comm, dim, cnt, periodic, ps->decomposition, "nav_poisson_set_grid", &dc));
    memcpy(lo, dc.g0, sizeof lo);
    memcpy(cnt, dc.n, sizeof cnt);
    nav_decomp_destroy(&dc);
  }
  return nav_poisson_setup(ps, dim, n, lo, cnt, h, bc, 1);
}

/* Dense solver block (x fastest) <-> the interior of the ghosted host block. */
static void nav_poisson_pack(const nav_box *b, double *dense, nav_real *ghosted, int to_ghosted) {
#pragma omp parallel for collapse(2) if (b->n[0] * b->n[1] * b->n[2] > 32768)
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      const nav_idx p = b->off + j * b->st[1] + k * b->st[2], q = (nav_idx)b->n[0] * (j + (nav_idx)b->n[1] * k);
      for (int i = 0; i < b->n[0]; i++) {
        if (to_ghosted)
          ghosted[p + i * b->st[0]] = (nav_real)dense[q + i];
        else
          dense[q + i] = ghosted[p + i * b->st[0]];
      }
    }
}

enum { NAV_POISSON_SOLVE, NAV_POISSON_PRECONDITION };

/* The solver rank's part: b (and x) from the dense block to the backend, solve or precondition,
 * x back to the dense block; staged: the ranks wrote b (and x) into hb (hx) and read x from hx. */
static nav_err nav_poisson_run_solver(nav_poisson *ps, double *dx, const double *db, int what, int guess, int device,
                                      int staged, nav_psolver_stats *st, double *copy_s) {
  const size_t bytes = (size_t)ps->box.ntot * sizeof(nav_real);
  if (!staged && !device) nav_poisson_pack(&ps->box, (double *)db, ps->hb, 1);
  double t0 = nav_wtime();
  if (device) /* the caller's device block straight into the ghosted device array */
    NAV_CALL(ps->ops->dense_copy(&ps->box, ps->b, (double *)db, 1));
  else
    NAV_CALL(ps->ops->from_host(ps->b, ps->hb, bytes));
  if (guess && device) {
    NAV_CALL(ps->ops->dense_copy(&ps->box, ps->x, dx, 1));
  } else if (guess) {
    if (!staged) nav_poisson_pack(&ps->box, dx, ps->hx, 1);
    NAV_CALL(ps->ops->from_host(ps->x, ps->hx, bytes));
  } else {
    NAV_CALL(ps->ops->set(&ps->box, ps->x, 0));
  }
  /* solve_s starts when every solver rank has its b on the backend: a rank's slower copy is its copy
   * time, not the others' solve time (their first sum over the ranks would wait for it) */
  NAV_CALL(ps->ops->sync());
  if (ps->nsolvers > 1) MPI_Barrier(ps->scomm);
  *copy_s += nav_wtime() - t0;
  memset(st, 0, sizeof *st);
  if (what == NAV_POISSON_SOLVE) {
    const double t1 = nav_wtime();
    NAV_CALL(nav_psolver_solve(ps->solver, ps->x, ps->b, st));
    if (!st->relres_measured) { /* skip_residual: the solve was launched, not waited for */
      NAV_CALL(ps->ops->sync());
      st->solve_s = nav_wtime() - t1;
      if (isfinite(st->relres)) st->relres = -1; /* (NaN or Inf: the sum of b, the blow-up reported) */
    }
  } else {
    const double t1 = nav_wtime();
    NAV_CALL(nav_psolver_precondition(ps->solver, ps->x, ps->b));
    NAV_CALL(ps->ops->sync()); /* a device's last kernels are part of the application's time */
    st->solve_s = nav_wtime() - t1;
    st->converged = 1;
  }
  t0 = nav_wtime();
  if (device) {
    NAV_CALL(ps->ops->dense_copy(&ps->box, ps->x, dx, 0));
    NAV_CALL(ps->ops->sync());
  } else {
    NAV_CALL(ps->ops->to_host(ps->hx, ps->x, bytes));
  }
  *copy_s += nav_wtime() - t0;
  if (!staged && !device) nav_poisson_pack(&ps->box, dx, ps->hx, 0);
  return NAV_OK;
}

/* This rank's block inside the solver's host staging arrays (nav_poisson_block_arrays): 1 with b, x and the
 * strides, or 0 with the reason in why. Not collective. */
static int nav_poisson_staging(nav_poisson *ps, nav_real **b, nav_real **x, nav_idx st[3], char *why, size_t size) {
  const char *no = NULL;
  *b = *x = NULL;
  if (!ps->ready || ps->replicated) no = "call nav_poisson_set_grid_block first, successfully";
  else if (ps->mem != NAV_POISSON_HOST) no = "the blocks are in device memory (options.memory)";
  else if (sizeof(nav_real) != sizeof(double)) no = "this navier is a single-precision build";
  else if (ps->moved == 1) no = "the blocks are moved by messages (options.gather, or blocks on several nodes)";
  else if (ps->moved == 2 && !nav_shm_move_block(&ps->sm, b, x, st))
    no = "this rank's block is split between solver ranks";
  if (!no && !ps->moved) { /* the rank's own solver: its block is the solver's box */
    *b = ps->hb + ps->box.off;
    *x = ps->hx + ps->box.off;
    for (int d = 0; d < 3; d++)
      st[d] = ps->box.st[d];
  }
  if (no) snprintf(why, size, "%s", no);
  return !no;
}

nav_err nav_poisson_block_arrays(nav_poisson *ps, double **x, double **b, long stride[3]) {
  nav_real *hb, *hx;
  nav_idx st[3] = {1, 0, 0};
  char why[160];
  const int ok = nav_poisson_staging(ps, &hb, &hx, st, why, sizeof why);
  NAV_CALL(nav_poisson_agree(ps->comm, ok ? NAV_OK
                                          : nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__,
                                                          "nav_poisson_block_arrays: not available: %s", why)));
  *x = (double *)(void *)hx;
  *b = (double *)(void *)hb;
  for (int d = 0; d < 3; d++)
    stride[d] = (long)st[d];
  return NAV_OK;
}

/* x (the application's block, options.memory) = solve or precondition with b; inplace (nav_poisson_solve_arrays):
 * x and b are the ranks' parts of the staging arrays, already written. Collective. */
static nav_err nav_poisson_run(nav_poisson *ps, double *x, const double *b, int what, int inplace,
                               nav_poisson_result *res) {
  NAV_CHECK(ps->ready, NAV_ERR_INPUT, "nav_poisson: call nav_poisson_set_grid_block (or set_grid) first, successfully");
  const int guess = what == NAV_POISSON_SOLVE && !ps->zero_guess;
  const size_t bytes = (size_t)nav_layout_cells(&ps->app, ps->rank) * sizeof(double);
  double copy_s = 0, t0;
  nav_err e = NAV_OK;
  const double *ab = b;
  double *ax = x;
  /* device blocks used directly: copied on the device into the solver's arrays (dense_copy); moved
   * ones are staged through the host */
  const int device = ps->mem == NAV_POISSON_DEVICE && !ps->moved && ps->ops->dense_copy;
  if (ps->mem == NAV_POISSON_DEVICE && !device) { /* stage the caller's device block on the host */
    t0 = nav_wtime();
    ab = ps->ab;
    ax = ps->ax;
    if (bytes) e = ps->ops->to_host(ps->ab, b, bytes);
    if (e == NAV_OK && guess && bytes) e = ps->ops->to_host(ps->ax, x, bytes);
    copy_s += nav_wtime() - t0;
  }
  NAV_CALL(nav_poisson_agree(ps->comm, e));
  /* the solver's dense blocks: the application's (direct) or the moved ones */
  double move[2] = {0, 0};
  const double *sb = ab;
  double *sx = ax;
  if (ps->moved == 2) { /* inplace: the ranks wrote their cells already; the fence makes them visible */
    t0 = nav_wtime();
    e = inplace ? nav_shm_move_fence(&ps->sm) : nav_shm_move_in(&ps->sm, ab, guess ? ax : NULL);
    move[0] = nav_wtime() - t0;
  } else if (ps->moved) {
    t0 = nav_wtime();
    e = nav_move_run(&ps->mv, ab, ps->sb, 0);
    if (e == NAV_OK && guess) e = nav_move_run(&ps->mv, ax, ps->sx, 0);
    move[0] = nav_wtime() - t0;
    sb = ps->sb;
    sx = ps->sx;
  }
  nav_psolver_stats st;
  memset(&st, 0, sizeof st);
  if (e == NAV_OK && ps->is_solver)
    e = nav_poisson_run_solver(ps, sx, sb, what, guess, device, ps->moved == 2 || inplace, &st, &copy_s);
  NAV_CALL(nav_poisson_agree(ps->comm, e));
  if (ps->moved) {
    t0 = nav_wtime();
    e = ps->moved == 1 ? nav_move_run(&ps->mv, ps->sx, ax, 1)
        : inplace      ? nav_shm_move_fence(&ps->sm)
                       : nav_shm_move_out(&ps->sm, ax);
    move[1] = nav_wtime() - t0;
  }
  if (e == NAV_OK && ps->mem == NAV_POISSON_DEVICE && !device && bytes) {
    t0 = nav_wtime();
    e = ps->ops->from_host(x, ps->ax, bytes);
    copy_s += nav_wtime() - t0;
  }
  NAV_CALL(nav_poisson_agree(ps->comm, e));
  /* the statistics of rank 0 (a solver rank), the moves' and copies' slowest rank */
  double stats[7] = {st.iterations, st.relres, st.converged, st.solve_s, 0, 0, 0}, slow[3] = {move[0], move[1], copy_s};
  MPI_Bcast(stats, 4, MPI_DOUBLE, 0, ps->comm);
  MPI_Allreduce(slow, stats + 4, 3, MPI_DOUBLE, MPI_MAX, ps->comm);
  if (res) {
    memset(res, 0, sizeof *res);
    res->iterations = (int)stats[0];
    res->relres = stats[1];
    res->converged = stats[2] != 0;
    res->setup_s = ps->solver ? nav_psolver_setup_seconds(ps->solver) : 0;
    MPI_Bcast(&res->setup_s, 1, MPI_DOUBLE, 0, ps->comm);
    res->solve_s = stats[3];
    res->move_in_s = stats[4];
    res->move_out_s = stats[5];
    res->copy_s = stats[6];
    res->solver_ranks = ps->nsolvers;
    res->moved = ps->moved;
  }
  NAV_CHECK(what != NAV_POISSON_SOLVE || stats[2] != 0, NAV_ERR_CONVERGENCE,
            "nav_poisson_solve: %s did not converge: relative residual %.3e after %d iterations (tolerance %.1e)%s",
            ps->opt.solver, stats[1], (int)stats[0], ps->opt.tolerance,
            isfinite(stats[1]) ? "" : ": a NaN or Inf in b, or a diverging iteration");
  return NAV_OK;
}

nav_err nav_poisson_solve_block(nav_poisson *ps, double *x, const double *b, nav_poisson_result *res) {
  return nav_poisson_run(ps, x, b, NAV_POISSON_SOLVE, 0, res);
}

nav_err nav_poisson_solve_arrays(nav_poisson *ps, nav_poisson_result *res) {
  double *x, *b;
  long stride[3];
  NAV_CALL(nav_poisson_block_arrays(ps, &x, &b, stride)); /* the same verdict on every rank */
  return nav_poisson_run(ps, x, b, NAV_POISSON_SOLVE, 1, res);
}

nav_err nav_poisson_precondition_block(nav_poisson *ps, double *z, const double *r) {
  return nav_poisson_run(ps, z, r, NAV_POISSON_PRECONDITION, 0, NULL);
}

/* The application block of the whole array (x fastest, N cells) <-> the dense block. */
static void nav_poisson_window(const nav_layout *L, int r, double *whole, double *block, int to_block) {
  const int *lo = L->lo[r], *cnt = L->cnt[r];
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++) {
      const nav_idx g = lo[0] + (nav_idx)L->N[0] * ((lo[1] + j) + (nav_idx)L->N[1] * (lo[2] + k));
      const nav_idx q = (nav_idx)cnt[0] * (j + (nav_idx)cnt[1] * k);
      if (to_block)
        memcpy(block + q, whole + g, (size_t)cnt[0] * sizeof(double));
      else
        memcpy(whole + g, block + q, (size_t)cnt[0] * sizeof(double));
    }
}

nav_err nav_poisson_solve(nav_poisson *ps, double *x, const double *b, nav_poisson_result *res) {
  NAV_CHECK(ps->replicated && ps->ready, NAV_ERR_INPUT,
            "nav_poisson_solve: call nav_poisson_set_grid first (whole arrays)");
  nav_poisson_window(&ps->app, ps->rank, (double *)b, ps->ab, 1);
  nav_poisson_window(&ps->app, ps->rank, x, ps->ax, 1);
  nav_poisson_result r;
  const nav_err e = nav_poisson_run(ps, ps->ax, ps->ab, NAV_POISSON_SOLVE, 0, &r);
  if (e != NAV_OK && e != NAV_ERR_CONVERGENCE) return e;
  if (res) *res = r;
  if (ps->size == 1) {
    nav_poisson_window(&ps->app, 0, x, ps->ax, 0);
    return e;
  }
  /* assemble x on every rank */
  int *counts = malloc(2 * (size_t)ps->size * sizeof(int));
  const nav_idx total = (nav_idx)ps->app.N[0] * ps->app.N[1] * ps->app.N[2];
  double *all = malloc((size_t)total * sizeof(double));
  if (!counts || !all) {
    free(counts);
    free(all);
    NAV_CHECK(0, NAV_ERR_MEMORY, "nav_poisson_solve: out of memory");
  }
  int *displs = counts + ps->size;
  for (int q = 0, off = 0; q < ps->size; q++) {
    counts[q] = (int)nav_layout_cells(&ps->app, q);
    displs[q] = off;
    off += counts[q];
  }
  const int rc = MPI_Allgatherv(ps->ax, counts[ps->rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, ps->comm);
  for (int q = 0; q < ps->size && rc == MPI_SUCCESS; q++)
    nav_poisson_window(&ps->app, q, x, all + displs[q], 0);
  free(counts);
  free(all);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "nav_poisson_solve: MPI_Allgatherv of x failed");
  return e;
}

const char *nav_poisson_describe(nav_poisson *ps) { return ps->description; }

void nav_poisson_destroy(nav_poisson *ps) {
  if (!ps) return;
  nav_poisson_release(ps);
  if (ps->scomm != MPI_COMM_NULL) MPI_Comm_free(&ps->scomm);
  free(ps);
}
