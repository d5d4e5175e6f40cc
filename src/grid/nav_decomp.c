/* Domain decomposition over MPI ranks (see nav_decomp.h). */
#include "grid/nav_decomp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_comm.h"
#include "core/nav_error.h"
#include "navier/nav_types.h"

/* Split N cells into p blocks in units of U = 2^k cells: the M = N / U units are dealt out as
 * evenly as possible (the first blocks get one more), and the N - M U cells left over go to the
 * last block. Units keep the block counts of the first k multigrid levels even, so the ranks'
 * own coarsening is the one-rank coarsening (see solvers/poisson/mg.c); k is the largest (up to
 * 6) whose largest block stays within 10% of N / p, so k = 0 (the plain N / p split, extra cells
 * to the first ranks) where nothing better is balanced enough. */
static void nav_decomp_split(int N, int p, int *start) {
  for (int k = 6; k >= 0; k--) {
    const int U = 1 << k, M = N / U;
    if (M < p && k > 0) continue; /* k = 0 always splits (N >= p is checked before) */
    start[0] = 0;
    int biggest = 0;
    for (int j = 0; j < p; j++) {
      int cells = (M / p + (j < M % p)) * U;
      if (j == p - 1) cells += N - M * U;
      start[j + 1] = start[j] + cells;
      if (cells > biggest) biggest = cells;
    }
    if (k == 0 || biggest <= 1.1 * N / p) return;
  }
}

static nav_err nav_decomp_starts(nav_decomp *dc) {
  for (int d = 0; d < 3; d++) {
    dc->start[d] = malloc(((size_t)dc->p[d] + 1) * sizeof(int));
    NAV_CHECK(dc->start[d], NAV_ERR_MEMORY, "cannot allocate the decomposition");
    nav_decomp_split(dc->N[d], dc->p[d], dc->start[d]);
  }
  return NAV_OK;
}

nav_err nav_decomp_serial(int dim, const int N[3], const int periodic[3], nav_decomp *dc) {
  memset(dc, 0, sizeof *dc);
  dc->comm = MPI_COMM_NULL;
  dc->size = 1;
  dc->dim = dim;
  for (int d = 0; d < 3; d++) {
    dc->p[d] = 1;
    dc->N[d] = d < dim ? N[d] : 1;
    dc->n[d] = dc->N[d];
    dc->periodic[d] = d < dim && periodic[d];
    dc->nbr[d][0] = dc->nbr[d][1] = MPI_PROC_NULL;
  }
  return nav_decomp_starts(dc);
}

nav_err nav_decomp_create_grid(MPI_Comm comm, int dim, const int N_in[3], const int periodic[3], const int p_req[3],
                               const char *at, nav_decomp *dc) {
  memset(dc, 0, sizeof *dc);
  dc->comm = MPI_COMM_NULL;
  int size;
  MPI_Comm_size(comm, &size);
  const int N[3] = {N_in[0], N_in[1], dim == 3 ? N_in[2] : 1};
  int p[3] = {0, 0, dim == 3 ? 0 : 1};
  const int given = p_req && p_req[0] > 0;
  if (given) {
    memcpy(p, p_req, sizeof p);
    NAV_CHECK(dim == 3 || p[2] == 1, NAV_ERR_INPUT, "%s: key 'run.decomposition': pz = %d in a 2D case (must be 1)",
              at, p[2]);
    NAV_CHECK(p[0] * p[1] * p[2] == size, NAV_ERR_INPUT,
              "%s: key 'run.decomposition': %d x %d x %d = %d blocks, but the run has %d MPI rank(s)", at, p[0], p[1],
              p[2], p[0] * p[1] * p[2], size);
  } else {
    NAV_CHECK(nav_dims_auto(size, dim, N, p) == MPI_SUCCESS, NAV_ERR_INPUT,
              "%s: key 'run.decomposition': MPI_Dims_create cannot split %d ranks in %d directions", at, size, dim);
  }
  for (int d = 0; d < dim; d++)
    NAV_CHECK(p[d] == 1 || N[d] / p[d] >= NAV_DECOMP_MIN_CELLS, NAV_ERR_INPUT,
              "%s: key 'run.decomposition': %d rank(s) along %c leave blocks of %d cell(s) of the %d; every block "
              "needs at least %d cells per direction (the staggered face slots and the first multigrid coarsening); "
              "%s",
              at, p[d], "xyz"[d], N[d] / p[d], N[d], NAV_DECOMP_MIN_CELLS,
              given ? "use fewer ranks in this direction" : "set run.decomposition or run on fewer ranks");
  dc->size = size;
  dc->dim = dim;
  int periods[3];
  for (int d = 0; d < 3; d++) {
    dc->p[d] = p[d];
    dc->N[d] = N[d];
    dc->periodic[d] = periods[d] = d < dim && periodic[d];
  }
  NAV_CHECK(MPI_Cart_create(comm, 3, dc->p, periods, 0, &dc->comm) == MPI_SUCCESS, NAV_ERR_MPI,
            "MPI_Cart_create failed");
  MPI_Comm_rank(dc->comm, &dc->rank);
  MPI_Cart_coords(dc->comm, dc->rank, 3, dc->coord);
  NAV_CALL(nav_decomp_starts(dc));
  for (int d = 0; d < 3; d++) {
    dc->n[d] = nav_decomp_count(dc, d, dc->coord[d]);
    dc->g0[d] = dc->start[d][dc->coord[d]];
    MPI_Cart_shift(dc->comm, d, 1, &dc->nbr[d][0], &dc->nbr[d][1]);
  }
  return NAV_OK;
}

