/* The clean-stop flag of nav_signal.h: one request delivered twice at once (as timeout(1) does: to its child, then
 * to the child's process group) sets the flag and the process lives on; a second signal later than
 * NAV_SIGNAL_REPEAT_S ends the process. Each case runs in a child process (raise delivers before it returns). */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/nav_signal.h"

/* Run case k in a child; its wait status. */
static int run_child(int k) {
  const pid_t pid = fork();
  if (pid == 0) {
    nav_signal_install();
    if (k == 0) { /* the same signal twice at once: the flag, no exit */
      raise(SIGTERM);
      raise(SIGTERM);
      _exit(nav_signal_pending() == SIGTERM ? 0 : 1);
    }
    if (k == 1) { /* a second signal 50 ms later: killed by it */
      raise(SIGINT);
      const struct timespec d = {0, 50000000L};
      nanosleep(&d, NULL);
      raise(SIGINT);
      _exit(nav_signal_pending() == SIGINT ? 4 : 5); /* not reached */
    }
    /* k == 2: installed again after a handled stop, the flag is clear and a signal sets it again */
    raise(SIGTERM);
    nav_signal_install();
    if (nav_signal_pending() != 0) _exit(6);
    raise(SIGINT);
    _exit(nav_signal_pending() == SIGINT ? 0 : 7);
  }
  int status = -1;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return status;
}

int main(void) {
  int fail = 0;
  int st = run_child(0);
  int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  printf("SIGTERM twice at once: %s (flag set, the process lives on)  %s\n",
         WIFSIGNALED(st) ? "killed" : WIFEXITED(st) ? "exited" : "?", ok ? "ok" : "FAIL");
  fail |= !ok;
  st = run_child(1);
  ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGINT;
  printf("SIGINT, then SIGINT 50 ms later: %s  %s\n", WIFSIGNALED(st) ? "killed by the second" : "not killed",
         ok ? "ok" : "FAIL");
  fail |= !ok;
  st = run_child(2);
  ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  printf("installed again after a stop: the flag cleared, set again by the next signal  %s\n", ok ? "ok" : "FAIL");
  fail |= !ok;
  return fail;
}
