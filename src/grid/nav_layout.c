/* Block layouts and the moves between them (see nav_layout.h). */
#include "grid/nav_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"

nav_err nav_layout_gather(MPI_Comm comm, int dim, const int N[3], const int lo[3], const int cnt[3], nav_layout *L) {
  memset(L, 0, sizeof *L);
  MPI_Comm_size(comm, &L->size);
  int mine[10] = {dim, 1, 1, 1, 0, 0, 0, 1, 1, 1};
  for (int d = 0; d < 3 && d < dim; d++) {
    mine[1 + d] = N[d];
    mine[4 + d] = lo[d];
    mine[7 + d] = cnt[d];
  }
  int *all = malloc((size_t)L->size * 10 * sizeof(int));
  L->lo = malloc((size_t)L->size * sizeof *L->lo);
  L->cnt = malloc((size_t)L->size * sizeof *L->cnt);
  L->coord = malloc((size_t)L->size * sizeof *L->coord);
  if (!all || !L->lo || !L->cnt || !L->coord) {
    free(all);
    nav_layout_destroy(L);
    NAV_CHECK(0, NAV_ERR_MEMORY, "cannot allocate the block layout");
  }
  const int rc = MPI_Allgather(mine, 10, MPI_INT, all, 10, MPI_INT, comm);
  if (rc != MPI_SUCCESS) {
    free(all);
    nav_layout_destroy(L);
    NAV_CHECK(0, NAV_ERR_MPI, "MPI_Allgather of the block layout failed");
  }
  L->dim = all[0];
  for (int d = 0; d < 3; d++)
    L->N[d] = all[1 + d];
  for (int r = 0; r < L->size; r++) {
    /* a record that disagrees with rank 0 on the grid is caught by nav_layout_check: mark it by a
     * negative count so that it never passes */
    int same = all[10 * r] == L->dim;
    for (int d = 0; d < 3; d++)
      same = same && all[10 * r + 1 + d] == L->N[d];
    for (int d = 0; d < 3; d++) {
      L->lo[r][d] = all[10 * r + 4 + d];
      L->cnt[r][d] = same ? all[10 * r + 7 + d] : -1;
    }
  }
  free(all);
  return NAV_OK;
}

nav_idx nav_layout_cells(const nav_layout *L, int r) {
  nav_idx c = 1;
  for (int d = 0; d < 3; d++)
    c *= L->cnt[r][d] > 0 ? L->cnt[r][d] : 0;
  return c;
}

static int nav_layout_is_empty(const nav_layout *L, int r) { return nav_layout_cells(L, r) == 0; }

