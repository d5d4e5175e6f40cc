/* The public Poisson library API (include/navier/poisson.h) over the internal nav_psolver. */
#include "navier/poisson.h"

#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "grid/nav_decomp.h"
#include "solvers/poisson/nav_psolver.h"

struct nav_poisson {
  nav_psolver_options opt;
  const nav_kernel_ops *ops;
  nav_psolver *solver;
  nav_box box;         /* layout of the internal arrays */
  nav_real *x, *b;     /* backend arrays with ghost cells */
  nav_real *hx, *hb;   /* host staging arrays with ghost cells */
  double *w[3];
  MPI_Comm comm;
  int decomposition[3];
  char transport[16];  /* the halo transport asked for (nav_transport.h) */
  nav_decomp dc;       /* the grid over comm (a serial stand-in on one rank) */
  double *block;       /* dense block of this rank */
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
}

const char *nav_poisson_error(void) { return nav_error_message(); }

nav_err nav_poisson_create(MPI_Comm comm, const nav_poisson_options *opt, nav_poisson **out) {
  nav_poisson_options def;
  nav_poisson_options_default(&def);
  if (!opt) opt = &def;
  int size = 1;
  NAV_CHECK(MPI_Comm_size(comm, &size) == MPI_SUCCESS, NAV_ERR_INPUT, "nav_poisson_create: bad communicator");
  NAV_CHECK(opt->solver && opt->cycle, NAV_ERR_INPUT, "nav_poisson_create: solver and cycle must be set");
  NAV_CHECK(strlen(opt->solver) < sizeof def.solver && strlen(opt->cycle) < 8, NAV_ERR_INPUT,
            "nav_poisson_create: solver '%s' or cycle '%s' unknown", opt->solver, opt->cycle);
  const nav_kernel_ops *ops = nav_backend_get(opt->backend ? opt->backend : "cpu", nav_decomp_local_rank(comm, NULL));
  NAV_CHECK(ops, NAV_ERR_INPUT, "nav_poisson_create: backend '%s' not available", opt->backend);
  const char *transport = opt->halo_transport ? opt->halo_transport : "auto";
  NAV_CHECK(!strcmp(transport, "auto") || !strcmp(transport, "mpi") || !strcmp(transport, "cuda-aware") ||
                !strcmp(transport, "nccl"),
            NAV_ERR_INPUT, "nav_poisson_create: halo_transport '%s' unknown (auto, mpi, cuda-aware, nccl)", transport);
  nav_poisson *ps = calloc(1, sizeof *ps);
  NAV_CHECK(ps, NAV_ERR_MEMORY, "nav_poisson_create: out of memory");
  ps->ops = ops;
  strcpy(ps->opt.solver, opt->solver);
  strcpy(ps->opt.cycle, opt->cycle);
  ps->opt.tolerance = opt->tolerance;
  ps->opt.max_iterations = opt->max_iterations;
  ps->opt.pre_smooth = opt->pre_smooth;
  ps->opt.post_smooth = opt->post_smooth;
  ps->opt.omega = opt->omega;
  ps->opt.cpu_coarse_cells = opt->cpu_coarse_cells;
  NAV_CHECK(!opt->smoother || strlen(opt->smoother) < sizeof ps->opt.smoother, NAV_ERR_INPUT,
            "nav_poisson_create: smoother '%s' unknown (auto, point, line)", opt->smoother);
  snprintf(ps->opt.smoother, sizeof ps->opt.smoother, "%s", opt->smoother ? opt->smoother : "auto");
  ps->comm = comm;
  memcpy(ps->decomposition, opt->decomposition, sizeof ps->decomposition);
  snprintf(ps->transport, sizeof ps->transport, "%s", transport);
  ps->dc.comm = MPI_COMM_NULL;
  *out = ps;
  return NAV_OK;
}

static void nav_poisson_release(nav_poisson *ps) {
  nav_psolver_destroy(ps->solver);
  ps->solver = NULL;
  if (ps->x) ps->ops->free(ps->x);
  if (ps->b) ps->ops->free(ps->b);
  if (ps->box.rdf[0]) nav_box_destroy(ps->ops, &ps->box);
  free(ps->hx);
  free(ps->hb);
  free(ps->block);
  ps->block = NULL;
  if (ps->dc.start[0]) nav_decomp_destroy(&ps->dc);
  ps->x = ps->b = ps->hx = ps->hb = NULL;
  for (int d = 0; d < 3; d++) {
    nav_widths_free(ps->w[d]);
    ps->w[d] = NULL;
  }
}

