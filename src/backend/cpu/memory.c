/* CPU backend: memory is host memory (64-byte aligned); copies are memcpy. Arrays of NAV_CPU_HUGE bytes or more
 * are aligned to it and, on Linux, advised to transparent huge pages (madvise MADV_HUGEPAGE, which the kernel's
 * default "madvise" mode honours): a multigrid level's first touch then faults a 2 MiB page instead of 512 small
 * ones, and its sweeps miss the TLB less. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "backend/cpu/cpu_kernels.h"
#include "core/nav_error.h"
#include "core/nav_memory.h"

static nav_memory_count nav_cpu_memory;

#define NAV_CPU_HUGE ((size_t)2 << 20)

nav_err nav_alloc_cpu(void **ptr, size_t bytes) {
  const size_t align = bytes >= NAV_CPU_HUGE ? NAV_CPU_HUGE : 64, rounded = (bytes + align - 1) / align * align;
  *ptr = aligned_alloc(align, rounded ? rounded : 64);
  NAV_CHECK(*ptr, NAV_ERR_MEMORY, "cannot allocate %zu bytes of host memory", bytes);
#ifdef MADV_HUGEPAGE
  if (align == NAV_CPU_HUGE) (void)madvise(*ptr, rounded, MADV_HUGEPAGE); /* advice only: ignored where refused */
#endif
  nav_memory_added(&nav_cpu_memory, *ptr, bytes);
  return NAV_OK;
}

void nav_free_cpu(void *ptr) {
  nav_memory_removed(&nav_cpu_memory, ptr);
  free(ptr);
}

void nav_memory_cpu(size_t *current, size_t *peak) {
  *current = nav_cpu_memory.current;
  *peak = nav_cpu_memory.peak;
}

nav_err nav_to_host_cpu(void *host, const void *src, size_t bytes) {
  if (host != src) memcpy(host, src, bytes);
  return NAV_OK;
}

nav_err nav_from_host_cpu(void *dst, const void *host, size_t bytes) {
  if (dst != host) memcpy(dst, host, bytes);
  return NAV_OK;
}

nav_err nav_sync_cpu(void) { return NAV_OK; /* the OpenMP loops return when done */ }

nav_err nav_copy_cpu(void *dst, const void *src, size_t bytes) {
  if (dst != src) memcpy(dst, src, bytes);
  return NAV_OK;
}
