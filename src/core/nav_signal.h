/* Clean stops on SIGINT and SIGTERM.
 *
 * The handler only records the signal in a volatile sig_atomic_t; the time loop reads it once per
 * step, and the ranks agree through a reduction they do anyway (the time-step rates of
 * nav_flow_dt carry the flag), so a signal delivered to any rank stops every rank after the same
 * step, with no extra collective. A second signal ends the process at once (the default action),
 * unless it comes within NAV_SIGNAL_REPEAT_S of the first: then it is the same request delivered
 * twice (timeout(1) signals its child and then the child's process group; a multithreaded process,
 * as a CUDA run is, takes the two one after the other) and is ignored. */
#ifndef NAV_SIGNAL_H
#define NAV_SIGNAL_H

/* Seconds after the first signal during which the same signal again is a duplicate (far below the
 * interval of a person's second Ctrl-C). */
#define NAV_SIGNAL_REPEAT_S 0.01

/* Install the handlers for SIGINT and SIGTERM (again after a stop was handled). Not collective. */
void nav_signal_install(void);
/* The signal received since nav_signal_install (SIGINT or SIGTERM), or 0. Async-signal safe. */
int nav_signal_pending(void);
/* "SIGINT", "SIGTERM" or "signal N". */
const char *nav_signal_name(int sig);

#endif
