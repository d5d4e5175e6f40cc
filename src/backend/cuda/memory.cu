/* CUDA backend: memory is device memory (cudaMalloc, no managed memory). Every launch and copy
 * goes to the current stream, nav_cuda_stream: the main stream (the legacy default stream) or
 * the side stream (non-blocking, so it runs beside the main stream) that the halo exchange uses
 * while interior work runs (stream_use/fork/join, see nav_kernels.h). Copies between host and
 * device return when the data has arrived (they wait for the current stream only);
 * device-to-device copies are ordered on the current stream like the kernels. */
#include <stdio.h>

#include "backend/cuda/cuda_kernels.h"
#include "core/nav_memory.h"

static nav_memory_count nav_cuda_memory;

cudaStream_t nav_cuda_stream = 0;
static cudaStream_t nav_cuda_side;
static cudaEvent_t nav_cuda_forked, nav_cuda_joined;

/* The side stream and its two events, made at the first use (on the device of this rank). The
 * side stream has the highest priority, so its small pack/exchange/unpack kernels get SMs as
 * soon as blocks of the interior kernel beside them finish. */
static nav_err nav_cuda_side_init(void) {
  if (nav_cuda_side) return NAV_OK;
  int least, greatest;
  NAV_CALL_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  NAV_CALL_CUDA(cudaStreamCreateWithPriority(&nav_cuda_side, cudaStreamNonBlocking, greatest));
  NAV_CALL_CUDA(cudaEventCreateWithFlags(&nav_cuda_forked, cudaEventDisableTiming));
  NAV_CALL_CUDA(cudaEventCreateWithFlags(&nav_cuda_joined, cudaEventDisableTiming));
  return NAV_OK;
}

nav_err nav_stream_use_cuda(int side) {
  NAV_CALL(nav_cuda_side_init());
  nav_cuda_stream = side ? nav_cuda_side : 0;
  return NAV_OK;
}

nav_err nav_stream_fork_cuda(void) {
  NAV_CALL(nav_cuda_side_init());
  NAV_CALL_CUDA(cudaEventRecord(nav_cuda_forked, 0));
  NAV_CALL_CUDA(cudaStreamWaitEvent(nav_cuda_side, nav_cuda_forked, 0));
  return NAV_OK;
}

nav_err nav_stream_join_cuda(void) {
  NAV_CALL(nav_cuda_side_init());
  NAV_CALL_CUDA(cudaEventRecord(nav_cuda_joined, nav_cuda_side));
  NAV_CALL_CUDA(cudaStreamWaitEvent(0, nav_cuda_joined, 0));
  return NAV_OK;
}

/* Graphs (nav_kernels.h graph_*): the launches are recorded on a stream of their own (the legacy
 * default stream, the main stream, cannot be captured), made the current stream in between; the
 * executable graph is launched on the main stream. Recording in the thread-local mode: a call that
 * would wait for the device from this thread in between fails (and discards the recording) rather
 * than run out of order. */
static cudaStream_t nav_cuda_capture;

nav_err nav_graph_begin_cuda(void) {
  if (!nav_cuda_capture) NAV_CALL_CUDA(cudaStreamCreateWithFlags(&nav_cuda_capture, cudaStreamNonBlocking));
  NAV_CALL_CUDA(cudaStreamBeginCapture(nav_cuda_capture, cudaStreamCaptureModeThreadLocal));
  nav_cuda_stream = nav_cuda_capture;
  return NAV_OK;
}

nav_err nav_graph_end_cuda(void **exec) {
  cudaGraph_t graph = NULL;
  nav_cuda_stream = 0;
  const cudaError_t e = cudaStreamEndCapture(nav_cuda_capture, &graph);
  cudaGetLastError(); /* an error of the recording is returned here, not left sticky */
  if (e != cudaSuccess || !exec) {
    if (graph) cudaGraphDestroy(graph);
    NAV_CHECK(e == cudaSuccess, NAV_ERR_BACKEND, "recording a CUDA graph failed: %s", cudaGetErrorString(e));
    return NAV_OK;
  }
  const cudaError_t ei = cudaGraphInstantiate((cudaGraphExec_t *)exec, graph, 0);
  cudaGraphDestroy(graph);
  NAV_CHECK(ei == cudaSuccess, NAV_ERR_BACKEND, "instantiating a CUDA graph failed: %s", cudaGetErrorString(ei));
  return NAV_OK;
}