nav_err nav_decomp_create(const nav_config *cfg, nav_decomp *dc) {
  const int N[3] = {cfg->nx, cfg->ny, cfg->nz};
  int periodic[3];
  for (int d = 0; d < 3; d++) periodic[d] = cfg->bc[d][0] == NAV_BC_PERIODIC;
  char at[NAV_CONFIG_STR + 32];
  nav_config_where(cfg, "run", "decomposition", at, sizeof at);
  return nav_decomp_create_grid(nav_compute_comm(), cfg->dim, N, periodic, cfg->decomposition, at, dc);
}

nav_err nav_decomp_copy(const nav_decomp *src, nav_decomp *dst) {
  *dst = *src;
  for (int d = 0; d < 3; d++) {
    dst->start[d] = malloc(((size_t)src->p[d] + 1) * sizeof(int));
    NAV_CHECK(dst->start[d], NAV_ERR_MEMORY, "cannot allocate the decomposition");
    memcpy(dst->start[d], src->start[d], ((size_t)src->p[d] + 1) * sizeof(int));
  }
  return NAV_OK;
}

void nav_decomp_block(const nav_decomp *dc, int r, int n[3], int g0[3]) {
  int c[3] = {0, 0, 0};
  if (dc->comm != MPI_COMM_NULL) MPI_Cart_coords(dc->comm, r, 3, c);
  for (int d = 0; d < 3; d++) {
    n[d] = nav_decomp_count(dc, d, c[d]);
    g0[d] = dc->start[d][c[d]];
  }
}

/* Copy between the dense block (n, x fastest) and its place g0 in the dense global array. */
static void nav_decomp_place(const nav_decomp *dc, const int n[3], const int g0[3], double *block, double *global,
                             int to_global) {
  nav_idx q = 0;
  for (int k = 0; k < n[2]; k++)
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++, q++) {
        const nav_idx g = (nav_idx)(g0[0] + i) + (nav_idx)dc->N[0] * ((g0[1] + j) + (nav_idx)dc->N[1] * (g0[2] + k));
        if (to_global)
          global[g] = block[q];
        else
          block[q] = global[g];
      }
}

nav_err nav_decomp_gather(const nav_decomp *dc, const double *block, double *global, int root) {
  const nav_idx total = (nav_idx)dc->N[0] * dc->N[1] * dc->N[2];
  const int count = dc->n[0] * dc->n[1] * dc->n[2];
  if (dc->comm == MPI_COMM_NULL || dc->size == 1) {
    nav_decomp_place(dc, dc->n, dc->g0, (double *)block, global, 1);
    return NAV_OK;
  }
  int *counts = malloc(2 * (size_t)dc->size * sizeof(int));
  double *buf = (root < 0 || dc->rank == root) ? malloc((size_t)total * sizeof(double)) : NULL;
  NAV_CHECK(counts && (buf || (root >= 0 && dc->rank != root)), NAV_ERR_MEMORY, "cannot allocate the gather buffers");
  int *displs = counts + dc->size, n[3], g0[3];
  for (int r = 0, off = 0; r < dc->size; r++) {
    nav_decomp_block(dc, r, n, g0);
    counts[r] = n[0] * n[1] * n[2];
    displs[r] = off;
    off += counts[r];
  }
  int rc;
  if (root < 0)
    rc = MPI_Allgatherv(block, count, MPI_DOUBLE, buf, counts, displs, MPI_DOUBLE, dc->comm);
  else
    rc = MPI_Gatherv(block, count, MPI_DOUBLE, buf, counts, displs, MPI_DOUBLE, root, dc->comm);
  if (buf)
    for (int r = 0; r < dc->size; r++) {
      nav_decomp_block(dc, r, n, g0);
      nav_decomp_place(dc, n, g0, buf + displs[r], global, 1);
    }
  free(counts);
  free(buf);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "gather of a field failed");
  return NAV_OK;
}

