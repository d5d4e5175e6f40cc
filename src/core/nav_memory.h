/* Bytes held by a backend's allocations: every alloc adds its size, every free subtracts it,
 * and the peak is kept. Not thread-safe (backends allocate from the host thread). */
#ifndef NAV_MEMORY_H
#define NAV_MEMORY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_memory_count {
  size_t current, peak;
  size_t len, cap; /* live allocations */
  struct nav_memory_block {
    const void *ptr;
    size_t bytes;
  } * live;
} nav_memory_count;

/* Record an allocation of bytes at ptr (ignored if the table cannot grow: the count is then low). */
void nav_memory_added(nav_memory_count *m, const void *ptr, size_t bytes);
/* Record the free of ptr (unknown pointers are ignored). */
void nav_memory_removed(nav_memory_count *m, const void *ptr);

/* Bytes of host memory this process can still get: MemAvailable of /proc/meminfo (else the free
 * pages), bounded by the limit of its cgroup (memory.max - memory.current, cgroup v2) when it has
 * one. 0 if unknown. Not collective. */
size_t nav_memory_host_available(void);

#ifdef __cplusplus
}
#endif

#endif
