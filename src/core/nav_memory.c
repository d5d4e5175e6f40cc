/* Allocation counts of the backends (see nav_memory.h). */
#include "core/nav_memory.h"

#include <stdlib.h>

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
