/* Wall-clock time in seconds (monotonic). */
#ifndef NAV_TIMER_H
#define NAV_TIMER_H

#include <time.h>

static inline double nav_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
