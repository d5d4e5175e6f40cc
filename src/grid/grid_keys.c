/* The keys of the grid layer and their cross-key checks: [grid] (the domain, its cells and their spacing,
 * grid/nav_spacing.h), [boundary] (the velocity condition of each face, its wall or inflow velocity and
 * inflow profile) and the [run] keys of the decomposition and the halo exchange (grid/nav_decomp.h,
 * grid/nav_transport.h). The registry of sections (solvers/nav_sections.c) lists them. */
#include "grid/grid_keys.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_comm.h"
#include "grid/nav_decomp.h"
#include "grid/nav_spacing.h"

static const char *const nav_transport_values[] = {"auto", "mpi", "cuda-aware", "nccl", "cuda-ipc", NULL};
static const char *const nav_overlap_values[] = {"on", "off", NULL};
static const char *const nav_spacing_values[] = {"uniform", "tanh", "geometric", "file", NULL};
static const char *const nav_cluster_values[] = {"both", "low", "high", NULL};
static const char *const nav_profile_values[] = {"uniform", "parabolic", "file", "exact", NULL};

/* The spacing keys of direction x, y or z (grid/nav_spacing.h has the formulas). */
#define NAV_SPACING_KEYS(x, d, n, l)                                                                                   \
  {"grid",                                                                                                             \
   #x "_spacing",                                                                                                      \
   NAV_KT_CHOICE,                                                                                                      \
   NAV_FIELD(spacing[d]),                                                                                              \
   "uniform",                                                                                                          \
   "Cell widths along " #x ": uniform, tanh (clustered at the walls: " #x "_gamma, " #x "_cluster), "                  \
   "geometric (growing by " #x "_ratio from one or both sides: " #x "_cluster) or file (the " n " + 1 "                \
   "face coordinates read from " #x "_file).",                                                                         \
   .values = nav_spacing_values},                                                                                      \
      {"grid",                                                                                                         \
       #x "_gamma",                                                                                                    \
       NAV_KT_REAL,                                                                                                    \
       NAV_FIELD(gamma[d]),                                                                                            \
       "2",                                                                                                            \
       "tanh spacing: the clustering gamma; both ends: " #x "_j = " #x "0 + " l "/2 (1 + tanh(gamma (2j/" n            \
       " - 1)) / tanh gamma), one end (low): " #x "0 + " l " (1 + tanh(gamma (j/" n " - 1)) / tanh gamma), "           \
       "(high): " #x "0 + " l " tanh(gamma j/" n ") / tanh gamma. Larger is finer at the walls.",                      \
       NAV_ABOVE(0)},                                                                                                  \
      {"grid",                                                                                                         \
       #x "_cluster",                                                                                                  \
       NAV_KT_CHOICE,                                                                                                  \
       NAV_FIELD(cluster[d]),                                                                                          \
       "both",                                                                                                         \
       "tanh and geometric spacing: where the smallest cells are: both (both ends), low (" #x " = " #x "0) "           \
       "or high (" #x " = " #x "0 + " l ").",                                                                          \
       .values = nav_cluster_values},                                                                                  \
      {"grid",                                                                                                         \
       #x "_ratio",                                                                                                    \
       NAV_KT_REAL,                                                                                                    \
       NAV_FIELD(ratio[d]),                                                                                            \
       "1.1",                                                                                                          \
       "geometric spacing: the ratio of successive cell widths, away from the " #x "_cluster side(s) (1 = "            \
       "uniform).",                                                                                                    \
       NAV_ABOVE(0)},                                                                                                  \
  {                                                                                                                    \
    "grid", #x "_file", NAV_KT_TEXT, NAV_FIELD(file[d]), "",                                                           \
        "file spacing: a text file of the " n " + 1 face coordinates along " #x ", one per line ('#' lines "           \
        "and blank lines skipped), strictly increasing from " #x "0 to " #x "0 + " l "; a relative path is "           \
        "taken from the case file's folder. tools/navier-grid writes one (a uniform block with growing "               \
        "outer parts).",                                                                                               \
        .values = NULL                                                                                                 \
  }

