/* Error handling (PETSc style): every function that can fail returns nav_err.
 *
 *   NAV_CALL(f(...))                 return f's error, adding file:line:function to the traceback
 *   NAV_CHECK(cond, code, fmt, ...)  user/usage check, always compiled: sets the message and returns
 *   NAV_ASSERT(cond)                 internal invariant, compiled out unless NAV_DEBUG
 *
 * The message and traceback live in one process-wide record; nav_error_print() prints them and
 * nav_error_clear() resets them. Errors that cannot be propagated (inside OpenMP regions, on one
 * rank only) go to nav_abort(), which prints and calls MPI_Abort. Not thread-safe: set errors
 * outside parallel regions. */
#ifndef NAV_ERROR_H
#define NAV_ERROR_H

#include <stdio.h>

#include "navier/nav_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define NAV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NAV_PRINTF(a, b)
#endif

/* Record an error with its origin; returns code so it can be used in a return statement. */
nav_err nav_error_set(nav_err code, const char *file, int line, const char *func, const char *fmt, ...)
    NAV_PRINTF(5, 6);
/* Write a formatted reason into the caller's buffer why (size n; nothing when why is NULL or n is 0) and
 * return ret: the failure of a function that reports to its caller instead of recording an error. */
int nav_why(int ret, char *why, size_t n, const char *fmt, ...) NAV_PRINTF(4, 5);
/* Append one traceback frame to the current error; returns code. */
nav_err nav_error_trace(nav_err code, const char *file, int line, const char *func);
/* The current error's message ("" if none). */
const char *nav_error_message(void);
/* Print "navier: error: MESSAGE" and the traceback (if verbose) to stream. */
void nav_error_print(FILE *stream, int verbose);
void nav_error_clear(void);
/* Name of an error code ("input", "memory", ...). */
const char *nav_err_name(nav_err code);
/* Print a message and abort every rank (MPI_Abort, or abort() before MPI_Init). Never returns. */
void nav_abort(const char *file, int line, const char *fmt, ...) NAV_PRINTF(3, 4);

#ifdef __cplusplus
}
#endif

#define NAV_CALL(...)                                                                              \
  do {                                                                                             \
    nav_err nav_ierr_ = (__VA_ARGS__);                                                             \
    if (nav_ierr_ != NAV_OK) return nav_error_trace(nav_ierr_, __FILE__, __LINE__, __func__);     \
  } while (0)

#define NAV_CHECK(cond, code, ...)                                                                 \
  do {                                                                                             \
    if (!(cond)) return nav_error_set((code), __FILE__, __LINE__, __func__, __VA_ARGS__);         \
  } while (0)

#define NAV_ABORT(...) nav_abort(__FILE__, __LINE__, __VA_ARGS__)

#ifdef NAV_DEBUG
#define NAV_ASSERT(cond)                                                                           \
  do {                                                                                             \
    if (!(cond)) nav_abort(__FILE__, __LINE__, "assertion failed: %s", #cond);                    \
  } while (0)
#else
#define NAV_ASSERT(cond) ((void)0)
#endif

#endif
