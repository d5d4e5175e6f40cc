/* Halo transports (see nav_transport.h). */
#include "grid/nav_transport.h"

#include <stdint.h>
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
  static const char *names[] = {"mpi", "cuda-aware", "nccl", "cuda-ipc"};
  return t ? names[t->kind] : "mpi";
}

int nav_transport_direct(const nav_transport *t) {
  return t && (t->kind == NAV_TRANSPORT_NCCL || t->kind == NAV_TRANSPORT_IPC);
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

/* cuda-ipc. Each rank has one small device array of flags (nav_kernels.h, ipc_exchange), mapped by every
 * peer: per peer p arrive[p] (the last exchange p reached) and done[p] (the copy blocks p has finished into
 * this rank), and this rank's own block counter. One exchange:
 *   1. the host sends each peer it receives from the names (handle, offset, count) of its receive buffers,
 *      in posting order, and gets the names of the buffers it sends to;
 *   2. one kernel (ops->ipc_exchange) signals the arrival, waits for the peers it sends to, stores into
 *      their buffers (the k-th send to p into p's k-th receive from here) and waits for the peers' stores.
 * The host never waits for the device; the flags order both ranks' kernels. */
typedef struct nav_ipc_name {
  char handle[NAV_IPC_BYTES];
  uint64_t offset, count;
} nav_ipc_name;

enum { NAV_IPC_ARRIVE, NAV_IPC_DONE, NAV_IPC_FLAGS }; /* the flag arrays of each rank, [size] each, then the counter */

typedef struct nav_ipc {
  MPI_Comm comm; /* a duplicate: the names never meet other messages */
  int size, rank;
  unsigned long long *flags;  /* this rank's: arrive[size], done[size], count */
  unsigned long long **peer;  /* [size]: each peer's flags, mapped here */
  unsigned long long *epoch, *received; /* [size] each: exchanges with each peer so far, and the receiving ones */
  int *nrecv, *nsend;         /* [size]: messages per peer in one exchange */
  nav_ipc_name *out, *in;     /* the names sent and received, grouped per peer */
  int cap;
  MPI_Request *req; /* [2 size] */
  size_t nmap, capmap;
  struct nav_ipc_mapping {
    char handle[NAV_IPC_BYTES];
    void *base;
  } * map; /* the peers' buffers mapped here */
} nav_ipc;

static void nav_ipc_destroy(const nav_kernel_ops *ops, nav_ipc *c) {
  if (!c) return;
  for (size_t i = 0; i < c->nmap; i++)
    ops->ipc_close(c->map[i].base);
  if (c->flags) ops->free(c->flags);
  free(c->peer);
  free(c->epoch);
  free(c->nrecv);
  free(c->out);
  free(c->req);
  free(c->map);
  if (c->comm != MPI_COMM_NULL) MPI_Comm_free(&c->comm);
  free(c);
}

/* The mapped address of a peer's buffer of name n (opened at its first use). */
static nav_err nav_ipc_address(const nav_kernel_ops *ops, nav_ipc *c, const nav_ipc_name *n, void **addr) {
  size_t i = 0;
  while (i < c->nmap && memcmp(c->map[i].handle, n->handle, NAV_IPC_BYTES)) i++;
  if (i == c->nmap) {
    if (c->nmap == c->capmap) {
      const size_t cap = c->capmap ? 2 * c->capmap : 16;
      void *grown = realloc(c->map, cap * sizeof *c->map);
      NAV_CHECK(grown, NAV_ERR_MEMORY, "cannot grow the table of mapped peer buffers");
      c->map = grown;
      c->capmap = cap;
    }
    memcpy(c->map[i].handle, n->handle, NAV_IPC_BYTES);
    NAV_CALL(ops->ipc_open(n->handle, &c->map[i].base));
    c->nmap++;
  }
  *addr = (char *)c->map[i].base + n->offset;
  return NAV_OK;
}

/* The cuda-ipc state of comm, or NULL with the reason in why (the same result on every rank).
 * Collective over comm. */
static nav_ipc *nav_ipc_create(const nav_kernel_ops *ops, MPI_Comm comm, char *why, size_t len) {
  int size, rank, local;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  if (!nav_transport_all(comm, local == size && ops->ipc_export && size <= NAV_IPC_MAX_PEERS + 1)) {
    snprintf(why, len,
             !ops->ipc_export ? "the backend has no CUDA IPC"
             : local != size  ? "the ranks are on more than one node"
                              : "it takes at most %d ranks",
             NAV_IPC_MAX_PEERS + 1);
    return NULL;
  }
  nav_ipc *c = calloc(1, sizeof *c);
  nav_ipc_name *names = calloc((size_t)size, sizeof *names);
  int ok = c && names;
  const size_t nflags = (size_t)NAV_IPC_FLAGS * size + 1;
  if (c) {
    c->comm = MPI_COMM_NULL;
    c->size = size;
    c->rank = rank;
    c->peer = calloc((size_t)size, sizeof *c->peer);
    c->epoch = calloc(2 * (size_t)size, sizeof *c->epoch);
    c->nrecv = calloc(2 * (size_t)size, sizeof(int));
    c->req = calloc(2 * (size_t)size, sizeof(MPI_Request));
    unsigned long long *zero = calloc(nflags, sizeof *zero);
    ok = ok && c->peer && c->epoch && c->nrecv && c->req && zero && MPI_Comm_dup(comm, &c->comm) == MPI_SUCCESS &&
         ops->alloc((void **)&c->flags, nflags * sizeof *zero) == NAV_OK &&
         ops->from_host(c->flags, zero, nflags * sizeof *zero) == NAV_OK;
    free(zero);
  }
  if (ok) {
    c->received = c->epoch + size;
    c->nsend = c->nrecv + size;
    size_t offset = 0;
    ok = ops->ipc_export(c->flags, names[rank].handle, &offset) == NAV_OK;
    names[rank].offset = offset;
  }
  if (!ok) snprintf(why, len, "%s", c && names ? nav_error_message() : "out of memory");
  if (nav_transport_all(comm, ok)) { /* map every peer's flags (IPC works both ways, or not at all) */
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, names, (int)sizeof *names, MPI_BYTE, comm);
    for (int p = 0; p < size && ok; p++) {
      void *addr;
      if (p != rank) ok = nav_ipc_address(ops, c, &names[p], &addr) == NAV_OK;
      if (ok && p != rank) c->peer[p] = addr;
    }
    if (!ok) snprintf(why, len, "%s", nav_error_message());
  } else {
    ok = 0;
  }
  ok = nav_transport_all(comm, ok);
  if (!ok && !why[0]) snprintf(why, len, "CUDA IPC failed on another rank");
  free(names);
  if (!ok) {
    nav_ipc_destroy(ops, c);
    return NULL;
  }
  return c;
}

