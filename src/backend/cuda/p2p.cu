/* Device-to-device messages between ranks through NCCL point-to-point (ncclSend / ncclRecv in
 * one group), for the halo exchange's `nccl` transport (grid/nav_transport.c), and the CUDA IPC
 * primitives of its `cuda-ipc` transport (at the end).
 *
 * NCCL is loaded at run time (dlopen of libnccl.so.2, or the file named by NAV_NCCL_LIBRARY),
 * so the binary starts on machines without it and the other transports keep working; asking for
 * nccl there is an error that says so. The few NCCL types used are declared here as nccl.h
 * defines them (a stable ABI: the unique id is 128 bytes, results and data types are ints).
 * Operations go to the current stream of the backend (nav_cuda_stream), the stream of the pack
 * and unpack kernels around them, so they are ordered without events. */
#include <cuda.h> /* the driver's types, for cuMemGetAddressRange (found at run time: no link to libcuda) */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cuda_device.h"
#include "backend/cuda/cuda_kernels.h"

typedef struct nav_nccl_comm_s *nav_nccl_comm;
typedef struct {
  char internal[NAV_P2P_ID_BYTES];
} nav_nccl_id;
enum { NAV_NCCL_SUCCESS = 0, NAV_NCCL_FLOAT32 = 7, NAV_NCCL_FLOAT64 = 8 };

static struct {
  int tried, loaded;
  char why[256];
  int (*get_unique_id)(nav_nccl_id *);
  int (*comm_init_rank)(nav_nccl_comm *, int, nav_nccl_id, int);
  int (*comm_destroy)(nav_nccl_comm);
  int (*group_start)(void);
  int (*group_end)(void);
  int (*send)(const void *, size_t, int, int, nav_nccl_comm, cudaStream_t);
  int (*recv)(void *, size_t, int, int, nav_nccl_comm, cudaStream_t);
  const char *(*error_string)(int);
} nav_nccl;

/* Load libnccl once; 0 if it is usable, else nav_nccl.why says why not. */
static int nav_nccl_load(void) {
  if (nav_nccl.tried) return nav_nccl.loaded ? 0 : -1;
  nav_nccl.tried = 1;
  const char *name = getenv("NAV_NCCL_LIBRARY");
  if (!name || !name[0]) name = "libnccl.so.2";
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(nav_nccl.why, sizeof nav_nccl.why, "cannot load %s (%s); set LD_LIBRARY_PATH or NAV_NCCL_LIBRARY", name,
             dlerror());
    return -1;
  }
  struct {
    void **fn;
    const char *sym;
  } table[] = {{(void **)&nav_nccl.get_unique_id, "ncclGetUniqueId"},
               {(void **)&nav_nccl.comm_init_rank, "ncclCommInitRank"},
               {(void **)&nav_nccl.comm_destroy, "ncclCommDestroy"},
               {(void **)&nav_nccl.group_start, "ncclGroupStart"},
               {(void **)&nav_nccl.group_end, "ncclGroupEnd"},
               {(void **)&nav_nccl.send, "ncclSend"},
               {(void **)&nav_nccl.recv, "ncclRecv"},
               {(void **)&nav_nccl.error_string, "ncclGetErrorString"}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    *table[i].fn = dlsym(lib, table[i].sym);
    if (!*table[i].fn) {
      snprintf(nav_nccl.why, sizeof nav_nccl.why, "%s has no %s (NCCL 2.7 or later is needed)", name, table[i].sym);
      return -1;
    }
  }
  nav_nccl.loaded = 1;
  return 0;
}

#define NAV_CALL_NCCL(CALL)                                                                                            \
  do {                                                                                                                 \
    const int nav_nres_ = (CALL);                                                                                      \
    if (nav_nres_ != NAV_NCCL_SUCCESS)                                                                                 \
      return nav_error_set(NAV_ERR_BACKEND, __FILE__, __LINE__, __func__, "%s failed: %s", #CALL,                      \
                           nav_nccl.error_string(nav_nres_));                                                          \
  } while (0)

extern "C" int nav_cuda_p2p_available(char *why, int size) {
  if (nav_nccl_load() == 0) {
    snprintf(why, (size_t)size, "%s", getenv("NAV_NCCL_LIBRARY") ? getenv("NAV_NCCL_LIBRARY") : "libnccl.so.2");
    return 1;
  }
  snprintf(why, (size_t)size, "%s", nav_nccl.why);
  return 0;
}

nav_err nav_p2p_unique_id_cuda(void *id) {
  NAV_CHECK(nav_nccl_load() == 0, NAV_ERR_INPUT, "halo transport nccl: %s", nav_nccl.why);
  NAV_CALL_NCCL(nav_nccl.get_unique_id((nav_nccl_id *)id));
  return NAV_OK;
}

