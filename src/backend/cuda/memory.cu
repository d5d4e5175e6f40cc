/* CUDA backend: memory is device memory (cudaMalloc, no managed memory); copies are cudaMemcpy
 * (host <-> device copies return when the data has arrived; device-to-device copies are ordered
 * on the default stream like the kernels). */
#include <stdio.h>

#include "backend/cuda/cuda_kernels.h"
#include "core/nav_memory.h"

static nav_memory_count nav_cuda_memory;

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

void nav_free_cuda(void *ptr) {
  if (!ptr) return;
  nav_memory_removed(&nav_cuda_memory, ptr);
  const cudaError_t e = cudaFree(ptr);
  /* free cannot report an error: print it (a sticky error from an earlier kernel shows here) */
  if (e != cudaSuccess && e != cudaErrorCudartUnloading)
    fprintf(stderr, "navier: warning: cudaFree failed: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
}

nav_err nav_to_host_cuda(void *host, const void *src, size_t bytes) {
  if (bytes) NAV_CALL_CUDA(cudaMemcpy(host, src, bytes, cudaMemcpyDeviceToHost));
  return NAV_OK;
}

nav_err nav_from_host_cuda(void *dst, const void *host, size_t bytes) {
  if (bytes) NAV_CALL_CUDA(cudaMemcpy(dst, host, bytes, cudaMemcpyHostToDevice));
  return NAV_OK;
}

nav_err nav_sync_cuda(void) {
  NAV_CALL_CUDA(cudaDeviceSynchronize());
  return NAV_OK;
}

nav_err nav_copy_cuda(void *dst, const void *src, size_t bytes) {
  if (bytes && dst != src) NAV_CALL_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
  return NAV_OK;
}

void nav_memory_cuda(size_t *current, size_t *peak) {
  *current = nav_cuda_memory.current;
  *peak = nav_cuda_memory.peak;
}