nav_err nav_decomp_scatter(const nav_decomp *dc, const double *global, double *block, int root) {
  const nav_idx total = (nav_idx)dc->N[0] * dc->N[1] * dc->N[2];
  const int count = dc->n[0] * dc->n[1] * dc->n[2];
  if (dc->comm == MPI_COMM_NULL || dc->size == 1) {
    nav_decomp_place(dc, dc->n, dc->g0, block, (double *)global, 0);
    return NAV_OK;
  }
  int *counts = malloc(2 * (size_t)dc->size * sizeof(int));
  double *buf = dc->rank == root ? malloc((size_t)total * sizeof(double)) : NULL;
  NAV_CHECK(counts && (buf || dc->rank != root), NAV_ERR_MEMORY, "cannot allocate the scatter buffers");
  int *displs = counts + dc->size, n[3], g0[3];
  for (int r = 0, off = 0; r < dc->size; r++) {
    nav_decomp_block(dc, r, n, g0);
    counts[r] = n[0] * n[1] * n[2];
    displs[r] = off;
    off += counts[r];
    if (buf) nav_decomp_place(dc, n, g0, buf + displs[r], (double *)global, 0);
  }
  const int rc = MPI_Scatterv(buf, counts, displs, MPI_DOUBLE, block, count, MPI_DOUBLE, root, dc->comm);
  free(counts);
  free(buf);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "scatter of a field failed");
  return NAV_OK;
}

void nav_decomp_destroy(nav_decomp *dc) {
  nav_transport_destroy(dc->transport);
  if (dc->comm != MPI_COMM_NULL) MPI_Comm_free(&dc->comm);
  for (int d = 0; d < 3; d++) free(dc->start[d]);
  memset(dc, 0, sizeof *dc);
  dc->comm = MPI_COMM_NULL;
}

int nav_decomp_local_rank(MPI_Comm comm, int *local_size) {
  MPI_Comm node;
  int rank = 0, size = 1;
  if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
  }
  if (local_size) *local_size = size;
  return rank;
}

void nav_decomp_release(nav_decomp *dc) {
  for (int d = 0; d < 3; d++) free(dc->start[d]);
  memset(dc, 0, sizeof *dc);
  dc->comm = MPI_COMM_NULL;
}

nav_err nav_decomp_create_blocks(MPI_Comm comm, int dim, const int N[3], const int periodic[3], const int p[3],
                                 int *const start[3], const int coord[3], nav_decomp *dc) {
  memset(dc, 0, sizeof *dc);
  dc->comm = MPI_COMM_NULL;
  MPI_Comm_size(comm, &dc->size);
  NAV_CHECK(p[0] * p[1] * p[2] == dc->size, NAV_ERR_INTERNAL, "nav_decomp_create_blocks: %d x %d x %d blocks for %d ranks",
            p[0], p[1], p[2], dc->size);
  dc->dim = dim;
  int periods[3];
  for (int d = 0; d < 3; d++) {
    dc->p[d] = p[d];
    dc->N[d] = d < dim ? N[d] : 1;
    dc->periodic[d] = periods[d] = d < dim && periodic[d];
  }
  /* MPI_Cart_create without reordering numbers the ranks row-major in their coordinates (the last
   * direction fastest): order comm's ranks so, whatever their numbering in comm */
  MPI_Comm ordered;
  const int key = (coord[0] * p[1] + coord[1]) * p[2] + coord[2];
  NAV_CHECK(MPI_Comm_split(comm, 0, key, &ordered) == MPI_SUCCESS, NAV_ERR_MPI, "MPI_Comm_split failed");
  const int rc = MPI_Cart_create(ordered, 3, dc->p, periods, 0, &dc->comm);
  MPI_Comm_free(&ordered);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "MPI_Cart_create failed");
  MPI_Comm_rank(dc->comm, &dc->rank);
  MPI_Cart_coords(dc->comm, dc->rank, 3, dc->coord);
  for (int d = 0; d < 3; d++) {
    dc->start[d] = malloc(((size_t)p[d] + 1) * sizeof(int));
    NAV_CHECK(dc->start[d], NAV_ERR_MEMORY, "cannot allocate the decomposition");
    memcpy(dc->start[d], start[d], ((size_t)p[d] + 1) * sizeof(int));
    NAV_CHECK(dc->coord[d] == coord[d], NAV_ERR_INTERNAL, "nav_decomp_create_blocks: coordinate %d is %d, not %d", d,
              dc->coord[d], coord[d]);
    dc->n[d] = nav_decomp_count(dc, d, dc->coord[d]);
    dc->g0[d] = dc->start[d][dc->coord[d]];
    MPI_Cart_shift(dc->comm, d, 1, &dc->nbr[d][0], &dc->nbr[d][1]);
  }
  return NAV_OK;
}
