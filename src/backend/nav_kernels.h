/* The kernel interface: everything the algorithm asks of a backend.
 *
 * The time stepper, the projection and the Poisson solvers call only these function pointers;
 * backend/cpu (OpenMP) and backend/cuda fill the table with the same numerics, written once as
 * NAV_HD point functions in backend/common. All field pointers are backend memory (device
 * memory for CUDA) laid out as in nav_box.h; nav_box itself is passed by host pointer and its
 * metric arrays are backend memory. Kernels touch only local memory: ghost cells are filled by
 * fill_ghost (physical boundaries) or by the halo exchange of grid/ (neighbour ranks).
 * Reductions return the LOCAL partial result as a host double; callers reduce over ranks.
 * "Interior" means the owned points 0..n-1 in every direction. Every entry returns nav_err. */
#ifndef NAV_KERNELS_H
#define NAV_KERNELS_H

#include <stddef.h>

#include "backend/nav_box.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How fill_ghost sets the ghost layer of one face (dir, side) of a block:
 *   NAV_GHOST_MIRROR   x_ghost = alpha * x_adjacent + beta     (cell-centred in dir: Neumann alpha=1,
 *                                                               Dirichlet value V: alpha=-1, beta=2V)
 *   NAV_GHOST_PERIODIC x_ghost = x at the opposite end of the block (one block spans the period)
 *   NAV_GHOST_FACE     staggered in dir: the boundary face (index 0 low, n high) = beta; on the
 *                      low side the ghost -1 = 2 beta - x_1 (alpha unused)
 *   NAV_GHOST_REFLECT  staggered in dir, even about the boundary face: low side x_{-1} = x_1 (the
 *                      face 0 itself unchanged), high side x_n = x_{n-1} (alpha, beta unused; the
 *                      viscosity coefficient of a wall-normal velocity, nav_diffusion.h)
 * The whole face plane is set, ghost rows of the other directions included, so filling the
 * directions in order x, y, z makes edges and corners consistent. */
typedef enum nav_ghost_kind { NAV_GHOST_MIRROR, NAV_GHOST_PERIODIC, NAV_GHOST_FACE, NAV_GHOST_REFLECT } nav_ghost_kind;

/* The rule of every face of a block for fill_ghosts: kind[d][s] is NAV_GHOST_MIRROR (with
 * alpha, beta) or NAV_GHOST_PERIODIC (one block spans the period); skip[d] = 1 leaves the faces
 * of direction d alone (a halo exchange fills them afterwards). */
typedef struct nav_ghost_faces {
  nav_ghost_kind kind[3][2];
  nav_real alpha[3][2], beta[3][2];
  int skip[3];
} nav_ghost_faces;

/* One message of a point-to-point exchange between the backend buffers of two ranks. */
typedef struct nav_p2p_msg {
  nav_real *buf; /* backend memory */
  size_t count;  /* values */
  int peer;      /* rank in the group */
  int send;      /* 1: send buf to peer, 0: receive buf from peer */
} nav_p2p_msg;

#define NAV_P2P_ID_BYTES 128 /* the opaque id that names a group (NCCL's unique id) */