nav_err nav_graph_launch_cuda(void *exec) {
  NAV_CALL_CUDA(cudaGraphLaunch((cudaGraphExec_t)exec, nav_cuda_stream));
  return NAV_OK;
}

void nav_graph_free_cuda(void *exec) {
  if (exec) cudaGraphExecDestroy((cudaGraphExec_t)exec);
}

nav_err nav_alloc_cuda(void **ptr, size_t bytes) {
  *ptr = NULL;
  const cudaError_t e = cudaMalloc(ptr, bytes ? bytes : 256);
  if (e != cudaSuccess) {
    *ptr = NULL;
    cudaGetLastError(); /* an out-of-memory error is not sticky: clear it */
    return nav_error_set(e == cudaErrorMemoryAllocation ? NAV_ERR_MEMORY : NAV_ERR_BACKEND, __FILE__, __LINE__,
                         __func__, "cudaMalloc of %zu bytes failed: %s (%s)", bytes, cudaGetErrorName(e),
                         cudaGetErrorString(e));
  }
  nav_memory_added(&nav_cuda_memory, *ptr, bytes);
  return NAV_OK;
}

unsigned long nav_cuda_frees = 0;

void nav_free_cuda(void *ptr) {
  if (!ptr) return;
  nav_cuda_frees++;
  nav_memory_removed(&nav_cuda_memory, ptr);
  const cudaError_t e = cudaFree(ptr);
  /* free cannot report an error: print it (a sticky error from an earlier kernel shows here) */
  if (e != cudaSuccess && e != cudaErrorCudartUnloading)
    fprintf(stderr, "navier: warning: cudaFree failed: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
}

nav_err nav_to_host_cuda(void *host, const void *src, size_t bytes) {
  if (!bytes) return NAV_OK;
  NAV_CALL_CUDA(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, nav_cuda_stream));
  NAV_CALL_CUDA(cudaStreamSynchronize(nav_cuda_stream));
  return NAV_OK;
}

nav_err nav_from_host_cuda(void *dst, const void *host, size_t bytes) {
  if (!bytes) return NAV_OK;
  NAV_CALL_CUDA(cudaMemcpyAsync(dst, host, bytes, cudaMemcpyHostToDevice, nav_cuda_stream));
  NAV_CALL_CUDA(cudaStreamSynchronize(nav_cuda_stream)); /* host may reuse the buffer on return */
  return NAV_OK;
}

nav_err nav_to_host_async_cuda(void *host, const void *src, size_t bytes) {
  if (bytes) NAV_CALL_CUDA(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, nav_cuda_stream));
  return NAV_OK;
}

/* page-locked, so that to_host_async into it does not wait (into pageable memory it would) */
nav_err nav_alloc_host_cuda(void **ptr, size_t bytes) {
  *ptr = NULL;
  NAV_CALL_CUDA(cudaMallocHost(ptr, bytes ? bytes : 8));
  return NAV_OK;
}

void nav_free_host_cuda(void *ptr) {
  if (ptr) cudaFreeHost(ptr);
}

nav_err nav_host_register_cuda(void *ptr, size_t bytes) {
  if (ptr && bytes) NAV_CALL_CUDA(cudaHostRegister(ptr, bytes, cudaHostRegisterDefault));
  return NAV_OK;
}

void nav_host_unregister_cuda(void *ptr) {
  if (ptr) cudaHostUnregister(ptr);
}

nav_err nav_sync_cuda(void) {
  NAV_CALL_CUDA(cudaStreamSynchronize(nav_cuda_stream));
  return NAV_OK;
}

nav_err nav_copy_cuda(void *dst, const void *src, size_t bytes) {
  if (bytes && dst != src) NAV_CALL_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, nav_cuda_stream));
  return NAV_OK;
}

void nav_memory_cuda(size_t *current, size_t *peak) {
  *current = nav_cuda_memory.current;
  *peak = nav_cuda_memory.peak;
}
