/* Backend registry: the only place that knows which backends were compiled in. */
#include <string.h>

#include "backend/nav_kernels.h"
#include "backend/nav_statistics_kernels.h"

#include <stdio.h>

#ifdef NAV_HAVE_CUDA
#include "backend/cuda/cuda_device.h"
#endif

const nav_kernel_ops *nav_backend_get(const char *name, int local_rank) {
  if (!strcmp(name, "cpu")) return &nav_kernel_ops_cpu;
#ifdef NAV_HAVE_CUDA
  if (!strcmp(name, "cuda")) {
    const int count = nav_cuda_device_count();
    if (count <= 0) return NULL;
    if (nav_cuda_select_device((local_rank < 0 ? 0 : local_rank) % count) != 0) return NULL;
    return &nav_kernel_ops_cuda;
  }
#endif
  return NULL;
}

const char *nav_backend_list(void) {
#ifdef NAV_HAVE_CUDA
  return "cpu (OpenMP), cuda";
#else
  return "cpu (OpenMP)";
#endif
}

int nav_backend_p2p_available(const char *name, char *why, int size) {
#ifdef NAV_HAVE_CUDA
  if (!strcmp(name, "cuda")) return nav_cuda_p2p_available(why, size);
#endif
  snprintf(why, (size_t)size, "backend %s has no device-to-device messages", name);
  return 0;
}

int nav_backend_device_count(const char *name) {
#ifdef NAV_HAVE_CUDA
  if (!strcmp(name, "cuda")) return nav_cuda_device_count();
#endif
  (void)name;
  return 0;
}

int nav_backend_device_memory(const char *name, size_t *free_bytes, size_t *total_bytes) {
#ifdef NAV_HAVE_CUDA
  if (!strcmp(name, "cuda")) return nav_cuda_memory_info(free_bytes, total_bytes);
#endif
  (void)name;
  *free_bytes = *total_bytes = 0;
  return -1;
}

const nav_statistics_ops *nav_statistics_backend(const char *name) {
  if (!strcmp(name, "cpu")) return &nav_statistics_ops_cpu;
#ifdef NAV_HAVE_CUDA
  if (!strcmp(name, "cuda")) return &nav_statistics_ops_cuda;
#endif
  return NULL;
}
