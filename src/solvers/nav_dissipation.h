/* The turbulence monitors of a 3D run (monitor.csv columns dissipation, enstrophy): the volume averages
 *   eps = 2 nu <S_ij S_ij>   and   <|omega|^2> / 2   (the enstrophy with the factor 1/2),
 * discretised in backend/common/nav_point_monitor.h. With a discretely solenoidal periodic field
 * eps = 2 nu enstrophy, and eps is the rate at which the explicit viscous term removes kinetic energy. nu is
 * the molecular viscosity alone: the part of an eddy viscosity nu_t (a modelled dissipation) is not in it. */
#ifndef NAV_DISSIPATION_H
#define NAV_DISSIPATION_H

#include "solvers/nav_flow.h"

/* eps and the enstrophy of the current velocity (ghosts filled, as after a step). Collective. */
nav_err nav_flow_dissipation(nav_flow *f, double *eps, double *enstrophy);

#endif