static nav_err nav_ipc_exchange(const nav_kernel_ops *ops, nav_ipc *c, const nav_p2p_msg *m, int n) {
  const int size = c->size, rank = c->rank;
  if (n > c->cap) {
    nav_ipc_name *grown = realloc(c->out, 2 * (size_t)n * sizeof *grown);
    NAV_CHECK(grown, NAV_ERR_MEMORY, "cannot allocate the names of a cuda-ipc exchange");
    c->out = grown;
    c->in = grown + n;
    c->cap = n;
  }
  memset(c->nrecv, 0, 2 * (size_t)size * sizeof(int));
  for (int i = 0; i < n; i++)
    (m[i].send ? c->nsend : c->nrecv)[m[i].peer]++;
  /* 1. the names of this side's receive buffers, grouped per peer in posting order, and the peers' */
  int k = 0, nreq = 0;
  for (int p = 0; p < size; p++) {
    if (!c->nrecv[p]) continue;
    const int first = k;
    for (int i = 0; i < n; i++)
      if (!m[i].send && m[i].peer == p) {
        size_t offset;
        NAV_CALL(ops->ipc_export(m[i].buf, c->out[k].handle, &offset));
        c->out[k].offset = offset;
        c->out[k++].count = m[i].count;
      }
    MPI_Isend(c->out + first, (k - first) * (int)sizeof *c->out, MPI_BYTE, p, 0, c->comm, &c->req[nreq++]);
  }
  k = 0;
  for (int p = 0; p < size; p++) {
    if (!c->nsend[p]) continue;
    MPI_Irecv(c->in + k, c->nsend[p] * (int)sizeof *c->in, MPI_BYTE, p, 0, c->comm, &c->req[nreq++]);
    k += c->nsend[p];
  }
  NAV_CHECK(MPI_Waitall(nreq, c->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS, NAV_ERR_MPI,
            "cuda-ipc: the exchange of buffer names failed");
  /* 2. the kernel: the peers' flags and the copies, the k-th send to p into p's k-th receive */
  nav_ipc_peer peer[NAV_IPC_MAX_PEERS];
  nav_ipc_copy copy[NAV_IPC_MAX_COPIES];
  int np = 0, nc = 0;
  k = 0;
  for (int p = 0; p < size; p++) {
    if (!c->nsend[p] && !c->nrecv[p]) continue;
    NAV_CHECK(np < NAV_IPC_MAX_PEERS, NAV_ERR_INTERNAL, "cuda-ipc: an exchange with more than %d peers",
              NAV_IPC_MAX_PEERS);
    c->epoch[p]++;
    if (c->nrecv[p]) c->received[p]++;
    peer[np++] = (nav_ipc_peer){.arrive_out = c->peer[p] + NAV_IPC_ARRIVE * size + rank,
                                .arrive_in = c->flags + NAV_IPC_ARRIVE * size + p,
                                .done_out = c->peer[p] + NAV_IPC_DONE * size + rank,
                                .done_in = c->flags + NAV_IPC_DONE * size + p,
                                .epoch = c->epoch[p],
                                .received = c->received[p],
                                .send = c->nsend[p] > 0,
                                .recv = c->nrecv[p] > 0};
    if (!c->nsend[p]) continue;
    for (int i = 0; i < n; i++)
      if (m[i].send && m[i].peer == p) {
        const nav_ipc_name *name = &c->in[k++];
        NAV_CHECK(name->count == m[i].count, NAV_ERR_INTERNAL,
                  "cuda-ipc: a message of %zu values to rank %d, which receives %llu", m[i].count, p,
                  (unsigned long long)name->count);
        NAV_CHECK(nc < NAV_IPC_MAX_COPIES, NAV_ERR_INTERNAL, "cuda-ipc: an exchange of more than %d messages",
                  NAV_IPC_MAX_COPIES);
        void *addr;
        NAV_CALL(nav_ipc_address(ops, c, name, &addr));
        copy[nc++] = (nav_ipc_copy){addr, m[i].buf, m[i].count};
      }
  }
  return ops->ipc_exchange(peer, np, copy, nc, c->flags + NAV_IPC_FLAGS * size);
}

nav_err nav_transport_exchange(const nav_transport *t, const nav_p2p_msg *msgs, int n) {
  NAV_ASSERT(nav_transport_direct(t));
  if (t->kind == NAV_TRANSPORT_IPC) return nav_ipc_exchange(t->ops, t->ipc, msgs, n);
  return t->ops->p2p_exchange(t->group, msgs, n);
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
  if (is_auto || !strcmp(request, "cuda-ipc")) {
    t->ipc = nav_ipc_create(ops, comm, why, sizeof why);
    if (t->ipc) {
      t->kind = NAV_TRANSPORT_IPC;
      *out = t;
      return NAV_OK;
    }
    if (!is_auto) {
      free(t);
      NAV_CHECK(0, NAV_ERR_INPUT, "%s: key 'run.halo_transport': cuda-ipc is not available: %s", at, why);
    }
  }
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
  nav_ipc_destroy(t->ops, t->ipc);
  free(t);
}
