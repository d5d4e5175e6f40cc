/* Halo exchange over MPI (see nav_halo.h). */
#include "grid/nav_halo.h"

#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_boundary.h"
#include "core/nav_error.h"
#include "core/nav_profile.h"

#ifdef NAV_SINGLE_PRECISION
#define NAV_MPI_REAL MPI_FLOAT
#else
#define NAV_MPI_REAL MPI_DOUBLE
#endif

nav_err nav_halo_create(const nav_kernel_ops *ops, const nav_decomp *dc, const nav_box *b, nav_halo **out) {
  *out = NULL;
  if (dc->comm == MPI_COMM_NULL || dc->size == 1) return NAV_OK;
  nav_halo *h = calloc(1, sizeof *h);
  NAV_CHECK(h, NAV_ERR_MEMORY, "cannot allocate the halo");
  h->ops = ops;
  h->comm = dc->comm;
  h->dim = b->dim;
  h->transport = dc->transport;
  h->staged = strcmp(ops->name, "cpu") != 0 && !dc->transport;
  int any = 0;
  for (int d = 0; d < b->dim; d++) {
    h->pts[d] = nav_face_points(b, d);
    for (int s = 0; s < 2; s++) {
      h->nbr[d][s] = dc->nbr[d][s];
      /* one rank in a periodic direction: the local wrap of nav_boundary.c */
      h->mpi[d][s] = dc->nbr[d][s] != MPI_PROC_NULL && dc->p[d] > 1;
      if (!h->mpi[d][s]) continue;
      any = 1;
      const size_t bytes = (size_t)h->pts[d] * NAV_HALO_MAX_FIELDS * sizeof(nav_real);
      for (int k = 0; k < 2; k++) {
        nav_err e = ops->alloc((void **)&h->dbuf[d][s][k], bytes);
        if (e != NAV_OK) {
          nav_halo_destroy(h);
          NAV_CALL(e);
        }
        h->hbuf[d][s][k] = h->staged ? malloc(bytes) : h->dbuf[d][s][k];
        if (!h->hbuf[d][s][k]) {
          nav_halo_destroy(h);
          NAV_CHECK(0, NAV_ERR_MEMORY, "cannot allocate the halo buffers");
        }
      }
    }
  }
  if (!any) {
    nav_halo_destroy(h);
    return NAV_OK;
  }
  *out = h;
  return NAV_OK;
}

void nav_halo_destroy(nav_halo *h) {
  if (!h) return;
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      for (int k = 0; k < 2; k++) {
        if (h->dbuf[d][s][k]) h->ops->free(h->dbuf[d][s][k]);
        if (h->staged) free(h->hbuf[d][s][k]);
      }
  free(h);
}

/* The faces (dir, s) whose plane goes to the neighbour (send[s]) and whose ghost plane comes from it (recv[s]),
 * for the ghost sides `sides` (NAV_HALO_LOW | NAV_HALO_HIGH): the plane sent to the low neighbour fills its high
 * ghost, and the other way round. */
static void nav_halo_faces(const nav_halo *h, int dir, int sides, int send[2], int recv[2]) {
  for (int s = 0; s < 2; s++) {
    send[s] = h->mpi[dir][s] && (sides & (s ? NAV_HALO_LOW : NAV_HALO_HIGH));
    recv[s] = h->mpi[dir][s] && (sides & (s ? NAV_HALO_HIGH : NAV_HALO_LOW));
  }
}

/* Pack the planes of direction dir that go to the neighbours (0 to the low one, n-1 to the high one). */
static nav_err nav_halo_pack(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf, const int send[2]) {
  const int layer[2] = {0, b->n[dir] - 1};
  nav_real *const buf[2] = {send[0] ? h->dbuf[dir][0][0] : NULL, send[1] ? h->dbuf[dir][1][0] : NULL};
  return h->ops->copy_faces(b, x, nf, dir, layer, buf, 1);
}

/* Unpack the planes received from the neighbours into the ghost layers (-1 low, n high). */
static nav_err nav_halo_unpack(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf, const int recv[2]) {
  const int layer[2] = {-1, b->n[dir]};
  nav_real *const buf[2] = {recv[0] ? h->dbuf[dir][0][1] : NULL, recv[1] ? h->dbuf[dir][1][1] : NULL};
  return h->ops->copy_faces(b, x, nf, dir, layer, buf, 0);
}

