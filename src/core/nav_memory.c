/* Allocation counts of the backends (see nav_memory.h). */
#include "core/nav_memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void nav_memory_added(nav_memory_count *m, const void *ptr, size_t bytes) {
  if (!ptr) return;
  if (m->len == m->cap) {
    const size_t cap = m->cap ? 2 * m->cap : 64;
    struct nav_memory_block *live = realloc(m->live, cap * sizeof *live);
    if (!live) return;
    m->live = live;
    m->cap = cap;
  }
  m->live[m->len].ptr = ptr;
  m->live[m->len].bytes = bytes;
  m->len++;
  m->current += bytes;
  if (m->current > m->peak) m->peak = m->current;
}

void nav_memory_removed(nav_memory_count *m, const void *ptr) {
  for (size_t i = m->len; i-- > 0;) /* the latest first: scratch buffers come and go */
    if (m->live[i].ptr == ptr) {
      m->current -= m->live[i].bytes;
      m->live[i] = m->live[--m->len];
      return;
    }
}

/* The first number on the line of file path that starts with key ("" = the first line), or -1. */
static double nav_memory_read(const char *path, const char *key) {
  FILE *fp = fopen(path, "r");
  if (!fp) return -1;
  char line[256];
  double v = -1;
  while (v < 0 && fgets(line, sizeof line, fp))
    if (!strncmp(line, key, strlen(key)) && sscanf(line + strlen(key), " %lf", &v) != 1) v = -1;
  fclose(fp);
  return v;
}

size_t nav_memory_host_available(void) {
  double avail = nav_memory_read("/proc/meminfo", "MemAvailable:"); /* kB */
  avail = avail >= 0 ? avail * 1024 : (double)sysconf(_SC_AVPHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  const double max = nav_memory_read("/sys/fs/cgroup/memory.max", ""); /* "max" reads as -1 */
  const double used = nav_memory_read("/sys/fs/cgroup/memory.current", "");
  if (max > 0 && used >= 0 && max - used < avail) avail = max - used;
  return avail > 0 ? (size_t)avail : 0;
}