#define NAV_FACE(face, d, s, where)                                                                                    \
  {                                                                                                                    \
    "boundary", #face, NAV_KT_BC, NAV_FIELD(bc[d][s]), "wall",                                                         \
        "Boundary of the face " where ": wall (no slip), free_slip (no penetration, no shear stress), "                \
        "periodic (the opposite face must be periodic too), inflow (prescribed velocity: " #face                       \
        "_velocity shaped by " #face "_profile) or outflow (convective outflow du/dt + U_c du/dn = 0, "                \
        "U_c the mean outflow speed, with a global flux correction that conserves mass).",                             \
        .values = nav_bc_values                                                                                        \
  }
#define NAV_FACE_VELOCITY(face, d, s, def, tangential)                                                                 \
  {"boundary",                                                                                                         \
   #face "_velocity",                                                                                                  \
   NAV_KT_VEC3,                                                                                                        \
   NAV_FIELD(wall_velocity[d][s]),                                                                                     \
   def,                                                                                                                \
   "Velocity u,v,w of the " #face " wall (only the tangential components (" tangential                                 \
   ") may be non-zero), or of the inflow (the normal component is the inflow speed, signed "                           \
   "along the axis); 0,0,0 on the other faces.",                                                                       \
   NAV_ANY},                                                                                                           \
      {"boundary",                                                                                                     \
       #face "_profile",                                                                                               \
       NAV_KT_CHOICE,                                                                                                  \
       NAV_FIELD(inflow_profile[d][s]),                                                                                \
       "uniform",                                                                                                      \
       "Shape of the inflow velocity (inflow faces only): uniform (" #face "_velocity everywhere), "                   \
       "parabolic (" #face "_velocity times 4 s (1 - s) along each non-periodic tangential direction, "                \
       "s from 0 to 1 across the face: the peak value), file (the table " #face "_profile_file) or "                   \
       "exact (the analytic solution of physics.initial).",                                                            \
       .values = nav_profile_values},                                                                                  \
  {                                                                                                                    \
    "boundary", #face "_profile_file", NAV_KT_TEXT, NAV_FIELD(inflow_file[d][s]), "",                                  \
        "Inflow profile table of " #face "_profile = file: lines 'x u v' (2D) or 'x u v w' (3D), x "                   \
        "strictly increasing along the first non-periodic tangential direction and spanning the face "                 \
        "(linear interpolation; uniform along the other tangential direction); # starts a comment.",                   \
        .values = NULL                                                                                                 \
  }

/* [run]: how the ranks split the grid and exchange halos */
static const nav_key nav_halo_rows[] = {
    {"run", "halo_transport", NAV_KT_CHOICE, NAV_FIELD(halo_transport), "auto",
     "How halo planes travel between ranks: mpi (host buffers; a GPU backend stages them through the host), "
     "cuda-aware (MPI on device buffers, when the MPI library reports CUDA support), nccl (ncclSend/ncclRecv "
     "between GPUs; libnccl.so.2 is loaded at run time), cuda-ipc (the ranks of one node copy into each other's "
     "GPU buffers through CUDA IPC), or auto (on a GPU backend cuda-ipc when every rank is on one node, else nccl, "
     "else cuda-aware, else mpi; on the cpu backend mpi).",
     .values = nav_transport_values},
    {"run", "halo_overlap", NAV_KT_CHOICE, NAV_FIELD(halo_overlap), "off",
     "Overlap the halo exchange of the multigrid smoother with the work inside each block (on a GPU: the exchange "
     "on a second stream while the block's core is relaxed) on the levels with blocks of 32768 cells or more: on "
     "or off. The result is the same bit for bit; off is the default (docs/performance.md has the timings).",
     .values = nav_overlap_values},
    {"run", "decomposition", NAV_KT_DECOMP, NAV_FIELD(decomposition), "auto",
     "MPI ranks per direction px,py,pz (their product must be the number of ranks; pz = 1 in 2D; every block "
     "needs at least 2 cells per direction), or auto (MPI_Dims_create's counts, the most ranks to the direction of "
     "the most cells, between equal ones to the later direction: z slabs on a cube, which the FFT solver serves "
     "without transposes). Uneven splits are allowed: the first ranks of a direction get the extra cells.",
     .values = NULL},
};

