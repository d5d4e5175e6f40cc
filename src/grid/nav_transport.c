/* Halo transports (see nav_transport.h). */
#include "grid/nav_transport.h"

#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"

#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

int nav_transport_mpi_cuda_aware(void) {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  return MPIX_Query_cuda_support(); /* the library in use, not the headers compiled against */
#else
  return 0;
#endif
}

const char *nav_transport_name(const nav_transport *t) {
  static const char *names[] = {"mpi", "cuda-aware", "nccl"};
  return t ? names[t->kind] : "mpi";
}

/* 1 on every rank if ok is true on every rank of comm. */
static int nav_transport_all(MPI_Comm comm, int ok) {
  int all = ok;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

/* Join a new p2p group of comm: rank 0 makes the id and broadcasts it. *ok = 0 (with a message
 * in why) on every rank if any rank failed. */
static nav_err nav_transport_p2p(nav_transport *t, MPI_Comm comm, int *ok, char *why, size_t len) {
  const nav_kernel_ops *ops = t->ops;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  struct {
    char id[NAV_P2P_ID_BYTES];
    int ok;
  } msg;
  memset(&msg, 0, sizeof msg);
  if (rank == 0) {
    msg.ok = ops->p2p_unique_id(msg.id) == NAV_OK;
    if (!msg.ok) snprintf(why, len, "%s", nav_error_message());
  }
  MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, 0, comm);
  *ok = msg.ok;
  if (!*ok) {
    MPI_Bcast(why, (int)len, MPI_CHAR, 0, comm);
    return NAV_OK;
  }
  const int mine = ops->p2p_create(msg.id, rank, size, &t->group) == NAV_OK;
  if (!mine) snprintf(why, len, "%s", nav_error_message());
  *ok = nav_transport_all(comm, mine);
  if (!*ok && mine) snprintf(why, len, "the NCCL group failed on another rank");
  return NAV_OK;
}

nav_err nav_transport_create(const nav_kernel_ops *ops, MPI_Comm comm, const char *request, const char *at,
                             nav_transport **out) {
  *out = NULL;
  int size = 1;
  if (comm != MPI_COMM_NULL) MPI_Comm_size(comm, &size);
  if (size == 1) return NAV_OK;
  const int device = strcmp(ops->name, "cpu") != 0, is_auto = !strcmp(request, "auto");
  if (!strcmp(request, "mpi") || (is_auto && !device)) return NAV_OK;
  NAV_CHECK(device, NAV_ERR_INPUT, "%s: key 'run.halo_transport': '%s' moves device memory, but the backend is %s", at,
            request, ops->name);
  nav_transport *t = calloc(1, sizeof *t);
  NAV_CHECK(t, NAV_ERR_MEMORY, "cannot allocate the halo transport");
  t->ops = ops;
  char why[512] = "";
  if ((is_auto || !strcmp(request, "nccl")) && ops->p2p_create) {
    int ok;
    nav_transport_p2p(t, comm, &ok, why, sizeof why);
    if (ok) {
      t->kind = NAV_TRANSPORT_NCCL;
      *out = t;
      return NAV_OK;
    }
  } else if (!strcmp(request, "nccl")) {
    snprintf(why, sizeof why, "backend %s has no device-to-device messages", ops->name);
  }
  if (!strcmp(request, "nccl")) {
    free(t);
    NAV_CHECK(0, NAV_ERR_INPUT, "%s: key 'run.halo_transport': nccl is not available: %s", at, why);
  }
  if (nav_transport_all(comm, nav_transport_mpi_cuda_aware())) {
    t->kind = NAV_TRANSPORT_CUDA_AWARE;
    *out = t;
    return NAV_OK;
  }
  free(t);
  NAV_CHECK(is_auto, NAV_ERR_INPUT,
            "%s: key 'run.halo_transport': cuda-aware: the MPI library is not CUDA-aware (MPIX_Query_cuda_support "
            "says 0 on at least one rank); use mpi, nccl or auto",
            at);
  return NAV_OK; /* auto: host-staged mpi */
}

void nav_transport_destroy(nav_transport *t) {
  if (!t) return;
  if (t->group) t->ops->p2p_destroy(t->group);
  free(t);
}
