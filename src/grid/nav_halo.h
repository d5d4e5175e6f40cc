/* Halo exchange: the ghost layer of a block's faces that touch a neighbour rank.
 *
 * Direction by direction (x, then y, then z), each over the full extent of the other directions
 * ghosts included, so that edges and corners come right once every direction is done (the
 * ghosts of x are in the y planes that are sent next). Per neighbour ONE message holds the plane
 * of every field exchanged together (1..NAV_HALO_MAX_FIELDS arrays: u, v, w or p), packed by the
 * backend's copy_faces (every field and both sides in one launch) into a contiguous buffer and
 * moved by the transport of the decomposition (grid/nav_transport.h): host-staged MPI (ops->to_host
 * / from_host around MPI_Isend/Irecv + MPI_Waitall; the CPU backend's buffers are host memory
 * already), MPI on the device buffers (cuda-aware), or one direct exchange of sends and receives
 * (nccl, cuda-ipc: nav_transport_exchange). Buffers are allocated once per block. In the slowest direction
 * (z in 3D, y in 2D) the direct transports skip the buffers: one message per field and neighbour goes from
 * the field's plane (contiguous, ghost rows included) straight into the neighbour's ghost plane.
 * Sent planes: 0 to the low neighbour, n-1 to the high one; received into -1 (low) and n (high). For staggered fields this makes slot n
 * the high neighbour's first face and -1 its last owned face, as nav_box.h says.
 * Faces at physical boundaries, and periodic directions with one rank (local wrap), are not
 * touched here: grid/nav_boundary.c fills them. */
#ifndef NAV_HALO_H
#define NAV_HALO_H

#include <mpi.h>

#include "backend/nav_kernels.h"
#include "grid/nav_decomp.h"

#define NAV_HALO_MAX_FIELDS NAV_FACES_MAX

typedef struct nav_halo {
  const nav_kernel_ops *ops;
  MPI_Comm comm;
  int dim;
  int nbr[3][2];
  int mpi[3][2];                   /* face (dir, side) exchanged with a neighbour rank */
  nav_idx pts[3];                  /* points of one plane of direction d */
  nav_real *dbuf[3][2][2];         /* backend buffers [dir][side][0 send, 1 receive] */
  nav_real *hbuf[3][2][2];         /* host staging (the same pointers for the cpu backend) */
  const nav_transport *transport; /* NULL: MPI */
  int staged;                     /* MPI through host copies of device buffers */
} nav_halo;

/* Halo of the block b of rank dc->rank in dc (neighbours, periodic directions). Returns *h = NULL
 * when no face is exchanged (one rank, or a serial stand-in). Not collective. */
nav_err nav_halo_create(const nav_kernel_ops *ops, const nav_decomp *dc, const nav_box *b, nav_halo **h);
void nav_halo_destroy(nav_halo *h);
/* Is face (dir, side) exchanged by h (0 for h == NULL)? */
static inline int nav_halo_face(const nav_halo *h, int dir, int side) { return h && h->mpi[dir][side]; }
/* Exchange the ghost planes of direction dir of the nf fields x[] (layout b). Collective over the
 * neighbours; no-op for h == NULL. */
nav_err nav_halo_exchange(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf);
/* The same for the ghost planes of the sides named only (NAV_HALO_LOW: layer -1, NAV_HALO_HIGH: layer n); every
 * rank must name the same sides. */
enum { NAV_HALO_LOW = 1, NAV_HALO_HIGH = 2 };
nav_err nav_halo_exchange_sides(nav_halo *h, const nav_box *b, int dir, nav_real *const *x, int nf, int sides);

#endif