nav_err nav_p2p_create_cuda(const void *id, int rank, int size, void **group) {
  *group = NULL;
  NAV_CHECK(nav_nccl_load() == 0, NAV_ERR_INPUT, "halo transport nccl: %s", nav_nccl.why);
  nav_nccl_id uid;
  memcpy(&uid, id, sizeof uid);
  nav_nccl_comm comm = NULL;
  NAV_CALL_NCCL(nav_nccl.comm_init_rank(&comm, size, uid, rank));
  *group = comm;
  return NAV_OK;
}

void nav_p2p_destroy_cuda(void *group) {
  if (group && nav_nccl.loaded) nav_nccl.comm_destroy((nav_nccl_comm)group);
}

nav_err nav_p2p_exchange_cuda(void *group, const nav_p2p_msg *msgs, int n) {
  const int type = sizeof(nav_real) == 8 ? NAV_NCCL_FLOAT64 : NAV_NCCL_FLOAT32;
  nav_nccl_comm comm = (nav_nccl_comm)group;
  NAV_CALL_NCCL(nav_nccl.group_start());
  for (int i = 0; i < n; i++) {
    const nav_p2p_msg *m = &msgs[i];
    const int r = m->send ? nav_nccl.send(m->buf, m->count, type, m->peer, comm, nav_cuda_stream)
                          : nav_nccl.recv(m->buf, m->count, type, m->peer, comm, nav_cuda_stream);
    if (r != NAV_NCCL_SUCCESS) {
      nav_nccl.group_end();
      return nav_error_set(NAV_ERR_BACKEND, __FILE__, __LINE__, __func__, "ncclSend/ncclRecv failed: %s",
                           nav_nccl.error_string(r));
    }
  }
  NAV_CALL_NCCL(nav_nccl.group_end());
  NAV_CUDA_LAUNCHED("nccl group");
  return NAV_OK;
}

/* CUDA IPC between the processes of one node (the cuda-ipc halo transport, grid/nav_transport.c):
 * the receiver's device buffers are mapped into the sender's address space and written by the sender's
 * kernel (ipc_exchange: stores over NVLink or PCIe), which orders itself with the peers' kernels through
 * flags in device memory. */
static_assert(sizeof(cudaIpcMemHandle_t) <= NAV_IPC_BYTES,
              "NAV_IPC_BYTES holds a CUDA IPC handle");
typedef CUresult (*nav_address_range_fn)(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);

/* The handle and offset of ptr, as CUDA gives them (cuMemGetAddressRange, cudaIpcGetMemHandle). */
static nav_err nav_ipc_export_lookup(const void *ptr, void *handle, size_t *offset) {
  static nav_address_range_fn range = NULL;
  if (!range) {
    cudaDriverEntryPointQueryResult q;
    NAV_CALL_CUDA(cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", (void **)&range, 12000, cudaEnableDefault,
                                                   &q));
    NAV_CHECK(range && q == cudaDriverEntryPointSuccess, NAV_ERR_BACKEND, "the driver has no cuMemGetAddressRange");
  }
  CUdeviceptr base = 0;
  size_t size = 0;
  NAV_CHECK(range(&base, &size, (CUdeviceptr)ptr) == CUDA_SUCCESS, NAV_ERR_BACKEND,
            "cuMemGetAddressRange: %p is not device memory", ptr);
  cudaIpcMemHandle_t h;
  NAV_CALL_CUDA(cudaIpcGetMemHandle(&h, (void *)base));
  memcpy(handle, &h, sizeof h);
  *offset = (size_t)((CUdeviceptr)ptr - base);
  return NAV_OK;
}

/* The answers of the lookup are kept per pointer (a cuda-ipc exchange names every receive buffer, and the
 * lookup's driver calls took tens of microseconds of the host's time per exchange) until the next
 * nav_free_cuda: an address freed and allocated again may belong to another allocation. */
nav_err nav_ipc_export_cuda(const void *ptr, void *handle, size_t *offset) {
  enum { SLOTS = 64 };
  static struct {
    const void *ptr;
    char handle[NAV_IPC_BYTES];
    size_t offset;
  } kept[SLOTS];
  static int used = 0, next = 0;
  static unsigned long frees = 0;
  if (frees != nav_cuda_frees) {
    used = next = 0;
    frees = nav_cuda_frees;
  }
  for (int i = 0; i < used; i++)
    if (kept[i].ptr == ptr) {
      memcpy(handle, kept[i].handle, NAV_IPC_BYTES);
      *offset = kept[i].offset;
      return NAV_OK;
    }
  memset(handle, 0, NAV_IPC_BYTES);
  NAV_CALL(nav_ipc_export_lookup(ptr, handle, offset));
  kept[next].ptr = ptr;
  memcpy(kept[next].handle, handle, NAV_IPC_BYTES);
  kept[next].offset = *offset;
  next = (next + 1) % SLOTS;
  used = used < SLOTS ? used + 1 : SLOTS;
  return NAV_OK;
}

