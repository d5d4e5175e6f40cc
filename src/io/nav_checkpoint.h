/* Checkpoints: the state of a run in one file that any rank count can read back.
 *
 * File DIR/checkpoint_<step>.nck (docs/design.md, "Checkpoint format"):
 *   - a 4096-byte text header (NUL-padded): magic "navier checkpoint", format version, bytes per
 *     real (precision) and byte order, step, time and the previous time step (C99 hex floats, so
 *     they read back to the bit), the state arrays (name and checksum each, nav_flow_state order),
 *     the case keys that change the solution (grid, domain, viscosity, boundaries and wall
 *     velocities, pressure solver: nav_checkpoint_keys in nav_checkpoint.c), the number of face
 *     coordinates, and a checksum of the header itself;
 *   - then each state array in turn: the interior points of the GLOBAL grid, x fastest, native
 *     reals;
 *   - then (format 2) the face coordinates of the grid, n_x + 1 then n_y + 1 (then n_z + 1) native
 *     doubles: a restart on other coordinates (spacing, stretching, face file) is refused;
 *   - then (format 4) the models' host blocks (nav_model.h host_state: the running sums of statistics), one
 *     per header line "host NAME COUNT CHECKSUM" in that order, COUNT native doubles each (written by rank 0,
 *     read by rank 0 and broadcast; CHECKSUM: FNV-1a of the bytes). A model of the case whose block is
 *     absent starts afresh; a block of another count is refused. Every rank writes and reads its block as a hyperslab (an MPI subarray file view,
 *     collective MPI-IO), so the file does not depend on the rank count or decomposition.
 * The checksum of an array is sum over points of mix(bits of the value, global index) mod 2^64
 * (mix: the splitmix64 finaliser), the same whichever ranks hold which points; any changed,
 * missing or moved value changes it (with probability 1 - 2^-64).
 * Writes go to NAME.tmp, which is renamed to NAME once complete and synced: a crash or a full
 * disk during a write leaves the previous checkpoints as they were. */
#ifndef NAV_CHECKPOINT_H
#define NAV_CHECKPOINT_H

#include <stddef.h>

#include "solvers/nav_flow.h"

/* Write the state of f to DIR/checkpoint_<step>.nck (via .tmp and rename), then delete all but
 * the newest f->cfg->checkpoint_keep checkpoints of DIR. Refuses (NAV_ERR_BLOWUP) to write a state
 * with a NaN or Inf, so the last good checkpoint stays; NAV_ERR_IO with the file name and the
 * reason when a write fails (the .tmp is removed). The written path is copied to path (n bytes)
 * when path is not NULL. Collective. */
nav_err nav_checkpoint_write(const char *dir, nav_flow *f, char *path, size_t n);

/* Load the checkpoint path into f (created from the same case, any rank count): t, step, dt_old
 * and the interior points of the state arrays; the caller then refills the ghosts and what depends
 * on the state (nav_flow_restored). Everything is checked before f changes: a file that
 * cannot be read, a wrong magic or version, a truncated or corrupt file (sizes, checksums), or a
 * checkpoint of another precision, grid or case fails with NAV_ERR_INPUT and a message naming the
 * file and what is wrong; f is then unchanged. Collective. */
nav_err nav_checkpoint_read(const char *path, nav_flow *f);

#endif