static const nav_key nav_grid_rows[] = {
    {"grid", "dim", NAV_KT_INT, NAV_FIELD(dim), "2",
     "Number of space dimensions; in 2D there is no z direction (nz = 1, z faces ignored).", NAV_RANGE(2, 0, 3, 0)},
    {"grid", "nx", NAV_KT_INT, NAV_FIELD(nx), "128", "Number of cells in x.", NAV_RANGE(1, 0, 1 << 20, 0)},
    {"grid", "ny", NAV_KT_INT, NAV_FIELD(ny), "128", "Number of cells in y.", NAV_RANGE(1, 0, 1 << 20, 0)},
    {"grid", "nz", NAV_KT_INT, NAV_FIELD(nz), "1", "Number of cells in z (must be 1 when dim = 2).",
     NAV_RANGE(1, 0, 1 << 20, 0)},
    {"grid", "lx", NAV_KT_REAL, NAV_FIELD(lx), "1", "Domain length in x.", NAV_ABOVE(0)},
    {"grid", "ly", NAV_KT_REAL, NAV_FIELD(ly), "1", "Domain length in y.", NAV_ABOVE(0)},
    {"grid", "lz", NAV_KT_REAL, NAV_FIELD(lz), "1", "Domain length in z.", NAV_ABOVE(0)},
    {"grid", "x0", NAV_KT_REAL, NAV_FIELD(x0), "0", "Domain origin (lower corner) in x.", NAV_ANY},
    {"grid", "y0", NAV_KT_REAL, NAV_FIELD(y0), "0", "Domain origin (lower corner) in y.", NAV_ANY},
    {"grid", "z0", NAV_KT_REAL, NAV_FIELD(z0), "0", "Domain origin (lower corner) in z.", NAV_ANY},
    NAV_SPACING_KEYS(x, 0, "nx", "lx"),
    NAV_SPACING_KEYS(y, 1, "ny", "ly"),
    NAV_SPACING_KEYS(z, 2, "nz", "lz"),
};

static const nav_key nav_boundary_rows[] = {
    NAV_FACE(x_low, 0, 0, "x = x0"),
    NAV_FACE(x_high, 0, 1, "x = x0 + lx"),
    NAV_FACE(y_low, 1, 0, "y = y0"),
    NAV_FACE(y_high, 1, 1, "y = y0 + ly (the cavity lid)"),
    NAV_FACE(z_low, 2, 0, "z = z0 (3D only)"),
    NAV_FACE(z_high, 2, 1, "z = z0 + lz (3D only)"),
    NAV_FACE_VELOCITY(x_low, 0, 0, "0,0,0", "v, w"),
    NAV_FACE_VELOCITY(x_high, 0, 1, "0,0,0", "v, w"),
    NAV_FACE_VELOCITY(y_low, 1, 0, "0,0,0", "u, w"),
    NAV_FACE_VELOCITY(y_high, 1, 1, "1,0,0", "u, w"),
    NAV_FACE_VELOCITY(z_low, 2, 0, "0,0,0", "u, v"),
    NAV_FACE_VELOCITY(z_high, 2, 1, "0,0,0", "u, v"),
};

const nav_config_keys nav_halo_keys = NAV_CONFIG_KEYS(nav_halo_rows);
const nav_config_keys nav_grid_keys = NAV_CONFIG_KEYS(nav_grid_rows);
const nav_config_keys nav_boundary_keys = NAV_CONFIG_KEYS(nav_boundary_rows);

const nav_config_section nav_grid_section = {
    .name = "grid",
    .doc = "The domain, a box [x0, x0 + lx] x [y0, y0 + ly] x [z0, z0 + lz], and its grid of cells: uniform, or "
           "stretched per direction (tanh, geometric, or face coordinates from a file)."};
