/* Per-phase wall-time profile of a run (`navier run --profile`).
 *
 * Phases do not overlap: nav_profile_enter(p) charges the time since the last switch to the phase
 * that was current, makes p current and returns the previous phase, so a nested phase (the halo
 * exchange inside a ghost fill inside the predictor) is subtracted from its host:
 *   nav_profile_phase prev = nav_profile_enter(NAV_PHASE_HALO); ... nav_profile_enter(prev);
 * When enabled, every switch first waits for the backend (the sync given to nav_profile_enable), so
 * device work is charged to the phase that launched it; disabled (the default), every call returns at
 * once. One profile per process; not thread-safe (call outside parallel regions). */
#ifndef NAV_PROFILE_H
#define NAV_PROFILE_H

#include <stdio.h>

#include "core/nav_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nav_profile_phase {
  NAV_PHASE_OTHER = 0,
  NAV_PHASE_PREDICTOR,
  NAV_PHASE_POISSON,
  NAV_PHASE_CORRECTION,
  NAV_PHASE_HALO,
  NAV_PHASE_OUTPUT,
  NAV_PHASE_COUNT
} nav_profile_phase;

/* Start profiling (phase OTHER current); sync (the backend's ops->sync: waits for the device work launched
 * so far) is called at every switch. */
void nav_profile_enable(nav_err (*sync)(void));
int nav_profile_enabled(void);
nav_profile_phase nav_profile_enter(nav_profile_phase p);
/* Seconds charged to each phase so far (the current phase included). */
void nav_profile_seconds(double seconds[NAV_PHASE_COUNT]);
const char *nav_profile_name(nav_profile_phase p);
/* The work of phase `kind` runs here (a mark at the code itself, e.g. beside the correction
 * kernel): counts one under the phase current now, so that a test can assert that every kind of
 * work is charged to its own phase (summary.json "profile": "work"). No effect when disabled. */
void nav_profile_work(nav_profile_phase kind);
/* counts[kind][charged]: how often work of `kind` ran while `charged` was the current phase. */
void nav_profile_work_counts(long counts[NAV_PHASE_COUNT][NAV_PHASE_COUNT]);
/* The switches that turn a feature off (or on) to measure what it saves, the same results either way: the environment
 * variable `name` set to 0 (off) or 1 (on), else fallback. NAV_MOMENTUM_TILED (CUDA flow.cu, default on in FP32),
 * NAV_FFT_CALLBACKS (CUDA fft.cu: the periodic box's cuFFT callbacks, default on in FP64, off in FP32). */
int nav_profile_switch(const char *name, int fallback);
/* Is the environment variable `name` set to 0: NAV_MG_FUSED, NAV_MG_GRAPHS, NAV_MG_WAVEFRONT, NAV_MG_PAIR (mg.c),
 * NAV_AC_GRAPHS (nav_ac.c), NAV_UNIFORM_METRICS (nav_geometry.c), which are on by default. */
int nav_profile_switched_off(const char *name);

#ifdef __cplusplus
}
#endif

#endif
