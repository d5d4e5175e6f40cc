/* Inflow and outflow faces: the plane arrays that hold the velocity on them, the inflow profiles,
 * and the convective outflow with its global flux correction.
 *
 * Plane arrays: for each direction d with an inflow or outflow face and each component c, one
 * block array f->open[d][c]; layer 0 (low face) and n-1 (high face) of the blocks that touch the
 * face hold the component's value on the face (nav_kernels.h). The ghosts of u on such faces are
 * filled from them (nav_fill_velocity_ghosts), so an inflow face is a Dirichlet face with the
 * prescribed values and an outflow face a Dirichlet face whose values move with the flow. The
 * arrays are part of the run's state (nav_flow_state: "open_x_u", ...), so a restart continues
 * the outflow bit for bit.
 *
 * Inflow (set once): uniform (<face>_velocity), parabolic (<face>_velocity times 4 s (1 - s) along
 * each non-periodic tangential direction), file (a table along nav_profile_direction) or exact
 * (nav_flow_exact_velocity at t = 0). Outflow planes start from the analytic initial velocity, or 0.
 *
 * Each step, before the predictor (nav_open_advance), with u^n:
 *   1. every component on every outflow face: dv/dt + U_c dv/dn = 0 (nav_outflow_point: backward
 *      Euler, upwind), U_c = Q_in / A_out, the mean outflow speed that conservation demands
 *      (Q_in the net flux into the domain through the inflow faces, A_out the area of the
 *      outflow faces; 0 when nothing flows in);
 *   2. the flux correction: the outward normal velocity of every outflow face is shifted by one
 *      amount, (Q_in - Q_out) / A_out, so that Q_out = Q_in to round-off.
 * Then the sum of div u* over the domain is the net boundary flux, zero to round-off: the pressure
 * problem (homogeneous Neumann on inflow and outflow faces, as on walls) is compatible, and the
 * projected u^{n+1} keeps the boundary fluxes, so mass is conserved to round-off. */
#ifndef NAV_OPEN_H
#define NAV_OPEN_H

#include "solvers/nav_flow.h"

/* Allocate the plane arrays, fill them (inflow profiles, initial outflow values) and point
 * f->vbc.plane at them. After f->box and f->halo exist, before the initial ghost fill. Collective. */
nav_err nav_open_create(nav_flow *f);
void nav_open_destroy(nav_flow *f);
/* Steps 1 and 2 above, for a step of dt from u^n (ghosts filled). Collective; nothing without an
 * outflow face. */
nav_err nav_open_advance(nav_flow *f, double dt);
/* The volume flux through every inflow and outflow face, outward positive (0 on other faces). Collective. */
nav_err nav_open_fluxes(nav_flow *f, double flux[3][2]);
/* The case has an outflow face (whose values move every step). Not collective. */
int nav_open_outflow(const nav_flow *f);
/* Area of face (d, s) of the global domain. */
double nav_open_area(const nav_flow *f, int d);

#endif