static int nav_int_cmp(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The intervals of direction d (sorted unique starts of the non-empty boxes), checked to tile
 * 0..N[d] - 1 with boxes of equal starts having equal counts. */
static nav_err nav_layout_intervals(nav_layout *L, int d, const char *at) {
  int *s = malloc((size_t)L->size * sizeof(int)), m = 0;
  NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate the block layout");
  for (int r = 0; r < L->size; r++)
    if (!nav_layout_is_empty(L, r)) s[m++] = L->lo[r][d];
  qsort(s, (size_t)m, sizeof(int), nav_int_cmp);
  int u = 0;
  for (int i = 0; i < m; i++)
    if (u == 0 || s[i] != s[u - 1]) s[u++] = s[i];
  L->p[d] = u;
  L->start[d] = malloc(((size_t)u + 1) * sizeof(int));
  if (!L->start[d]) free(s);
  NAV_CHECK(L->start[d], NAV_ERR_MEMORY, "cannot allocate the block layout");
  memcpy(L->start[d], s, (size_t)u * sizeof(int));
  free(s);
  L->start[d][u] = L->N[d];
  /* the count of each interval: the first box with that start; every other must agree */
  for (int r = 0; r < L->size; r++) {
    if (nav_layout_is_empty(L, r)) continue;
    const int *pos = bsearch(&L->lo[r][d], L->start[d], (size_t)u, sizeof(int), nav_int_cmp);
    const int j = (int)(pos - L->start[d]);
    const int end = L->lo[r][d] + L->cnt[r][d];
    /* end short of the next start: a gap unless a longer box covers those cells (then the ranges
     * are not a product either); end beyond it: ranges that cross */
    NAV_CHECK(end == L->start[d][j + 1], NAV_ERR_INPUT,
              "%s: %s: rank %d's block spans cells %d..%d along %c, but the next block along %c (or the end of the "
              "grid) starts at cell %d",
              at,
              end < L->start[d][j + 1] ? "gap (or blocks that are not a Cartesian product)"
                                       : "not a Cartesian product (ranges that cross)",
              r, L->lo[r][d], end - 1, "xyz"[d], "xyz"[d], L -> start[d][j + 1]);
    L->coord[r][d] = j;
  }
  NAV_CHECK(L->start[d][0] == 0, NAV_ERR_INPUT, "%s: gap: no block covers cells 0..%d along %c", at, L->start[d][0] - 1,
            "xyz"[d]);
  return NAV_OK;
}

nav_err nav_layout_check(nav_layout *L, const char *at) {
  const int dim = L->dim;
  NAV_CHECK(dim == 2 || dim == 3, NAV_ERR_INPUT, "%s: dim %d must be 2 or 3", at, dim);
  for (int d = 0; d < dim; d++)
    NAV_CHECK(L->N[d] >= 1, NAV_ERR_INPUT, "%s: the grid has N[%d] = %d cells (must be >= 1)", at, d, L->N[d]);
  for (int r = 0; r < L->size; r++) {
    for (int d = 0; d < 3; d++)
      NAV_CHECK(L->cnt[r][d] >= 0, NAV_ERR_INPUT, "%s: rank %d %s", at, r,
                L->cnt[r][d] == -1 ? "passed a different dim or global size than rank 0" : "has a negative count");
    if (nav_layout_is_empty(L, r)) {
      L->empty++;
      for (int d = 0; d < 3; d++)
        L->coord[r][d] = -1;
      continue;
    }
    for (int d = 0; d < 3; d++)
      NAV_CHECK(L->lo[r][d] >= 0 && L->lo[r][d] + L->cnt[r][d] <= L->N[d], NAV_ERR_INPUT,
                "%s: rank %d's block (cells %d..%d along %c) lies outside the grid of %d cells", at, r, L->lo[r][d],
                L->lo[r][d] + L->cnt[r][d] - 1, "xyz"[d], L -> N[d]);
  }
  /* overlaps: any two non-empty boxes that share a cell */
  for (int a = 0; a < L->size; a++) {
    if (nav_layout_is_empty(L, a)) continue;
    for (int b = a + 1; b < L->size; b++) {
      if (nav_layout_is_empty(L, b)) continue;
      int lo[3], hi[3], meet = 1;
      for (int d = 0; d < 3; d++) {
        lo[d] = L->lo[a][d] > L->lo[b][d] ? L->lo[a][d] : L->lo[b][d];
        const int ea = L->lo[a][d] + L->cnt[a][d], eb = L->lo[b][d] + L->cnt[b][d];
        hi[d] = ea < eb ? ea : eb;
        meet = meet && lo[d] < hi[d];
      }
      NAV_CHECK(!meet, NAV_ERR_INPUT, "%s: overlap: the blocks of ranks %d and %d share cells (%d..%d, %d..%d, %d..%d)",
                at, a, b, lo[0], hi[0] - 1, lo[1], hi[1] - 1, lo[2], hi[2] - 1);
    }
  }
  NAV_CHECK(L->empty < L->size, NAV_ERR_INPUT, "%s: gap: every block is empty", at);
  for (int d = 0; d < 3; d++)
    NAV_CALL(nav_layout_intervals(L, d, at));
  /* every combination of intervals is one box: no overlap (checked) and as many boxes as combinations */
  const nav_idx combos = (nav_idx)L->p[0] * L->p[1] * L->p[2];
  if (combos != L->size - L->empty) {
    char *seen = calloc((size_t)combos, 1);
    NAV_CHECK(seen, NAV_ERR_MEMORY, "cannot allocate the block layout");
    for (int r = 0; r < L->size; r++)
      if (L->coord[r][0] >= 0)
        seen[L->coord[r][0] + (nav_idx)L->p[0] * (L->coord[r][1] + (nav_idx)L->p[1] * L->coord[r][2])] = 1;
    nav_idx c = 0;
    while (c < combos && seen[c])
      c++;
    free(seen);
    const int i = (int)(c % L->p[0]), j = (int)(c / L->p[0] % L->p[1]), k = (int)(c / L->p[0] / L->p[1]);
    NAV_CHECK(0, NAV_ERR_INPUT,
              "%s: gap: no block covers cells %d..%d, %d..%d, %d..%d (%d block(s) of %ld needed for a Cartesian "
              "product of the ranks' ranges)",
              at, L->start[0][i], L->start[0][i + 1] - 1, L->start[1][j], L->start[1][j + 1] - 1, L->start[2][k],
              L->start[2][k + 1] - 1, L->size - L->empty, (long)combos);
  }
  L->product = 1;
  return NAV_OK;
}

void nav_layout_destroy(nav_layout *L) {
  free(L->lo);
  free(L->cnt);
  free(L->coord);
  for (int d = 0; d < 3; d++)
    free(L->start[d]);
  memset(L, 0, sizeof *L);
}

/* The intersection of rank a's box of A and rank b's box of B; returns its cell count. */
static nav_idx nav_box_meet(const nav_layout *A, int a, const nav_layout *B, int b, int lo[3], int cnt[3]) {
  nav_idx c = 1;
  for (int d = 0; d < 3; d++) {
    const int l = A->lo[a][d] > B->lo[b][d] ? A->lo[a][d] : B->lo[b][d];
    const int ea = A->lo[a][d] + A->cnt[a][d], eb = B->lo[b][d] + B->cnt[b][d];
    const int e = ea < eb ? ea : eb;
    lo[d] = l;
    cnt[d] = e > l ? e - l : 0;
    c *= cnt[d];
  }
  return c;
}

/* The pieces of this rank's box of `mine` held by the other ranks' boxes of `other`. */
static nav_err nav_move_pieces(const nav_layout *mine, const nav_layout *other, int rank, nav_move_piece **out, int *np,
                               nav_idx *total) {
  *np = 0;
  *total = 0;
  *out = malloc((size_t)mine->size * sizeof **out);
  NAV_CHECK(*out, NAV_ERR_MEMORY, "cannot allocate the block moves");
  if (nav_layout_cells(mine, rank) == 0) return NAV_OK;
  for (int q = 0; q < other->size; q++) {
    nav_move_piece *p = &(*out)[*np];
    if (nav_layout_cells(other, q) == 0 || nav_box_meet(mine, rank, other, q, p->lo, p->cnt) == 0) continue;
    p->peer = q;
    p->n = (nav_idx)p->cnt[0] * p->cnt[1] * p->cnt[2];
    p->off = *total;
    *total += p->n;
    (*np)++;
  }
  return NAV_OK;
}

nav_err nav_move_create(MPI_Comm comm, const nav_layout *src, const nav_layout *dst, nav_move *mv) {
  memset(mv, 0, sizeof *mv);
  mv->comm = comm;
  MPI_Comm_rank(comm, &mv->rank);
  for (int d = 0; d < 3; d++) {
    mv->src_lo[d] = src->lo[mv->rank][d];
    mv->src_cnt[d] = src->cnt[mv->rank][d];
    mv->dst_lo[d] = dst->lo[mv->rank][d];
    mv->dst_cnt[d] = dst->cnt[mv->rank][d];
  }
  nav_idx ns, nr;
  NAV_CALL(nav_move_pieces(src, dst, mv->rank, &mv->send, &mv->nsend, &ns));
  NAV_CALL(nav_move_pieces(dst, src, mv->rank, &mv->recv, &mv->nrecv, &nr));
  mv->sbuf = malloc((size_t)(ns > 0 ? ns : 1) * sizeof(double));
  mv->rbuf = malloc((size_t)(nr > 0 ? nr : 1) * sizeof(double));
  mv->req = malloc(((size_t)mv->nsend + mv->nrecv + 1) * sizeof(MPI_Request));
  NAV_CHECK(mv->sbuf && mv->rbuf && mv->req, NAV_ERR_MEMORY, "cannot allocate the block moves");
  return NAV_OK;
}

/* Copy the piece (global box lo, cnt) between a dense block (box blo, bcnt) and a dense buffer. */
static void nav_move_copy(const int lo[3], const int cnt[3], const int blo[3], const int bcnt[3], double *block,
                          double *buf, int to_buf) {
#pragma omp parallel for collapse(2) if ((nav_idx)cnt[0] * cnt[1] * cnt[2] > 32768)
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++) {
      const nav_idx q = (nav_idx)cnt[0] * (j + (nav_idx)cnt[1] * k);
      const nav_idx p =
          (lo[0] - blo[0]) + (nav_idx)bcnt[0] * ((lo[1] - blo[1] + j) + (nav_idx)bcnt[1] * (lo[2] - blo[2] + k));
      if (to_buf)
        memcpy(buf + q, block + p, (size_t)cnt[0] * sizeof(double));
      else
        memcpy(block + p, buf + q, (size_t)cnt[0] * sizeof(double));
    }
}