const nav_config_section nav_boundary_section = {
    .name = "boundary",
    .doc = "Velocity boundary condition of each face (the pressure has a zero normal gradient at walls, "
           "inflow and outflow faces; docs/design.md says why). An outflow face convects the velocity out "
           "with U_c, the mean speed of the outflow, and its normal velocity is corrected by one uniform "
           "amount per step so that the flux out equals the flux in: mass is conserved to round-off and "
           "the pressure problem is compatible."};

/* ---- cross-key checks (nav_rule_* document them in docs/case-file.md) ---- */

const char nav_rule_periodic_pairs[] =
    "Periodic faces come in pairs: `x_low` is periodic if and only if `x_high` is (same for y, and z in 3D).";

const char nav_rule_dim2[] = "With `dim = 2`, `nz` must be 1 and the z faces and their velocities are ignored.";

const char nav_rule_wall_velocity[] =
    "A wall may move only tangentially: the normal component of its velocity is 0 (`x_low_velocity = 0,v,w`).";

const char nav_rule_face_velocity[] =
    "On a periodic, free_slip or outflow face the velocity is `0,0,0` (it is not imposed there).";

void nav_check_dims(nav_config_check *ck, nav_config *c) {
  if (c->dim == 2 && c->nz != 1)
    nav_conflict(ck, nav_later(ck, nav_key_id(ck, "grid", "dim"), nav_key_id(ck, "grid", "nz")),
                 "nz = %d but a 2D case (dim = 2) needs nz = 1", c->nz);
}

void nav_check_periodic(nav_config_check *ck, nav_config *c) {
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++) {

    if ((c->bc[d][0] == NAV_BC_PERIODIC) == (c->bc[d][1] == NAV_BC_PERIODIC)) continue;
    const char *lo = nav_face_name(d, 0), *hi = nav_face_name(d, 1);
    const int open = c->bc[d][0] >= NAV_BC_INFLOW || c->bc[d][1] >= NAV_BC_INFLOW;
    nav_conflict(ck, nav_later(ck, nav_key_id(ck, "boundary", lo), nav_key_id(ck, "boundary", hi)),
                 open ? "%s is %s but %s is %s: inflow and outflow faces need a non-periodic direction"
                      : "periodic faces must be paired: %s is %s but %s is %s",
                 lo, nav_bc_values[c->bc[d][0]], hi, nav_bc_values[c->bc[d][1]]);
  }
}

/* The split over the computing ranks (nav_compute_comm; 1 before MPI_Init): the same verdict on every rank,
 * so a bad split exits 2 everywhere without communication (nav_decomp.c splits the same way). */
void nav_check_decomposition(nav_config_check *ck, nav_config *c) {
  const int dec = nav_key_id(ck, "run", "decomposition"), dim = nav_key_id(ck, "grid", "dim");
  const int N[3] = {c->nx, c->ny, c->dim == 3 ? c->nz : 1};
  const int nkey[3] = {nav_key_id(ck, "grid", "nx"), nav_key_id(ck, "grid", "ny"), nav_key_id(ck, "grid", "nz")};
  int size = 1, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_size(nav_compute_comm(), &size);
  int p[3] = {0, 0, c->dim == 3 ? 0 : 1};
  const int given = c->decomposition[0] > 0;
  if (given) {
    memcpy(p, c->decomposition, sizeof p);
    if (c->dim == 2 && p[2] > 1) {
      nav_conflict(ck, nav_later(ck, dim, dec), "pz = %d but a 2D case (dim = 2) cannot be split in z: use px,py,1",
                   p[2]);
      return;
    }
    if (p[0] * p[1] * p[2] != size) {
      nav_conflict(ck, nav_key_bad(ck, dec) ? -1 : dec, "%d x %d x %d = %d blocks, but the run has %d MPI rank(s)",
                   p[0], p[1], p[2], p[0] * p[1] * p[2], size);
      return;
    }
  } else if (!init) {
    p[0] = p[1] = p[2] = 1;
  } else if (nav_dims_auto(size, c->dim, N, p) != MPI_SUCCESS) {
    nav_conflict(ck, dec, "MPI_Dims_create cannot split %d ranks in %d directions", size, c->dim);
    return;
  }
  for (int d = 0; d < c->dim; d++)
    if (p[d] > 1 && N[d] / p[d] < NAV_DECOMP_MIN_CELLS)
      nav_conflict(ck, given ? (nav_key_bad(ck, dec) ? -1 : dec) : nav_later(ck, dec, nkey[d]),
                   "%d rank(s) along %c leave blocks of %d cell(s) of the %d; every block needs at least %d cells per "
                   "direction (the staggered face slots and the first multigrid coarsening): %s",
                   p[d], "xyz"[d], N[d] / p[d], N[d], NAV_DECOMP_MIN_CELLS,
                   given ? "use fewer ranks in this direction" : "set run.decomposition or run on fewer ranks");
}

