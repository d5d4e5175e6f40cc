/* Moves between block layouts through MPI-3 shared memory (see nav_layout.h, nav_shm_move). */
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_geometry.h"
#include "grid/nav_layout.h"

nav_err nav_shm_move_create(MPI_Comm comm, const nav_layout *dst, const nav_move *mv, int dim, nav_shm_move *sm,
                            int *usable) {
  memset(sm, 0, sizeof *sm);
  sm->node = MPI_COMM_NULL;
  sm->win = MPI_WIN_NULL;
  int rank, nsize, ok = 1;
  MPI_Comm_rank(comm, &rank);
  NAV_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &sm->node) == MPI_SUCCESS, NAV_ERR_MPI,
            "MPI_Comm_split_type failed");
  MPI_Comm_size(sm->node, &nsize);
  int *members = malloc((size_t)nsize * sizeof(int)); /* comm rank of each node rank */
  NAV_CHECK(members, NAV_ERR_MEMORY, "cannot allocate the shared-memory moves");
  MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, sm->node);
  int *node_rank = malloc((size_t)(mv->nsend + 1) * sizeof(int));
  NAV_CHECK(node_rank, NAV_ERR_MEMORY, "cannot allocate the shared-memory moves");
  for (int i = 0; i < mv->nsend; i++) {
    node_rank[i] = -1;
    for (int q = 0; q < nsize; q++)
      if (members[q] == mv->send[i].peer) node_rank[i] = q;
    if (node_rank[i] < 0) ok = 0;
  }
  free(members);
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  *usable = ok;
  if (!ok) {
    free(node_rank);
    MPI_Comm_free(&sm->node);
    return NAV_OK;
  }
  /* this rank's window part: the ghosted b and x of its destination box */
  nav_box mine;
  const nav_idx cells = nav_layout_cells(dst, rank);
  nav_box_layout(dim, dst->cnt[rank], dst->lo[rank], &mine);
  sm->ntot = cells > 0 ? mine.ntot : 0;
  const MPI_Aint bytes = (MPI_Aint)(2 * sm->ntot * (nav_idx)sizeof(nav_real));
  nav_real *base = NULL;
  int rc = MPI_Win_allocate_shared(bytes, sizeof(nav_real), MPI_INFO_NULL, sm->node, &base, &sm->win);
  if (rc == MPI_SUCCESS) rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, sm->win);
  if (rc != MPI_SUCCESS) free(node_rank);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "MPI_Win_allocate_shared of %ld bytes failed", (long)bytes);
  sm->active = 1;
  sm->mine = sm->ntot ? base : NULL;
  if (sm->mine) memset(sm->mine, 0, (size_t)bytes);
  sm->npiece = mv->nsend;
  sm->piece = malloc((size_t)(mv->nsend + 1) * sizeof *sm->piece);
  sm->dst = malloc((size_t)(mv->nsend + 1) * sizeof *sm->dst);
  sm->box = malloc((size_t)(mv->nsend + 1) * sizeof *sm->box);
  if (!sm->piece || !sm->dst || !sm->box) free(node_rank);
  NAV_CHECK(sm->piece && sm->dst && sm->box, NAV_ERR_MEMORY, "cannot allocate the shared-memory moves");
  for (int i = 0; i < mv->nsend; i++) {
    const int peer = mv->send[i].peer;
    MPI_Aint size;
    int unit;
    MPI_Win_shared_query(sm->win, node_rank[i], &size, &unit, &sm->dst[i]);
    sm->piece[i] = mv->send[i];
    nav_box_layout(dim, dst->cnt[peer], dst->lo[peer], &sm->box[i]);
  }
  for (int d = 0; d < 3; d++) {
    sm->lo[d] = mv->src_lo[d];
    sm->cnt[d] = mv->src_cnt[d];
  }
  free(node_rank);
  return NAV_OK;
}