/* MPI transports: host-staged (staged) or on the device buffers (cuda-aware). */
static nav_err nav_halo_exchange_mpi(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf, int sides) {
  const nav_kernel_ops *ops = h->ops;
  const int count = (int)(h->pts[dir] * nf);
  const size_t bytes = (size_t)count * sizeof(nav_real);
  nav_real *const(*buf)[2] = h->staged ? h->hbuf[dir] : h->dbuf[dir];
  int send[2], recv[2];
  nav_halo_faces(h, dir, sides, send, recv);
  MPI_Request req[4];
  int nreq = 0;
  /* tag: the side of the SENDER's face, so a periodic pair of two ranks keeps both messages apart */
  for (int s = 0; s < 2; s++)
    if (recv[s])
      NAV_CHECK(MPI_Irecv(buf[s][1], count, NAV_MPI_REAL, h->nbr[dir][s], 10 * dir + (1 - s), h->comm, &req[nreq++]) ==
                    MPI_SUCCESS,
                NAV_ERR_MPI, "halo exchange: MPI_Irecv failed");
  NAV_CALL(nav_halo_pack(h, b, dir, x, nf, send));
  if (!h->staged) NAV_CALL(ops->sync()); /* MPI reads the device buffers: the packs must be done */
  for (int s = 0; s < 2; s++) {
    if (!send[s]) continue;
    if (h->staged) NAV_CALL(ops->to_host(h->hbuf[dir][s][0], h->dbuf[dir][s][0], bytes));
    NAV_CHECK(MPI_Isend(buf[s][0], count, NAV_MPI_REAL, h->nbr[dir][s], 10 * dir + s, h->comm, &req[nreq++]) ==
                  MPI_SUCCESS,
              NAV_ERR_MPI, "halo exchange: MPI_Isend failed");
  }
  NAV_CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS, NAV_ERR_MPI,
            "halo exchange: MPI_Waitall failed");
  for (int s = 0; s < 2; s++)
    if (recv[s] && h->staged) NAV_CALL(ops->from_host(h->dbuf[dir][s][1], h->hbuf[dir][s][1], bytes));
  return nav_halo_unpack(h, b, dir, x, nf, recv);
}

/* nccl, cuda-ipc: one exchange, queued on the backend's stream between the packs and the unpacks. Messages
 * between two ranks match in posting order, so the receives are posted high side first and the
 * sends low side first: with two ranks in a periodic direction (each the other's low AND high
 * neighbour) the first plane sent (the low face) lands in the peer's high ghost, as it must.
 * In the slowest direction (z in 3D, y in 2D) a plane with its ghost rows is contiguous in every field,
 * and the neighbour's block has the same plane size: the messages go from the fields' planes straight
 * into the neighbours' ghost planes, one per field and side, without the pack and unpack kernels. */
static nav_err nav_halo_exchange_direct(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf,
                                        int sides) {
  nav_p2p_msg msg[4 * NAV_HALO_MAX_FIELDS];
  int n = 0, send[2], recv[2];
  nav_halo_faces(h, dir, sides, send, recv);
  if (dir == b->dim - 1 && !b->lo) {
    int t0, t1; /* a plane starts at its point (-1, lo1), the first of copy_faces' buffer */
    nav_face_plane(b, dir, &t0, &t1);
    const int lo1 = b->dim == 3 ? -1 : 0, ghost[2] = {-1, b->n[dir]}, sent[2] = {0, b->n[dir] - 1};
    const size_t count = (size_t)h->pts[dir];
    for (int s = 1; s >= 0; s--)
      for (int f = 0; f < nf && recv[s]; f++)
        msg[n++] = (nav_p2p_msg){x[f] + nav_face_point(b, dir, ghost[s], t0, -1, t1, lo1), count, h->nbr[dir][s], 0};
    for (int s = 0; s < 2; s++)
      for (int f = 0; f < nf && send[s]; f++)
        msg[n++] = (nav_p2p_msg){x[f] + nav_face_point(b, dir, sent[s], t0, -1, t1, lo1), count, h->nbr[dir][s], 1};
    return nav_transport_exchange(h->transport, msg, n);
  }
  const size_t count = (size_t)h->pts[dir] * (size_t)nf;
  NAV_CALL(nav_halo_pack(h, b, dir, x, nf, send));
  for (int s = 1; s >= 0; s--)
    if (recv[s]) msg[n++] = (nav_p2p_msg){h->dbuf[dir][s][1], count, h->nbr[dir][s], 0};
  for (int s = 0; s < 2; s++)
    if (send[s]) msg[n++] = (nav_p2p_msg){h->dbuf[dir][s][0], count, h->nbr[dir][s], 1};
  NAV_CALL(nav_transport_exchange(h->transport, msg, n));
  return nav_halo_unpack(h, b, dir, x, nf, recv);
}

static nav_err nav_halo_exchange_planes(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf,
                                        int sides) {
  NAV_ASSERT(nf >= 1 && nf <= NAV_HALO_MAX_FIELDS);
  if (nav_transport_direct(h->transport)) return nav_halo_exchange_direct(h, b, dir, x, nf, sides);
  return nav_halo_exchange_mpi(h, b, dir, x, nf, sides);
}

nav_err nav_halo_exchange_sides(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf, int sides) {
  if (!h || !(h->mpi[dir][0] || h->mpi[dir][1])) return NAV_OK;
  const nav_profile_phase host = nav_profile_enter(NAV_PHASE_HALO);
  nav_profile_work(NAV_PHASE_HALO);
  const nav_err e = nav_halo_exchange_planes(h, b, dir, x, nf, sides);
  nav_profile_enter(host);
  return e;
}

nav_err nav_halo_exchange(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf) {
  return nav_halo_exchange_sides(h, b, dir, x, nf, NAV_HALO_LOW | NAV_HALO_HIGH);
}