nav_err nav_ipc_open_cuda(const void *handle, void **base) {
  cudaIpcMemHandle_t h;
  memcpy(&h, handle, sizeof h);
  *base = NULL;
  NAV_CALL_CUDA(cudaIpcOpenMemHandle(base, h, cudaIpcMemLazyEnablePeerAccess));
  return NAV_OK;
}

void nav_ipc_close_cuda(void *base) {
  if (base) cudaIpcCloseMemHandle(base);
}

/* ipc_exchange (nav_kernels.h) as one kernel of NAV_IPC_BLOCKS blocks. The blocks are not all resident
 * at once necessarily; none waits for another block of this grid: step 1 waits for the peers' kernels
 * (which set their arrival flags in their first instructions, each block of theirs), and step 3 runs in
 * the last block only, after every other block has finished. The stores into a peer's memory are made
 * visible before its done counter moves by __threadfence_system; the waits read the flags as volatile
 * (the peer writes them over NVLink or PCIe into this device's memory). */
enum { NAV_IPC_BLOCKS = 256, NAV_IPC_THREADS = 512 };

typedef struct nav_ipc_args {
  int npeer, ncopy;
  unsigned long long *count; /* the finished blocks of this launch; the last one sets it back to 0 */
  nav_ipc_peer peer[NAV_IPC_MAX_PEERS];
  nav_ipc_copy copy[NAV_IPC_MAX_COPIES];
} nav_ipc_args;

__device__ static void nav_ipc_wait_for(const unsigned long long *flag, unsigned long long value) {
  while (*(const volatile unsigned long long *)flag < value) __nanosleep(64);
}

__global__ static void __launch_bounds__(NAV_IPC_THREADS) nav_ipc_exchange_kernel(const nav_ipc_args a) {
  if (threadIdx.x == 0) {
    for (int p = 0; p < a.npeer; p++) *(volatile unsigned long long *)a.peer[p].arrive_out = a.peer[p].epoch;
    for (int p = 0; p < a.npeer; p++)
      if (a.peer[p].send) nav_ipc_wait_for(a.peer[p].arrive_in, a.peer[p].epoch);
  }
  __syncthreads();
  const size_t stride = (size_t)gridDim.x * blockDim.x, me = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < a.ncopy; c++) { /* 16-byte stores where dst and src share their alignment */
    nav_real *dst = a.copy[c].dst;
    const nav_real *src = a.copy[c].src;
    size_t n = a.copy[c].count, head = n;
    if ((((uintptr_t)dst ^ (uintptr_t)src) & 15) == 0) {
      head = ((16 - ((uintptr_t)dst & 15)) & 15) / sizeof(nav_real);
      head = head < n ? head : n;
      const size_t n4 = (n - head) * sizeof(nav_real) / 16;
      uint4 *d4 = (uint4 *)(dst + head);
      const uint4 *s4 = (const uint4 *)(src + head);
      for (size_t i = me; i < n4; i += stride) d4[i] = s4[i];
      const size_t tail = head + n4 * 16 / sizeof(nav_real);
      for (size_t i = tail + me; i < n; i += stride) dst[i] = src[i];
    }
    for (size_t i = me; i < head; i += stride) dst[i] = src[i];
  }
  __threadfence_system(); /* this thread's stores reach the peers before its block is counted */
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int p = 0; p < a.npeer; p++)
      if (a.peer[p].send) atomicAdd_system(a.peer[p].done_out, 1ULL);
    if (atomicAdd(a.count, 1ULL) == NAV_IPC_BLOCKS - 1) {
      *a.count = 0; /* every other block has counted: the next launch starts from 0 */
      for (int p = 0; p < a.npeer; p++)
        if (a.peer[p].recv) nav_ipc_wait_for(a.peer[p].done_in, a.peer[p].received * NAV_IPC_BLOCKS);
      __threadfence_system();
    }
  }
}

nav_err nav_ipc_exchange_cuda(const nav_ipc_peer *peer, int npeer, const nav_ipc_copy *copy, int ncopy,
                              unsigned long long *count) {
  NAV_CHECK(npeer <= NAV_IPC_MAX_PEERS && ncopy <= NAV_IPC_MAX_COPIES, NAV_ERR_INTERNAL,
            "cuda-ipc: an exchange with %d peers and %d copies (at most %d and %d)", npeer, ncopy, NAV_IPC_MAX_PEERS,
            NAV_IPC_MAX_COPIES);
  nav_ipc_args a;
  memset(&a, 0, sizeof a);
  a.npeer = npeer;
  a.ncopy = ncopy;
  a.count = count;
  memcpy(a.peer, peer, (size_t)npeer * sizeof *peer);
  memcpy(a.copy, copy, (size_t)ncopy * sizeof *copy);
  nav_ipc_exchange_kernel<<<NAV_IPC_BLOCKS, NAV_IPC_THREADS, 0, nav_cuda_stream>>>(a);
  NAV_CUDA_LAUNCHED("nav_ipc_exchange_kernel");
  return NAV_OK;
}
