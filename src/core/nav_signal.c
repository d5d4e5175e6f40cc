/* SIGINT/SIGTERM flag (see nav_signal.h). */
#include "core/nav_signal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t nav_signal_received = 0;

static void nav_signal_handler(int sig) { nav_signal_received = sig; }

void nav_signal_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = nav_signal_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART; /* a second signal: the default action (the process ends) */
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