/* Piece i of this rank's dense block <-> the destination's ghosted array a. */
static void nav_shm_copy(const nav_shm_move *sm, int i, double *block, nav_real *a, int to_dst) {
  const nav_move_piece *p = &sm->piece[i];
  const nav_box *b = &sm->box[i];
#pragma omp parallel for collapse(2) if ((nav_idx)p->cnt[0] * p->cnt[1] * p->cnt[2] > 32768)
  for (int k = 0; k < p->cnt[2]; k++)
    for (int j = 0; j < p->cnt[1]; j++) {
      const nav_idx s =
          (p->lo[0] - sm->lo[0]) +
          (nav_idx)sm->cnt[0] * ((p->lo[1] - sm->lo[1] + j) + (nav_idx)sm->cnt[1] * (p->lo[2] - sm->lo[2] + k));
      const nav_idx g = b->off + (p->lo[0] - b->g0[0]) * b->st[0] + (p->lo[1] - b->g0[1] + j) * b->st[1] +
                        (p->lo[2] - b->g0[2] + k) * b->st[2];
      if (to_dst)
        for (int q = 0; q < p->cnt[0]; q++)
          a[g + q] = (nav_real)block[s + q];
      else
        for (int q = 0; q < p->cnt[0]; q++)
          block[s + q] = a[g + q];
    }
}

nav_err nav_shm_move_fence(nav_shm_move *sm) {
  int rc = MPI_Win_sync(sm->win);
  if (rc == MPI_SUCCESS) rc = MPI_Barrier(sm->node);
  if (rc == MPI_SUCCESS) rc = MPI_Win_sync(sm->win);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "the shared-memory move failed");
  return NAV_OK;
}

nav_err nav_shm_move_in(nav_shm_move *sm, const double *b, const double *x) {
  for (int i = 0; i < sm->npiece; i++) {
    nav_shm_copy(sm, i, (double *)b, sm->dst[i], 1);
    if (x) nav_shm_copy(sm, i, (double *)x, sm->dst[i] + sm->box[i].ntot, 1);
  }
  return nav_shm_move_fence(sm);
}

nav_err nav_shm_move_out(nav_shm_move *sm, double *x) {
  NAV_CALL(nav_shm_move_fence(sm));
  for (int i = 0; i < sm->npiece; i++)
    nav_shm_copy(sm, i, x, sm->dst[i] + sm->box[i].ntot, 0);
  return NAV_OK;
}

int nav_shm_move_block(const nav_shm_move *sm, nav_real **b, nav_real **x, nav_idx st[3]) {
  *b = *x = NULL;
  st[0] = 1, st[1] = st[2] = 0;
  if (sm->npiece == 0) return 1; /* an empty block */
  const nav_move_piece *p = &sm->piece[0];
  for (int d = 0; d < 3; d++)
    if (sm->npiece > 1 || p->lo[d] != sm->lo[d] || p->cnt[d] != sm->cnt[d]) return 0;
  const nav_box *bx = &sm->box[0];
  const nav_idx g = bx->off + (p->lo[0] - bx->g0[0]) * bx->st[0] + (p->lo[1] - bx->g0[1]) * bx->st[1] +
                    (p->lo[2] - bx->g0[2]) * bx->st[2];
  *b = sm->dst[0] + g;
  *x = sm->dst[0] + bx->ntot + g;
  for (int d = 0; d < 3; d++)
    st[d] = bx->st[d];
  return 1;
}

void nav_shm_move_destroy(nav_shm_move *sm) {
  if (sm->active) {
    MPI_Win_unlock_all(sm->win);
    MPI_Win_free(&sm->win);
    MPI_Comm_free(&sm->node);
  }
  free(sm->piece);
  free(sm->dst);
  free(sm->box);
  memset(sm, 0, sizeof *sm);
  sm->node = MPI_COMM_NULL;
  sm->win = MPI_WIN_NULL;
}
