/* SIGINT/SIGTERM flag (see nav_signal.h). */
#include "core/nav_signal.h"

#include <signal.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t nav_signal_received = 0;
static struct timespec nav_signal_first; /* when the first signal came (CLOCK_MONOTONIC) */

/* The first signal sets the flag; a repeat within NAV_SIGNAL_REPEAT_S is the same request delivered twice
 * and changes nothing; a later one ends the process (the default action). clock_gettime, signal and raise are
 * async-signal safe. */
static void nav_signal_handler(int sig) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (!nav_signal_received) {
    nav_signal_first = now;
    nav_signal_received = sig;
    return;
  }
  const double since = (double)(now.tv_sec - nav_signal_first.tv_sec) + 1e-9 * (now.tv_nsec - nav_signal_first.tv_nsec);
  if (since < NAV_SIGNAL_REPEAT_S) return;
  signal(sig, SIG_DFL);
  raise(sig);
}

void nav_signal_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = nav_signal_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  nav_signal_received = 0;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int nav_signal_pending(void) { return (int)nav_signal_received; }

const char *nav_signal_name(int sig) {
  if (sig == SIGINT) return "SIGINT";
  if (sig == SIGTERM) return "SIGTERM";
  return "a signal";
}