nav_err nav_poisson_set_grid(nav_poisson *ps, int dim, const int n[3], const double *const h[3],
                             const nav_poisson_bc bc[3][2]) {
  NAV_CHECK(dim == 2 || dim == 3, NAV_ERR_INPUT, "nav_poisson_set_grid: dim %d must be 2 or 3", dim);
  nav_poisson_release(ps);
  nav_scalar_bc sbc[3][2];
  int nn[3] = {1, 1, 1};
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) sbc[d][s] = NAV_SCALAR_NEUMANN;
  for (int d = 0; d < dim; d++) {
    NAV_CHECK(n[d] >= 1, NAV_ERR_INPUT, "nav_poisson_set_grid: n[%d] = %d must be >= 1", d, n[d]);
    nn[d] = n[d];
    for (int s = 0; s < 2; s++) {
      NAV_CHECK(bc[d][s] >= NAV_POISSON_NEUMANN && bc[d][s] <= NAV_POISSON_PERIODIC, NAV_ERR_INPUT,
                "nav_poisson_set_grid: bc[%d][%d] = %d unknown", d, s, (int)bc[d][s]);
      sbc[d][s] = bc[d][s] == NAV_POISSON_NEUMANN     ? NAV_SCALAR_NEUMANN
                  : bc[d][s] == NAV_POISSON_DIRICHLET ? NAV_SCALAR_DIRICHLET
                                                      : NAV_SCALAR_PERIODIC;
    }
    ps->w[d] = nav_widths_alloc(n[d]);
    NAV_CHECK(ps->w[d], NAV_ERR_MEMORY, "nav_poisson_set_grid: out of memory");
    for (int i = 0; i < n[d]; i++) {
      NAV_CHECK(h[d][i] > 0, NAV_ERR_INPUT, "nav_poisson_set_grid: width h[%d][%d] = %g must be > 0", d, i, h[d][i]);
      ps->w[d][i] = h[d][i];
    }
    nav_widths_ghosts(ps->w[d], n[d], sbc[d][0] == NAV_SCALAR_PERIODIC);
  }
  int size, periodic[3];
  MPI_Comm_size(ps->comm, &size);
  for (int d = 0; d < 3; d++) periodic[d] = d < dim && sbc[d][0] == NAV_SCALAR_PERIODIC;
  if (size > 1)
    NAV_CALL(nav_decomp_create_grid(ps->comm, dim, nn, periodic, ps->decomposition, "nav_poisson_set_grid", &ps->dc));
  if (size > 1) /* the halo transport of the grid's ranks; nav_decomp_destroy frees it */
    NAV_CALL(nav_transport_create(ps->ops, ps->dc.comm, ps->transport, "nav_poisson_set_grid", &ps->dc.transport));
  else
    NAV_CALL(nav_decomp_serial(dim, nn, periodic, &ps->dc));
  NAV_CALL(nav_box_create(ps->ops, dim, ps->dc.n, ps->dc.g0, ps->w, &ps->box));
  ps->block = malloc((size_t)ps->dc.n[0] * ps->dc.n[1] * ps->dc.n[2] * sizeof(double));
  NAV_CHECK(ps->block, NAV_ERR_MEMORY, "nav_poisson_set_grid: out of memory");
  const size_t bytes = (size_t)ps->box.ntot * sizeof(nav_real);
  NAV_CALL(ps->ops->alloc((void **)&ps->x, bytes));
  NAV_CALL(ps->ops->alloc((void **)&ps->b, bytes));
  ps->hx = calloc((size_t)ps->box.ntot, sizeof(nav_real));
  ps->hb = calloc((size_t)ps->box.ntot, sizeof(nav_real));
  NAV_CHECK(ps->hx && ps->hb, NAV_ERR_MEMORY, "nav_poisson_set_grid: out of memory");
  NAV_CALL(nav_psolver_create(ps->ops, &ps->dc, dim, nn, ps->w, (const nav_scalar_bc(*)[2])sbc, &ps->opt, &ps->solver));
  nav_psolver_describe(ps->solver, ps->description, sizeof ps->description);
  return NAV_OK;
}

/* Copy between the dense GLOBAL host array (x fastest, N cells) and the interior of this rank's
 * ghosted host block (n cells at g0). */
static void nav_poisson_pack(const nav_poisson *ps, double *dense, nav_real *ghosted, int to_ghosted) {
  const nav_box *b = &ps->box;
  const int *N = ps->dc.N;
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
        const nav_idx q = (nav_idx)(b->g0[0] + i) + (nav_idx)N[0] * ((b->g0[1] + j) + (nav_idx)N[1] * (b->g0[2] + k));
        if (to_ghosted)
          ghosted[p] = (nav_real)dense[q];
        else
          dense[q] = ghosted[p];
      }
}

nav_err nav_poisson_solve(nav_poisson *ps, double *x, const double *b, nav_poisson_result *res) {
  NAV_CHECK(ps->solver, NAV_ERR_INPUT, "nav_poisson_solve: call nav_poisson_set_grid first");
  const size_t bytes = (size_t)ps->box.ntot * sizeof(nav_real);
  nav_poisson_pack(ps, x, ps->hx, 1);
  nav_poisson_pack(ps, (double *)b, ps->hb, 1);
  NAV_CALL(ps->ops->from_host(ps->x, ps->hx, bytes));
  NAV_CALL(ps->ops->from_host(ps->b, ps->hb, bytes));
  nav_psolver_stats st;
  NAV_CALL(nav_psolver_solve(ps->solver, ps->x, ps->b, &st));
  NAV_CALL(ps->ops->to_host(ps->hx, ps->x, bytes));
  nav_poisson_pack(ps, x, ps->hx, 0);
  if (ps->dc.size > 1) { /* assemble x on every rank */
    const nav_box *bx = &ps->box;
    nav_idx q = 0;
    for (int k = 0; k < bx->n[2]; k++)
      for (int j = 0; j < bx->n[1]; j++)
        for (int i = 0; i < bx->n[0]; i++) ps->block[q++] = ps->hx[bx->off + i * bx->st[0] + j * bx->st[1] + k * bx->st[2]];
    NAV_CALL(nav_decomp_gather(&ps->dc, ps->block, x, -1));
  }
  memset(res, 0, sizeof *res);
  res->iterations = st.iterations;
  res->relres = st.relres;
  res->converged = st.converged;
  res->setup_s = nav_psolver_setup_seconds(ps->solver);
  res->solve_s = st.solve_s;
  NAV_CHECK(st.converged, NAV_ERR_CONVERGENCE,
            "nav_poisson_solve: %s did not converge: relative residual %.3e after %d iterations (tolerance %.1e)",
            ps->opt.solver, st.relres, st.iterations, ps->opt.tolerance);
  return NAV_OK;
}

const char *nav_poisson_describe(nav_poisson *ps) { return ps->description; }

void nav_poisson_destroy(nav_poisson *ps) {
  if (!ps) return;
  nav_poisson_release(ps);
  free(ps);
}
