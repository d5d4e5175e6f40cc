/* Domain decomposition: the global grid split into one block per MPI rank by a Cartesian
 * communicator (MPI_Cart_create), in 1, 2 or 3 directions.
 *
 * Ranks per direction p[d]: given ([run] decomposition = px,py,pz) or chosen by MPI_Dims_create
 * over the grid's directions only (pz = 1 in 2D). Direction d of N cells is split unevenly when
 * needed, in units of 2^k cells so that multigrid can coarsen the blocks like the whole grid
 * (nav_decomp.c says how; k = 0 is the plain split, N / p + (j < N % p) cells in block j); block j
 * starts at start[d][j]. Every block needs at least NAV_DECOMP_MIN_CELLS cells per direction: one cell
 * would leave the staggered face slot n and the first multigrid coarsening without an owner
 * cell of their own, and fewer cells than ranks cannot be split at all.
 * Periodic directions wrap through the Cartesian neighbours (periods from the boundary types);
 * with one rank in a periodic direction the block wraps onto itself locally. Neighbours at a
 * physical boundary are MPI_PROC_NULL. Ranks are not reordered: rank 0 of the Cartesian
 * communicator is rank 0 of MPI_COMM_WORLD (it writes the output). */
#ifndef NAV_DECOMP_H
#define NAV_DECOMP_H

#include <mpi.h>

#include "core/nav_config.h"
#include "grid/nav_transport.h"

#define NAV_DECOMP_MIN_CELLS 2

typedef struct nav_decomp {
  MPI_Comm comm;      /* Cartesian communicator (MPI_COMM_NULL for a serial stand-in) */
  int size, rank;
  int dim;
  int p[3];           /* ranks per direction (1 beyond dim) */
  int coord[3];       /* this rank's position in the rank grid */
  int periodic[3];
  int N[3];           /* global cells (1 beyond dim) */
  int n[3], g0[3];    /* this rank's block: cells and global index of its cell 0 */
  int nbr[3][2];      /* neighbour rank per face (dir, side), MPI_PROC_NULL at physical faces */
  int *start[3];      /* start[d][j], j = 0..p[d]: first global cell of block j along d (start[d][p] = N) */
  nav_transport *transport; /* the halo transport over comm (NULL: host-staged mpi); copies share it,
                               nav_decomp_destroy frees it */
} nav_decomp;

/* Build the decomposition of cfg's grid over the computing ranks (nav_compute_comm). Collective. Every rank reaches the
 * same verdict: on a bad decomposition (product != ranks, a block thinner than
 * NAV_DECOMP_MIN_CELLS, a split that cannot be made) it returns NAV_ERR_INPUT with the message
 * "FILE:LINE: key 'run.decomposition': reason" on every rank, without communicating first. */
nav_err nav_decomp_create(const nav_config *cfg, nav_decomp *dc);
/* The same for a grid of N cells over comm; p_req = {px,py,pz} or NULL/{0,..} (automatic); at
 * names where p_req came from in messages. Collective over comm. */
nav_err nav_decomp_create_grid(MPI_Comm comm, int dim, const int N[3], const int periodic[3], const int p_req[3],
                               const char *at, nav_decomp *dc);
/* The decomposition of a grid of N cells over comm into the given blocks: p[d] blocks along d with
 * bounds start[d][0..p[d]], this rank's block at position coord (each position taken by one rank;
 * ranks may be numbered in any order in comm: the Cartesian communicator renumbers them). For an
 * application's own Cartesian layout (nav_layout.h). Collective over comm. */
nav_err nav_decomp_create_blocks(MPI_Comm comm, int dim, const int N[3], const int periodic[3], const int p[3],
                                 int *const start[3], const int coord[3], nav_decomp *dc);
/* Deep copy (own start arrays); the communicator is shared, not duplicated: destroy the copy
 * with nav_decomp_release. */
nav_err nav_decomp_copy(const nav_decomp *src, nav_decomp *dst);
/* Block (cells n, start g0) of rank r. Not collective. */
void nav_decomp_block(const nav_decomp *dc, int r, int n[3], int g0[3]);
/* Dense arrays (x fastest): gather every rank's block (its n cells) into the global array of
 * N cells on rank root (root < 0: on every rank); scatter the global array of root into the
 * blocks. Collective over dc->comm (a plain copy for a serial stand-in). */
nav_err nav_decomp_gather(const nav_decomp *dc, const double *block, double *global, int root);
nav_err nav_decomp_scatter(const nav_decomp *dc, const double *global, double *block, int root);
/* A one-block stand-in for a serial grid of N cells (no communicator: reductions and halo
 * exchanges are no-ops). Not collective. */
nav_err nav_decomp_serial(int dim, const int N[3], const int periodic[3], nav_decomp *dc);
void nav_decomp_destroy(nav_decomp *dc);
/* Free a copy's start arrays, leaving the shared communicator alone. */
void nav_decomp_release(nav_decomp *dc);
/* Cells and start of block j along d. */
static inline int nav_decomp_count(const nav_decomp *dc, int d, int j) { return dc->start[d][j + 1] - dc->start[d][j]; }

/* Rank among the ranks of comm on this node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED) and
 * their count (local_size may be NULL). Passed to nav_backend_get, which gives each rank the
 * device local rank mod device count (one rank per GPU). Collective over comm. */
int nav_decomp_local_rank(MPI_Comm comm, int *local_size);

#endif
