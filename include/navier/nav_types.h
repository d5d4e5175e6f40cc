/* navier public scalar types.
 *
 * nav_real is the floating-point type of every field (double unless the build sets
 * NAV_SINGLE_PRECISION); nav_idx indexes arrays and is 64-bit so that global sizes of
 * large 3D grids never overflow. NAV_REAL_EPS is the unit round-off of nav_real and is the
 * base of every precision-scaled tolerance. */
#ifndef NAV_TYPES_H
#define NAV_TYPES_H

#include <stdint.h>

#ifdef NAV_SINGLE_PRECISION
typedef float nav_real;
#define NAV_REAL_EPS 1.1920929e-07
#define NAV_PRECISION_NAME "single"
#else
typedef double nav_real;
#define NAV_REAL_EPS 2.220446049250313e-16
#define NAV_PRECISION_NAME "double"
#endif

typedef int64_t nav_idx;

#define NAV_PI 3.14159265358979323846

/* Error codes returned by every function that can fail (0 = success). */
typedef enum nav_err {
  NAV_OK = 0,
  NAV_ERR_INPUT = 1,       /* bad user input: case file, option, argument */
  NAV_ERR_MEMORY = 2,      /* allocation failed */
  NAV_ERR_IO = 3,          /* file could not be read or written */
  NAV_ERR_CONVERGENCE = 4, /* an iterative solver did not reach its tolerance */
  NAV_ERR_BLOWUP = 5,      /* NaN/Inf or an unstable time step */
  NAV_ERR_BACKEND = 6,     /* a backend (CUDA) call failed */
  NAV_ERR_MPI = 7,         /* an MPI call failed */
  NAV_ERR_INTERNAL = 8     /* a broken internal invariant (a bug) */
} nav_err;

#endif
