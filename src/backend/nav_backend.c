/* Backend registry: the only place that knows which backends were compiled in. */
#include <string.h>

#include "backend/nav_kernels.h"
#include "backend/nav_statistics_kernels.h"

#include <stdio.h>

#include "backend/nav_ac_kernels.h"
#include "backend/nav_fft_kernels.h"
#include "backend/nav_heat_kernels.h"
#include "backend/nav_ibm_kernels.h"
#include "backend/nav_mg_kernels.h"
#include "backend/nav_monitor_kernels.h"
#include "backend/nav_open_kernels.h"
#include "backend/nav_sst_kernels.h"
#include "backend/nav_viscous_kernels.h"

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

/* The kernel tables beside the core table of each backend (nav_backend_kernels): one line per table. */
typedef struct nav_backend_table {
  const char *name;
  const void *table;
} nav_backend_table;

static const nav_backend_table nav_backend_tables_cpu[] = {
    {"heat", &nav_heat_kernels_cpu},
    {"sst", &nav_sst_kernels_cpu},
    {"ac", &nav_ac_kernels_cpu},
    {"open", &nav_open_kernels_cpu},
    {"viscous", &nav_viscous_kernels_cpu},
    {"ibm", &nav_ibm_kernels_cpu},
    {"fft", &nav_fft_kernels_cpu},
    {"mg", &nav_mg_kernels_cpu},
    {"monitor", &nav_monitor_kernels_cpu},
    {NULL, NULL},
};

#ifdef NAV_HAVE_CUDA
static const nav_backend_table nav_backend_tables_cuda[] = {
    {"heat", &nav_heat_kernels_cuda},
    {"sst", &nav_sst_kernels_cuda},
    {"ac", &nav_ac_kernels_cuda},
    {"open", &nav_open_kernels_cuda},
    {"viscous", &nav_viscous_kernels_cuda},
    {"ibm", &nav_ibm_kernels_cuda},
    {"fft", &nav_fft_kernels_cuda},
    {"mg", &nav_mg_kernels_cuda},
    {"monitor", &nav_monitor_kernels_cuda},
    {NULL, NULL},
};
#endif

const void *nav_backend_kernels(const nav_kernel_ops *ops, const char *table) {
  const nav_backend_table *t = NULL;
  if (ops == &nav_kernel_ops_cpu) t = nav_backend_tables_cpu;
#ifdef NAV_HAVE_CUDA
  if (ops == &nav_kernel_ops_cuda) t = nav_backend_tables_cuda;
#endif
  for (; t && t->name; t++)
    if (!strcmp(t->name, table)) return t->table;
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
