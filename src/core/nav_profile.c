/* Per-phase wall-time profile (see nav_profile.h). */
#include "core/nav_profile.h"

#include "core/nav_timer.h"

#include <stdlib.h>
#include <string.h>

static struct {
  nav_err (*sync)(void); /* the backend's wait; NULL: profiling off */
  nav_profile_phase current;
  double since;
  double seconds[NAV_PHASE_COUNT];
  long work[NAV_PHASE_COUNT][NAV_PHASE_COUNT]; /* [kind][phase charged] */
} nav_profile_state;

void nav_profile_enable(nav_err (*sync)(void)) {
  nav_profile_state.sync = sync;
  nav_profile_state.current = NAV_PHASE_OTHER;
  nav_profile_state.since = nav_wtime();
  for (int i = 0; i < NAV_PHASE_COUNT; i++) {
    nav_profile_state.seconds[i] = 0;
    for (int j = 0; j < NAV_PHASE_COUNT; j++) nav_profile_state.work[i][j] = 0;
  }
}

void nav_profile_work(nav_profile_phase kind) {
  if (nav_profile_state.sync) nav_profile_state.work[kind][nav_profile_state.current]++;
}

void nav_profile_work_counts(long counts[NAV_PHASE_COUNT][NAV_PHASE_COUNT]) {
  for (int i = 0; i < NAV_PHASE_COUNT; i++)
    for (int j = 0; j < NAV_PHASE_COUNT; j++) counts[i][j] = nav_profile_state.work[i][j];
}

int nav_profile_enabled(void) { return nav_profile_state.sync != NULL; }

nav_profile_phase nav_profile_enter(nav_profile_phase p) {
  const nav_profile_phase prev = nav_profile_state.current;
  if (!nav_profile_state.sync) return prev;
  nav_profile_state.sync(); /* charge finished device work to the phase that launched it */
  const double now = nav_wtime();
  nav_profile_state.seconds[prev] += now - nav_profile_state.since;
  nav_profile_state.since = now;
  nav_profile_state.current = p;
  return prev;
}

void nav_profile_seconds(double seconds[NAV_PHASE_COUNT]) {
  for (int i = 0; i < NAV_PHASE_COUNT; i++) seconds[i] = nav_profile_state.seconds[i];
  if (nav_profile_state.sync) seconds[nav_profile_state.current] += nav_wtime() - nav_profile_state.since;
}

const char *nav_profile_name(nav_profile_phase p) {
  static const char *const names[NAV_PHASE_COUNT] = {"other", "predictor", "poisson", "correction", "halo",
                                                     "output"};
  return names[p];
}

int nav_profile_switch(const char *name, int fallback) {
  const char *v = getenv(name);
  return v && !strcmp(v, "0") ? 0 : v && !strcmp(v, "1") ? 1 : fallback;
}

int nav_profile_switched_off(const char *name) { return !nav_profile_switch(name, 1); }
