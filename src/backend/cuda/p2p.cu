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
 * the receiver's device buffers are mapped into the sender's address space and written by the copy
 * engines (cudaMemcpyAsync over NVLink or PCIe, no kernel); interprocess events order the copies with
 * the kernels of both processes. */
static_assert(sizeof(cudaIpcMemHandle_t) <= NAV_IPC_BYTES && sizeof(cudaIpcEventHandle_t) <= NAV_IPC_BYTES,
              "NAV_IPC_BYTES holds a CUDA IPC handle");
typedef CUresult (*nav_address_range_fn)(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);

nav_err nav_ipc_export_cuda(const void *ptr, void *handle, size_t *offset) {
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

nav_err nav_ipc_event_create_cuda(void **ev, void *handle) {
  cudaEvent_t e;
  NAV_CALL_CUDA(cudaEventCreateWithFlags(&e, cudaEventInterprocess | cudaEventDisableTiming));
  cudaIpcEventHandle_t h;
  const cudaError_t r = cudaIpcGetEventHandle(&h, e);
  if (r != cudaSuccess) cudaEventDestroy(e);
  NAV_CALL_CUDA(r);
  memcpy(handle, &h, sizeof h);
  *ev = e;
  return NAV_OK;
}

nav_err nav_ipc_event_open_cuda(const void *handle, void **ev) {
  cudaIpcEventHandle_t h;
  memcpy(&h, handle, sizeof h);
  cudaEvent_t e;
  NAV_CALL_CUDA(cudaIpcOpenEventHandle(&e, h));
  *ev = e;
  return NAV_OK;
}

void nav_ipc_event_free_cuda(void *ev) {
  if (ev) cudaEventDestroy((cudaEvent_t)ev);
}

nav_err nav_ipc_signal_cuda(void *ev, int wait) {
  if (wait)
    NAV_CALL_CUDA(cudaStreamWaitEvent(nav_cuda_stream, (cudaEvent_t)ev, 0));
  else
    NAV_CALL_CUDA(cudaEventRecord((cudaEvent_t)ev, nav_cuda_stream));
  return NAV_OK;
}