typedef struct nav_kernel_ops {
  const char *name;

  /* memory: backend allocations, copies between host and backend, and within the backend */
  nav_err (*alloc)(void **ptr, size_t bytes);
  void (*free)(void *ptr);
  nav_err (*to_host)(void *host, const void *src, size_t bytes);
  nav_err (*from_host)(void *dst, const void *host, size_t bytes);
  nav_err (*copy)(void *dst, const void *src, size_t bytes);
  /* wait until every kernel launched so far on the current stream has finished (profiling, and
   * MPI reading device buffers) */
  nav_err (*sync)(void);
  /* bytes of backend memory allocated now and at most so far (alloc minus free) */
  void (*memory)(size_t *current, size_t *peak);
  /* Two streams, so a halo exchange runs beside interior work; NULL where the backend runs
   * everything in order (cpu). stream_use(1): later launches and copies go to the side stream,
   * stream_use(0): back to the main stream; stream_fork: the side stream waits for everything
   * launched on the main stream so far; stream_join: the main stream waits for everything
   * launched on the side stream so far. to_host/from_host wait for the current stream only. */
  nav_err (*stream_use)(int side);
  nav_err (*stream_fork)(void);
  nav_err (*stream_join)(void);

  /* Device-to-device messages between ranks without the host (NCCL on cuda); NULL where the
   * backend has none. p2p_unique_id makes the id of a new group on one rank (the caller
   * broadcasts it); p2p_create joins that group as rank of size (collective over the group);
   * p2p_exchange posts msgs as one group of sends and receives, ordered after every kernel
   * launched before it and before every kernel launched after it; the messages between two
   * ranks match in the order they are posted. */
  nav_err (*p2p_unique_id)(void *id);
  nav_err (*p2p_create)(const void *id, int rank, int size, void **group);
  void (*p2p_destroy)(void *group);
  nav_err (*p2p_exchange)(void *group, const nav_p2p_msg *msgs, int n);

  /* x = value at every point, ghosts included */
  nav_err (*set)(const nav_box *b, nav_real *x, nav_real value);
  /* ghost layer of face (dir, side), see nav_ghost_kind */
  nav_err (*fill_ghost)(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind, nav_real alpha,
                        nav_real beta);
  /* the ghost points of a cell-centred field in the directions not skipped, in one pass, faces as
   * in g: the values that fill_ghost of those faces in the order x, y, z gives, edges and corners
   * included, bit for bit (a ghost of a skipped direction is read as it is) */
  nav_err (*fill_ghosts)(const nav_box *b, nav_real *x, const nav_ghost_faces *g);
  /* halo exchange (grid/nav_halo.c): copy the plane `layer` (-1..n) of direction dir, ghost rows of
   * the other directions included, to (pack) or from (unpack) the contiguous backend buffer buf
   * of (n[t0]+2) x (n[t1]+2 in 3D, else 1) values, t0 < t1 the tangential directions, t0 fastest.
   * side is the face the plane belongs to (0 low, 1 high): informational, the layer decides. */
  nav_err (*pack_face)(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf);
  nav_err (*unpack_face)(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf);

  /* flow (nav_point_flow.h) */
  /* rhs_c = N_c(u) for every component c, interior faces; u needs filled ghosts */
  nav_err (*momentum_rhs)(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs);
  /* u_c += a rhs_c + c rhs_old_c (a time-integration update), interior, every component;
   * rhs_old is not read when c == 0 */
  nav_err (*advance)(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                       nav_real a, nav_real c);
  /* div = scale * div u at the cells; *max_abs = max |div u| (unscaled) if max_abs != NULL */
  nav_err (*divergence)(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs);
  /* u_c -= scale * grad_c p, interior faces, every component; p needs filled ghosts */
  nav_err (*correct)(const nav_box *b, nav_real *const *u, const nav_real *p, nav_real scale);
  /* max over cells of the advective rate sum |u_d|/h_d and of the diffusive rate sum 1/h_d^2 */
  nav_err (*time_rates)(const nav_box *b, nav_real *const *u, double *adv_max, double *diff_max);
  /* sum over interior faces of 1/2 u_c^2 dV_c, every component */
  nav_err (*kinetic_energy)(const nav_box *b, nav_real *const *u, double *sum);

  /* variable viscosity (nav_point_viscous.h) */
  /* kf = nu + nu_t interpolated to the interior faces of component c; nut cell-centred, ghosts filled */
  nav_err (*face_viscosity)(const nav_box *b, int c, nav_real nu, const nav_real *nut, nav_real *kf);
  /* rhs_c += scale * (the parts `part` of the stress-form viscous term V_c) at the interior faces of
   * every component, with kf[c] the viscosity at the faces of c (ghosts filled); kf == NULL: k = 1 */
  nav_err (*stress)(const nav_box *b, nav_real *const *u, nav_real *const *kf, int part, nav_real scale,
                    nav_real *const *rhs);

  /* temperature (nav_point_scalar.h) */
  /* rhs = kappa lap T - div(u T) at the interior cells; u and T need filled ghosts */
  nav_err (*scalar_rhs)(const nav_box *b, nav_real *const *u, const nav_real *T, nav_real kappa, nav_real *rhs);
  /* rhs_c += -coef[c] (T at face - t_ref) at the interior faces of every component c with coef[c] != 0;
   * coef is a HOST array of 3; T needs filled ghosts */
  nav_err (*buoyancy)(const nav_box *b, const nav_real *T, const nav_real *coef, nav_real t_ref,
                      nav_real *const *rhs);

  /* Poisson (nav_point_poisson.h); x needs filled ghosts */
  nav_err (*laplacian)(const nav_box *b, const nav_real *x, nav_real *y); /* y = L x */
  /* r = rhs - L x; *rr = sum r^2 dV if rr != NULL */
  nav_err (*residual)(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr);
  /* inv_diag = 1 / diag(L) at every interior cell (set once per level) */
  nav_err (*inverse_diagonal)(const nav_box *b, nav_real *inv_diag);
  /* one Gauss-Seidel/SOR half sweep over the cells of one colour (0 red, 1 black), in place */
  nav_err (*relax_colour)(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                          nav_real omega);
  /* damped Jacobi: x_new = x + omega (rhs - L x) / diag */
  nav_err (*jacobi)(const nav_box *b, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                    nav_real *x_new, nav_real omega);
  /* z = r / diag(L) (Jacobi preconditioner) */
  nav_err (*diag_scale)(const nav_box *b, const nav_real *inv_diag, const nav_real *r, nav_real *z);
  /* coarse rhs = volume-weighted average of the fine residual r */
  nav_err (*restrict_residual)(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs);
  /* x += linear interpolation of the coarse xc (coarse ghosts filled) */
  nav_err (*prolong_add)(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x);

  /* vector algebra and reductions over the interior (cell-centred fields unless stated) */
  nav_err (*axpby)(const nav_box *b, nav_real a, const nav_real *x, nav_real beta, nav_real *y); /* y = a x + beta y */
  nav_err (*dot)(const nav_box *b, const nav_real *x, const nav_real *y, double *sum);           /* sum x y dV */
  nav_err (*sum)(const nav_box *b, const nav_real *x, double *sum);                               /* sum x dV */
  nav_err (*shift)(const nav_box *b, nav_real *x, nav_real value);                                /* x += value */
  /* max |x - y| and max |x| over interior points (y may be NULL: max |x|); any point works for
   * faces too since the index range is the same; *bad = 1 if a value is NaN or Inf */
  nav_err (*max_abs_diff)(const nav_box *b, const nav_real *x, const nav_real *y, double *max_diff, double *max_x,
                          int *bad);
} nav_kernel_ops;

/* The registered backends. nav_backend_get returns NULL for an unknown or unavailable name; for
 * a device backend it also selects the device of this rank: local_rank (the node-local rank,
 * nav_decomp_local_rank) modulo the device count, one rank per GPU. */
const nav_kernel_ops *nav_backend_get(const char *name, int local_rank);
/* Names of the backends compiled in, comma separated ("cpu, cuda"). */
const char *nav_backend_list(void);
/* 1 if backend `name` can send device-to-device messages (p2p_*: NCCL loads), else 0; why gets
 * the library or the reason. */
int nav_backend_p2p_available(const char *name, char *why, int size);
/* Devices on this node that backend `name` would use (0 for cpu, unknown or unavailable backends). */
int nav_backend_device_count(const char *name);

extern const nav_kernel_ops nav_kernel_ops_cpu;
/* Defined only when the CUDA backend is built (NAV_HAVE_CUDA); reach it through nav_backend_get("cuda"). */
extern const nav_kernel_ops nav_kernel_ops_cuda;

#ifdef __cplusplus
}
#endif

#endif
