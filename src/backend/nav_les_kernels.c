/* The registry of the LES kernel tables (nav_les_kernels.h): the only place of the model that knows
 * which backends were compiled in. */
#include "backend/nav_les_kernels.h"

#include <string.h>

const nav_les_kernels *nav_les_kernels_get(const nav_kernel_ops *ops) {
  if (!strcmp(ops->name, "cpu")) return &nav_les_kernels_cpu;
#ifdef NAV_HAVE_CUDA
  if (!strcmp(ops->name, "cuda")) return &nav_les_kernels_cuda;
#endif
  return NULL;
}
