/* How the halo planes travel between ranks ([run] halo_transport):
 *   mpi         MPI_Isend/Irecv of host buffers; a device backend stages its packed planes through
 *               the host (ops->to_host / from_host). Always available.
 *   cuda-aware  MPI_Isend/Irecv of the device buffers themselves, when the MPI library says it
 *               can (MPIX_Query_cuda_support); the pack kernels are waited for before the send.
 *   nccl        ncclSend/ncclRecv of the device buffers in one group (ops->p2p_*), device to
 *               device, ordered on the backend's stream with the pack and unpack kernels.
 *   cuda-ipc    the ranks of one node write into each other's device buffers (ops->ipc_*: CUDA IPC,
 *               one kernel per exchange that stores over NVLink or PCIe), ordered with the peers'
 *               kernels by flags in device memory; the host only trades the buffers' names
 *               (nav_transport_exchange). Needs every rank on one node, at most 17 ranks.
 *   auto        on a device backend cuda-ipc when every rank is on one node, else nccl when it loads,
 *               else cuda-aware when MPI has it, else mpi (the fastest first for the flow's step, as
 *               measured in docs/performance.md); on the cpu backend mpi.
 * One transport per communicator, shared by every grid over it (the flow and its multigrid
 * levels: nav_decomp copies share it). */
#ifndef NAV_TRANSPORT_H
#define NAV_TRANSPORT_H

#include <mpi.h>

#include "backend/nav_kernels.h"

typedef enum nav_transport_kind {
  NAV_TRANSPORT_MPI,
  NAV_TRANSPORT_CUDA_AWARE,
  NAV_TRANSPORT_NCCL,
  NAV_TRANSPORT_IPC
} nav_transport_kind;

typedef struct nav_transport {
  nav_transport_kind kind;
  const nav_kernel_ops *ops;
  void *group;        /* the p2p group of the communicator (nccl) */
  struct nav_ipc *ipc; /* the peers' flags and mapped buffers (cuda-ipc) */
} nav_transport;

/* The transport of request ("auto", "mpi", "cuda-aware", "nccl", "cuda-ipc") for ops over comm. Collective
 * over comm; *t = NULL (plain mpi) for MPI_COMM_NULL or one rank. A transport that cannot be had
 * is NAV_ERR_INPUT on every rank, with "AT: key 'run.halo_transport': why". */
nav_err nav_transport_create(const nav_kernel_ops *ops, MPI_Comm comm, const char *request, const char *at,
                             nav_transport **t);
void nav_transport_destroy(nav_transport *t);
/* "mpi", "cuda-aware", "nccl" or "cuda-ipc" (NULL: "mpi"). */
const char *nav_transport_name(const nav_transport *t);
/* Does t move device buffers device to device on the backend's stream (nccl, cuda-ipc)? */
int nav_transport_direct(const nav_transport *t);
/* Post msgs (backend buffers) as one exchange of a direct transport: ordered after every kernel
 * launched before it on the current stream and before every kernel launched after it; the messages
 * between two ranks match in the order they are posted (the k-th send to a rank fills the k-th receive
 * it posts from this one; their counts must agree). Collective over the ranks named in msgs; the host
 * does not wait for the device. */
nav_err nav_transport_exchange(const nav_transport *t, const nav_p2p_msg *msgs, int n);
/* 1 if the MPI library reports CUDA support at run time. */
int nav_transport_mpi_cuda_aware(void);

#endif
