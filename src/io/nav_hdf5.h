/* Field snapshots in parallel HDF5, described for ParaView by an XDMF file.
 *
 * One file per output time, DIR/fields_<step>.h5 (written as .tmp, renamed when complete):
 *   /pressure, /velocity, /vorticity, ... : the cell-centred fields of io/nav_cellfields.h, as
 *     doubles of shape [nz][ny][nx] (2D: [ny][nx]), vectors with a last dimension of 3;
 *   /x, /y, /z (2D: /x, /y): the face coordinates of the grid (n + 1 each; any spacing);
 *   attributes "time" (double) and "step" (64-bit integer) on the root group.
 * Every rank writes its block as a hyperslab of each dataset with collective MPI-IO
 * (H5Pset_fapl_mpio, H5FD_MPIO_COLLECTIVE), so the file is that of one global grid.
 * DIR/fields.xmf: a temporal collection of every DIR/fields_<step>.h5 up to the current step
 * (rectilinear grid, cell-centred attributes), rewritten by rank 0 after each snapshot (via a
 * .tmp and rename), so it is valid even if the run dies. Built only with NAV_ENABLE_HDF5. */
#ifndef NAV_HDF5_H
#define NAV_HDF5_H

#include "solvers/nav_flow.h"

/* Write the snapshot of f at its step and rewrite DIR/fields.xmf. NAV_ERR_IO with the file name
 * and the HDF5 reason when a write fails. Collective. */
nav_err nav_hdf5_write(const char *dir, nav_flow *f);

/* Rewrite DIR/fields.xmf from the DIR/fields_<step>.h5 with step <= f->step (their time read back
 * from each file). Rank 0 only. */
nav_err nav_xdmf_write(const char *dir, const nav_flow *f);

#endif