/* [grid] spacing: the file key goes with spacing = file; the faces of each direction can be made (a face file
 * that cannot be read, has the wrong count, does not increase or does not span the domain is reported at
 * the key x_file, naming the face file and its line). */
void nav_check_grid(nav_config_check *ck, nav_config *c) {
  const int N[3] = {c->nx, c->ny, c->nz};
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++) {
    char name[32];
    snprintf(name, sizeof name, "%c_spacing", "xyz"[d]);
    const int sp = nav_key_id(ck, "grid", name);
    snprintf(name, sizeof name, "%c_file", "xyz"[d]);
    const int fk = nav_key_id(ck, "grid", name);
    const int is_file = !strcmp(c->spacing[d], "file");
    if (nav_key_bad(ck, sp) || nav_key_bad(ck, fk)) continue;
    if (is_file && !c->file[d][0]) {
      nav_conflict(ck, sp, "spacing = file needs the face file %c_file", "xyz"[d]);
      continue;
    }
    if (!is_file && c->file[d][0]) {
      nav_conflict(ck, nav_later(ck, sp, fk), "%c_file is given but %c_spacing = %s (not file)", "xyz"[d], "xyz"[d],
                   c -> spacing[d]);
      continue;
    }
    double *xf = malloc(((size_t)N[d] + 1) * sizeof *xf), *w = malloc((size_t)N[d] * sizeof *w);
    char why[400];
    if (!xf || !w)
      nav_conflict(ck, sp, "cannot allocate the %d faces", N[d] + 1);
    else if (nav_spacing_faces(c, d, xf, w, why, sizeof why))
      nav_conflict(ck, is_file ? fk : sp, "%s", why);
    free(xf);
    free(w);
  }
}

/* A wall moves only tangentially; no velocity on the faces that do not impose one. */
void nav_check_face_velocity(nav_config_check *ck, nav_config *c) {
  const int ndir = c->dim == 3 ? 3 : 2;
  int d, s;
  static const char component[3] = {'u', 'v', 'w'};
  for (d = 0; d < ndir; d++)
    for (s = 0; s < 2; s++) {
      const double *v = c->wall_velocity[d][s];
      char vname[32];
      snprintf(vname, sizeof vname, "%s_velocity", nav_face_name(d, s));
      int pair = nav_later(ck, nav_key_id(ck, "boundary", nav_face_name(d, s)), nav_key_id(ck, "boundary", vname));
      if (c->bc[d][s] == NAV_BC_WALL && v[d] != 0)
        nav_conflict(ck, pair,
                     "%s is a wall: the normal component %c of %s must be 0 (only tangential wall velocity), got %g",
                     nav_face_name(d, s), component[d], vname, v[d]);
      else if (c->bc[d][s] != NAV_BC_WALL && c->bc[d][s] != NAV_BC_INFLOW && (v[0] != 0 || v[1] != 0 || v[2] != 0))
        nav_conflict(ck, pair, "%s is %s: %s must be 0,0,0, got %g,%g,%g", nav_face_name(d, s),
                     nav_bc_values[c->bc[d][s]], vname, v[0], v[1], v[2]);
    }
}
