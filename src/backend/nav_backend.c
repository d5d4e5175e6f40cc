/* Backend registry: the only place that knows which backends were compiled in. */
#include <string.h>

#include "backend/nav_kernels.h"

#ifdef NAV_HAVE_CUDA
#include "backend/cuda/cuda_device.h"
#endif

const nav_kernel_ops *nav_backend_get(const char *name) {
  if (!strcmp(name, "cpu")) return &nav_kernel_ops_cpu;
  return NULL; /* "cuda": the CUDA kernel table is registered here once the backend exists */
}

const char *nav_backend_list(void) {
#ifdef NAV_HAVE_CUDA
  return "cpu (OpenMP); cuda: device query only, kernel backend not built yet";
#else
  return "cpu (OpenMP)";
#endif
}

int nav_backend_cuda_available(void) {
#ifdef NAV_HAVE_CUDA
  return nav_cuda_device_count() > 0;
#else
  return 0;
#endif
}
