/* Validation against reference data, computed from host copies of the fields.
 *
 * Cavity (Ghia et al. 1982, data/ghia1982.csv embedded in the binary): for a 2D square cavity
 * with one moving lid at y_high (velocity U in +x) and resting walls elsewhere, at
 * Re = U L / nu in {100, 400, 1000}: the maximum absolute deviation (in units of U) of u on
 * x = 0.5 L and of v on y = 0.5 L from the tabulated values, the staggered fields interpolated
 * bilinearly (ghost values carry the wall velocity) to the tabulated points. Entries flagged
 * SUSPECT_EXCLUDE in data/ghia1982_flags.csv are counted in `excluded` and left out.
 * Analytic (taylor_green, abc, uniform): max and RMS velocity error at the faces at the current
 * time; with an analytic temperature (nav_flow_exact_temperature) also its max and RMS error at
 * the cell centres. */
#ifndef NAV_VALIDATION_H
#define NAV_VALIDATION_H

#include <stdio.h>

#include "grid/nav_host_fields.h"
#include "solvers/nav_flow.h"

/* Gather the fields of every rank into global host copies on rank 0. Collective. */
nav_err nav_host_fields_fetch(nav_flow *f, nav_host_fields *h);
void nav_host_fields_free(nav_host_fields *h);

/* nav_host_interpolate_grid (grid/nav_host_fields.h) on the grid of f. */
double nav_host_interpolate(const nav_flow *f, const nav_host_fields *h, int c, const double x[3]);

typedef struct nav_validation {
  int cavity;          /* Ghia data apply */
  double re;
  double max_dev_u, max_dev_v;
  int points_u, points_v, excluded;
  int analytic;        /* analytic solution known */
  double err_max, err_rms;
  int t_analytic;      /* analytic temperature known (temperature initial = wave) */
  double t_err_max, t_err_rms; /* at the cell centres */
} nav_validation;

nav_err nav_validate(nav_flow *f, const nav_host_fields *h, nav_validation *v);
/* Write the "validation" object (without trailing comma) or nothing if no data apply. */
void nav_validation_json(const nav_validation *v, FILE *out);

#endif
