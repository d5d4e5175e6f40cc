/* Backend registry: the only place that knows which backends were compiled in. */
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"

#ifdef NAV_HAVE_CUDA
#include "backend/cuda/cuda_device.h"

/* The node-local rank as the MPI launchers export it (0 without one): one rank per GPU, ranks
 * beyond the device count wrap around. Read from the environment so that the backend layer needs
 * no MPI call. */
static int nav_local_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                     "MV2_COMM_WORLD_LOCAL_RANK", NULL};
  for (int i = 0; vars[i]; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) return atoi(v);
  }
  return 0;
}
#endif

const nav_kernel_ops *nav_backend_get(const char *name) {
  if (!strcmp(name, "cpu")) return &nav_kernel_ops_cpu;
#ifdef NAV_HAVE_CUDA
  if (!strcmp(name, "cuda")) {
    const int count = nav_cuda_device_count();
    if (count <= 0) return NULL;
    const int local = nav_local_rank();
    if (nav_cuda_select_device((local < 0 ? 0 : local) % count) != 0) return NULL;
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

int nav_backend_cuda_available(void) {
#ifdef NAV_HAVE_CUDA
  return nav_cuda_device_count() > 0;
#else
  return 0;
#endif
}
