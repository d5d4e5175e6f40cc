/* Error record, traceback and abort; see nav_error.h for the contract. */
#include "core/nav_error.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NAV_TRACE_MAX 32

static struct {
  nav_err code;
  char message[1024];
  char trace[NAV_TRACE_MAX][160];
  int ntrace;
} nav_error_record;

nav_err nav_error_set(nav_err code, const char *file, int line, const char *func, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(nav_error_record.message, sizeof nav_error_record.message, fmt, ap);
  va_end(ap);
  nav_error_record.code = code;
  nav_error_record.ntrace = 0;
  return nav_error_trace(code, file, line, func);
}

int nav_why(int ret, char *why, size_t n, const char *fmt, ...) {
  if (why && n > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return ret;
}

nav_err nav_error_trace(nav_err code, const char *file, int line, const char *func) {
  if (nav_error_record.ntrace < NAV_TRACE_MAX)
    snprintf(nav_error_record.trace[nav_error_record.ntrace++], sizeof nav_error_record.trace[0],
             "%s:%d (%s)", file, line, func);
  if (nav_error_record.code == NAV_OK) nav_error_record.code = code;
  return code;
}

const char *nav_error_message(void) { return nav_error_record.message; }

void nav_error_print(FILE *stream, int verbose) {
  fprintf(stream, "navier: error: %s\n",
          nav_error_record.message[0] ? nav_error_record.message : nav_err_name(nav_error_record.code));
  if (verbose)
    for (int i = 0; i < nav_error_record.ntrace; i++) fprintf(stream, "  at %s\n", nav_error_record.trace[i]);
}

void nav_error_clear(void) { memset(&nav_error_record, 0, sizeof nav_error_record); }

const char *nav_err_name(nav_err code) {
  switch (code) {
  case NAV_OK: return "success";
  case NAV_ERR_INPUT: return "input";
  case NAV_ERR_MEMORY: return "memory";
  case NAV_ERR_IO: return "i/o";
  case NAV_ERR_CONVERGENCE: return "convergence";
  case NAV_ERR_BLOWUP: return "blow-up";
  case NAV_ERR_BACKEND: return "backend";
  case NAV_ERR_MPI: return "mpi";
  case NAV_ERR_INTERNAL: return "internal";
  }
  return "unknown";
}

void nav_abort(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "navier: fatal: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (%s:%d)\n", file, line);
  fflush(stderr);
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (up && !down) MPI_Abort(MPI_COMM_WORLD, 70);
  abort();
}
