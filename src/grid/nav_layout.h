/* Block layouts of a global grid over the ranks of a communicator, and the moves between two
 * layouts (the library API's application blocks <-> the solver's blocks, include/navier/poisson.h).
 *
 * A layout gives each rank r a box lo[r][d] .. lo[r][d] + cnt[r][d] - 1 of the global grid of N
 * cells (an empty box: cnt 0 in every direction). Every rank holds the whole table (one
 * MPI_Allgather of 10 ints per rank), so every check below reaches the same verdict on every rank
 * without further messages: a bad layout is an error with the same message everywhere, never a
 * hang.
 *
 * A valid application layout: the non-empty boxes lie inside the grid, cover it without gaps or
 * overlaps, and form a Cartesian product: along each direction d their ranges are p[d] intervals
 * start[d][0] = 0 < start[d][1] < ... < start[d][p[d]] = N[d], and each combination of one interval
 * per direction is the box of exactly one rank (coord[r] its position). Empty boxes are allowed
 * (a rank with no cells).
 *
 * Moves: the cells of each rank's source box go to the ranks whose destination boxes hold them
 * (box intersections, computed from the two tables without messages), one message per pair of
 * ranks that share cells (MPI_Isend/MPI_Irecv; a rank's own cells are copied). Arrays are dense
 * host blocks, x fastest, no ghosts. */
#ifndef NAV_LAYOUT_H
#define NAV_LAYOUT_H

#include <mpi.h>

#include "backend/nav_box.h"
#include "navier/nav_types.h"

typedef struct nav_layout {
  int size;                /* ranks */
  int dim, N[3];           /* the global grid (N[d] = 1 beyond dim) */
  int (*lo)[3], (*cnt)[3]; /* box of each rank */
  int product;             /* the non-empty boxes form a Cartesian product (set by nav_layout_check) */
  int empty;               /* ranks with an empty box */
  int p[3];                /* product: intervals per direction */
  int *start[3];           /* product: interval bounds per direction (p[d] + 1 values) */
  int (*coord)[3];         /* product: position of each rank's box (-1 for an empty box) */
} nav_layout;

/* Gather every rank's box (dim, N, lo, cnt: this rank's; lo/cnt beyond dim are 0/1) into L.
 * Collective over comm. Checks nothing. */
nav_err nav_layout_gather(MPI_Comm comm, int dim, const int N[3], const int lo[3], const int cnt[3], nav_layout *L);
/* Check L as an application layout (see above): the same dim and N on every rank, boxes inside
 * the grid, no overlap, no gap, a Cartesian product. On failure NAV_ERR_INPUT with a message that
 * names the ranks and cells at fault, prefixed by `at`; identical on every rank. Not collective
 * (the table is already everywhere). */
nav_err nav_layout_check(nav_layout *L, const char *at);
/* Cells of rank r's box. */
nav_idx nav_layout_cells(const nav_layout *L, int r);
void nav_layout_destroy(nav_layout *L);

typedef struct nav_move_piece {
  int peer;          /* the other rank */
  int lo[3], cnt[3]; /* the global box of the cells moved */
  nav_idx off, n;    /* offset and count in the staging buffer */
} nav_move_piece;

typedef struct nav_move {
  MPI_Comm comm;
  int rank;
  int src_lo[3], src_cnt[3], dst_lo[3], dst_cnt[3]; /* this rank's boxes */
  int nsend, nrecv;
  nav_move_piece *send, *recv;
  double *sbuf, *rbuf;
  MPI_Request *req;
} nav_move;

/* The moves from layout src to layout dst (the same grid) of this rank (comm: the layouts' ranks).
 * Not collective. */
nav_err nav_move_create(MPI_Comm comm, const nav_layout *src, const nav_layout *dst, nav_move *mv);
/* Forward (reverse = 0): the dense block `from` of src's box -> the dense block `to` of dst's box;
 * reverse = 1: from dst's box to src's. Every cell of `to` covered by the other layout is set.
 * Collective over the ranks that share cells. */
nav_err nav_move_run(nav_move *mv, const double *from, double *to, int reverse);
void nav_move_destroy(nav_move *mv);

/* The same moves through MPI-3 shared memory, when every piece stays on its node: the destination
 * ranks' ghosted host arrays (b and x, the nav_box layout of their destination boxes) live in one
 * shared window of the node (MPI_Win_allocate_shared), every rank writes its pieces of b (and x)
 * straight into them (forward) and reads its pieces of x back (reverse), with a node barrier in
 * between: no message, no intermediate buffer, the ranks copy in parallel. */
typedef struct nav_shm_move {
  MPI_Comm node; /* the ranks of this node */
  MPI_Win win;
  int npiece;
  nav_move_piece *piece; /* this rank's pieces (mv.send) */
  nav_real **dst;        /* per piece: the destination rank's window part (b, then x at + ntot) */
  nav_box *box;          /* per piece: the destination rank's ghosted layout */
  nav_real *mine;        /* this rank's window part: b at mine, x at mine + ntot (NULL without a box) */
  nav_idx ntot;
  int lo[3], cnt[3]; /* this rank's source box */
  int active;        /* the window exists */
} nav_shm_move;

/* Set up the shared-memory moves of mv (from src to dst, dim); *usable = 0 on every rank (and nothing
 * allocated) when some piece would cross nodes. Collective over comm. */
nav_err nav_shm_move_create(MPI_Comm comm, const nav_layout *dst, const nav_move *mv, int dim, nav_shm_move *sm,
                            int *usable);
/* Forward: write this rank's block b (and x unless NULL) into the destinations' arrays; returns when
 * every rank of the node has written. Collective over the node. */
nav_err nav_shm_move_in(nav_shm_move *sm, const double *b, const double *x);
/* Reverse: after the destination ranks have put x into their window part, read this rank's cells of x.
 * Collective over the node. */
nav_err nav_shm_move_out(nav_shm_move *sm, double *x);
/* The barrier of both moves without their copies: the node's writes to the window before it are seen by every
 * rank after it (the ranks that write straight into the destination arrays: nav_shm_move_block). Collective over
 * the node. */
nav_err nav_shm_move_fence(nav_shm_move *sm);
/* This rank's block inside its destination's window part, when one destination holds all of it: b and x at the
 * block's first cell, cell (i, j, k) of the block at [i st[0] + j st[1] + k st[2]]; returns 1, or 0 when the block
 * is split between destinations. An empty block: 1 with b = x = NULL. Not collective. */
int nav_shm_move_block(const nav_shm_move *sm, nav_real **b, nav_real **x, nav_idx st[3]);
void nav_shm_move_destroy(nav_shm_move *sm);

#endif
