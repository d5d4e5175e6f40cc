/* Field snapshots in the formats of [output] format: legacy VTK (rank 0 writes the gathered
 * global fields, io/nav_output.h), parallel HDF5 with XDMF (every rank writes its block,
 * io/nav_hdf5.h), or both. auto = hdf5 when navier is built with HDF5 (NAV_ENABLE_HDF5), else
 * vtk; the case-file check refuses hdf5 and both in a build without it. */
#ifndef NAV_SNAPSHOT_H
#define NAV_SNAPSHOT_H

#include "solvers/nav_flow.h"

/* Write the snapshot of f at its step. The caller refreshes the models' view first (nav_flow_view_sync: the
 * solvers own it); the models' snapshot fields are read through f->view. Collective; every rank returns the
 * same verdict. */
nav_err nav_snapshot_write(const char *dir, nav_flow *f);

/* The formats that cfg asks for, auto resolved: *vtk and *hdf5 set to 0 or 1. */
void nav_snapshot_formats(const nav_config *cfg, int *vtk, int *hdf5);

/* Run the plot tool on dir: tools/navier-plot with the Python that the build found with numpy,
 * matplotlib and h5py, or the program in $NAVIER_PLOT. A failure is a warning on stderr (returns
 * its exit status, 0 when it worked). Rank 0 only. */
int nav_plots_run(const char *dir);

/* `navier plot ARGS...`: replace this process by the plot tool with ARGS (the output folder and
 * optionally the kind), run by the same Python as nav_plots_run (so the tool works whichever
 * python3 comes first on the PATH). Returns only if the exec failed (exit status 1, reason on
 * stderr). Not collective; call before MPI_Init. */
int nav_plot_exec(int argc, char **argv);

#endif