nav_err nav_move_run(nav_move *mv, const double *from, double *to, int reverse) {
  /* forward: send the pieces of the source box, receive those of the destination box */
  const nav_move_piece *out = reverse ? mv->recv : mv->send, *in = reverse ? mv->send : mv->recv;
  const int nout = reverse ? mv->nrecv : mv->nsend, nin = reverse ? mv->nsend : mv->nrecv;
  const int *flo = reverse ? mv->dst_lo : mv->src_lo, *fcnt = reverse ? mv->dst_cnt : mv->src_cnt;
  const int *tlo = reverse ? mv->src_lo : mv->dst_lo, *tcnt = reverse ? mv->src_cnt : mv->dst_cnt;
  double *obuf = reverse ? mv->rbuf : mv->sbuf, *ibuf = reverse ? mv->sbuf : mv->rbuf;
  const int tag = 7100 + reverse;
  int nreq = 0, rc = MPI_SUCCESS;
  for (int i = 0; i < nin; i++)
    if (in[i].peer != mv->rank && rc == MPI_SUCCESS)
      rc = MPI_Irecv(ibuf + in[i].off, (int)in[i].n, MPI_DOUBLE, in[i].peer, tag, mv->comm, &mv->req[nreq++]);
  for (int i = 0; i < nout; i++) {
    nav_move_copy(out[i].lo, out[i].cnt, flo, fcnt, (double *)from, obuf + out[i].off, 1);
    if (out[i].peer != mv->rank && rc == MPI_SUCCESS)
      rc = MPI_Isend(obuf + out[i].off, (int)out[i].n, MPI_DOUBLE, out[i].peer, tag, mv->comm, &mv->req[nreq++]);
  }
  for (int i = 0; i < nin; i++) /* this rank's own cells: from the outgoing buffer */
    if (in[i].peer == mv->rank)
      for (int o = 0; o < nout; o++)
        if (out[o].peer == mv->rank) nav_move_copy(in[i].lo, in[i].cnt, tlo, tcnt, to, obuf + out[o].off, 0);
  if (rc == MPI_SUCCESS) rc = MPI_Waitall(nreq, mv->req, MPI_STATUSES_IGNORE);
  NAV_CHECK(rc == MPI_SUCCESS, NAV_ERR_MPI, "the block move between layouts failed");
  for (int i = 0; i < nin; i++)
    if (in[i].peer != mv->rank) nav_move_copy(in[i].lo, in[i].cnt, tlo, tcnt, to, ibuf + in[i].off, 0);
  return NAV_OK;
}

void nav_move_destroy(nav_move *mv) {
  free(mv->send);
  free(mv->recv);
  free(mv->sbuf);
  free(mv->rbuf);
  free(mv->req);
  memset(mv, 0, sizeof *mv);
}
