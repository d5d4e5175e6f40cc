/* CUDA device query: how many GPUs are visible and what they are. Never fails: a machine
 * without a GPU or driver reports 0 devices. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/cuda/cuda_device.h"
#include "backend/cuda/cuda_kernels.h"

extern "C" int nav_cuda_device_count(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n;
}

extern "C" void nav_cuda_describe(char *text, int size) {
  int n = nav_cuda_device_count(), used = 0;
  text[0] = 0;
  if (n == 0) snprintf(text, (size_t)size, "no CUDA device visible");
  for (int i = 0; i < n && used < size; i++) {
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    used += snprintf(text + used, (size_t)(size - used), "%sGPU %d: %s, %.1f GiB, sm_%d%d", i ? "\n" : "", i, p.name,
                     (double)p.totalGlobalMem / (1 << 30), p.major, p.minor);
  }
}

extern "C" int nav_cuda_memory_info(size_t *free_bytes, size_t *total_bytes) {
  if (cudaMemGetInfo(free_bytes, total_bytes) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return 0;
}

extern "C" int nav_cuda_select_device(int index) {
  if (cudaSetDevice(index) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return 0;
}

/* The planes per thread of the 3D stencil kernels (cuda_kernels.h): a launch parameter of every kernel file,
 * so it lives here, below them (vector.cu and poisson.cu both read it). */
int nav_cuda_kz(void) {
  static int kz = 0;
  if (!kz) {
    const char *e = getenv("NAV_CUDA_KZ");
    kz = e && atoi(e) > 0 ? atoi(e) : 4;
  }
  return kz;
}
