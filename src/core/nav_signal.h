/* Clean stops on SIGINT and SIGTERM.
 *
 * The handler only records the signal in a volatile sig_atomic_t; the time loop reads it once per
 * step, and the ranks agree through a reduction they do anyway (the time-step rates of
 * nav_flow_dt carry the flag), so a signal delivered to any rank stops every rank after the same
 * step, with no extra collective. The handlers are installed with SA_RESETHAND: a second signal
 * gets the default action and ends the process at once. */
#ifndef NAV_SIGNAL_H
#define NAV_SIGNAL_H

/* Install the handlers for SIGINT and SIGTERM (again after a stop was handled). Not collective. */
void nav_signal_install(void);
/* The signal received since nav_signal_install (SIGINT or SIGTERM), or 0. Async-signal safe. */
int nav_signal_pending(void);
/* "SIGINT", "SIGTERM" or "signal N". */
const char *nav_signal_name(int sig);

#endif
