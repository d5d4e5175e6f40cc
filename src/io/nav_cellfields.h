/* Cell-centred output fields, computed from host copies of a block's staggered fields.
 *
 * One list names every field that snapshots hold (pressure, velocity, vorticity, ...), with its
 * number of components and the function that gives its value at a cell; the HDF5 writer writes
 * the list, the XDMF file describes it and the VTK writer uses the same point functions, so each
 * formula exists once. A new cell-centred field (temperature) is one more line in
 * nav_cell_fields (nav_cellfields.c).
 *
 * Formulas (cell (i,j,k) of a block whose ghosts are filled: halo exchange and boundaries):
 *   velocity  u_c = (u_c(face i) + u_c(face i+1)) / 2 along c (components beyond dim are 0);
 *   vorticity omega = curl u from central differences of the centre velocities over the distance
 *             of the neighbouring centres (through the ghost cells at the boundary);
 *             2D: the z component; 3D: the vector, and its magnitude as a field of its own. */
#ifndef NAV_CELLFIELDS_H
#define NAV_CELLFIELDS_H

#include "solvers/nav_flow.h"

/* A block's host data: box (b->g0 its place in the global grid, ghosts included in the arrays). */
typedef struct nav_cell_input {
  const nav_flow *f; /* global grid: dim, widths f->w */
  const nav_box *b;
  const nav_real *u[3]; /* staggered velocity components */
  const nav_real *p;    /* pressure */
  const nav_real *T;    /* temperature, NULL without one */
} nav_cell_input;

#define NAV_CELL_MAX_FIELDS 8
typedef struct nav_cell_field {
  const char *name;                                                          /* dataset name */
  int ncomp;                                                                 /* 1 (scalar) or 3 (vector) */
  void (*value)(const nav_cell_input *in, int i, int j, int k, double *out); /* local indices */
} nav_cell_field;

/* The cell-centred fields of a snapshot of f, in output order; returns their count. */
int nav_cell_fields(const nav_flow *f, nav_cell_field out[NAV_CELL_MAX_FIELDS]);

/* The point functions (out: 3 values; local cell indices). */
void nav_cell_velocity(const nav_cell_input *in, int i, int j, int k, double *out);
void nav_cell_vorticity(const nav_cell_input *in, int i, int j, int k, double *out);

#endif
