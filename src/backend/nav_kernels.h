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
/* Parameters of the artificial-compressibility updates (common/nav_point_ac.h). */
typedef struct nav_ac_params nav_ac_params;
/* Parameters of the immersed-boundary forcing (common/nav_point_ibm.h). */
typedef struct nav_ibm_params nav_ibm_params;
/* The stencils of the sharp-interface forcing (common/nav_point_ibm.h). */
typedef struct nav_ibm_stencils nav_ibm_stencils;

typedef enum nav_ghost_kind { NAV_GHOST_MIRROR, NAV_GHOST_PERIODIC, NAV_GHOST_FACE, NAV_GHOST_REFLECT } nav_ghost_kind;

/* The rule of every face of a block for fill_ghosts: kind[d][s] is NAV_GHOST_MIRROR (with
 * alpha, beta) or NAV_GHOST_PERIODIC (one block spans the period); skip[d] = 1 leaves the faces
 * of direction d alone (a halo exchange fills them afterwards). */
typedef struct nav_ghost_faces {
  nav_ghost_kind kind[3][2];
  nav_real alpha[3][2], beta[3][2];
  int skip[3];
} nav_ghost_faces;

/* The faces of one direction of up to three fields (the velocity components) for fill_ghost_dir:
 * side s of field x[c] is filled by fill_ghost's rule kind[s][c], alpha[s][c], beta[s][c] where
 * on[s][c] is set, and left alone elsewhere. */
typedef struct nav_ghost_dir {
  nav_real *x[3];
  nav_ghost_kind kind[2][3];
  nav_real alpha[2][3], beta[2][3];
  int on[2][3];
} nav_ghost_dir;

/* One message of a point-to-point exchange between the backend buffers of two ranks. */
typedef struct nav_p2p_msg {
  nav_real *buf; /* backend memory */
  size_t count;  /* values */
  int peer;      /* rank in the group */
  int send;      /* 1: send buf to peer, 0: receive buf from peer */
} nav_p2p_msg;

#define NAV_P2P_ID_BYTES 128 /* the opaque id that names a group (NCCL's unique id) */
#define NAV_FACES_MAX 4      /* fields of one copy_faces */
#define NAV_IPC_BYTES 64     /* an opaque CUDA IPC handle of an allocation */
#define NAV_IPC_MAX_PEERS 16 /* peers of one ipc_exchange */
#define NAV_IPC_MAX_COPIES 32 /* copies of one ipc_exchange */

/* One peer of an ipc_exchange. The flags are 64-bit counters in device memory, zero at the start:
 * the *_in ones are this rank's (written by the peer), the *_out ones the peer's, mapped here. */
typedef struct nav_ipc_peer {
  unsigned long long *arrive_out;      /* the peer's record of this rank's exchanges: set to epoch */
  const unsigned long long *arrive_in; /* this rank's record of the peer's exchanges */
  unsigned long long *done_out;        /* the peer's count of this rank's finished copy blocks */
  const unsigned long long *done_in;   /* this rank's count of the peer's finished copy blocks */
  unsigned long long epoch;            /* exchanges with the peer so far, this one included */
  unsigned long long received;         /* of those, the ones where this rank receives from the peer */
  int send, recv;                      /* does this exchange send to / receive from the peer? */
} nav_ipc_peer;

/* One copy of an ipc_exchange: count values from this rank's src into a peer's mapped dst. */
typedef struct nav_ipc_copy {
  nav_real *dst;
  const nav_real *src;
  size_t count;
} nav_ipc_copy;

/* The real-to-real transforms of the FFT Poisson solver along one direction (FFTW's r2r kinds and
 * their unnormalised definitions; "inverse" kinds undo the forward ones up to the factor 2N, or N
 * for the DFT): DCT2 = REDFT10 (Neumann faces), DCT3 = REDFT01 (its inverse), DST2 = RODFT10
 * (Dirichlet), DST3 = RODFT01, DCT4 = REDFT11 (Neumann low, Dirichlet high; its own inverse),
 * DST4 = RODFT11 (Dirichlet low, Neumann high), R2HC / HC2R (periodic: the DFT in halfcomplex
 * order, r_0 .. r_{N/2}, i_{(N+1)/2-1} .. i_1). */
typedef enum nav_fft_kind {
  NAV_FFT_DCT2, NAV_FFT_DCT3, NAV_FFT_DST2, NAV_FFT_DST3, NAV_FFT_DCT4, NAV_FFT_DST4, NAV_FFT_R2HC, NAV_FFT_HC2R
} nav_fft_kind;

/* The FFT solver's slabs (solvers/poisson/fft.c "slabs", nav_point_fft.h): the ranks split only the
 * last direction (dim - 1), every other direction is periodic or even and is transformed plane by
 * plane as the box is, and the last direction is solved by tridiagonal lines split over the ranks. */
typedef struct nav_fft_slab {
  int dim;                 /* 2 or 3 */
  int m[3];                /* the rank's block (m[2] = 1 in 2D); at least 3 rows along dim - 1 */
  int z0;                  /* its first global row along dim - 1 */
  int P, me;               /* the ranks along dim - 1, this one's place (0: the first rows) */
  int pin;                 /* two Neumann faces along dim - 1 and this rank holds the last row: the
                              lines of eigenvalue 0 (singular) are pinned to 0 there */
  const nav_real *tw[2];   /* plane directions: the box's twiddles (NULL: periodic) */
  const nav_real *lam[2];  /* their eigenvalues times S (lam[1] NULL in 2D) */
  const nav_real *a, *b, *c; /* the rows of L along dim - 1 times S, all N global rows */
  nav_real scale;          /* 2^(even plane directions) */
  int reps, ns;            /* representatives per plane, entries per block (2^(dim - 1)) */
  int nq;                  /* components of an entry's line: 1 where every plane direction is even (the X form
                              holds the real DCT coefficients: no imaginary part), else 2 (real, imaginary) */
  int chunks;              /* the rank's rows are cut into this many chunks of at least 3 rows */
  /* a singular problem (the lines pinned; nav_point_fft.h "the mean"), else NULL: */
  const nav_real *mean_u;  /* backend memory, the rank's rows: the weights of its sum of x dz, u = T_r^-T dz */
  const nav_real *mean_v1; /* backend memory, the rank's rows: the pinned line's response to ones */
  const nav_real *mean_pq; /* backend memory, 2 P values: each rank's Pw, Qw */
  double mean_w, mean_m1, mean_sigma; /* W = sum dz, M1 = sum v1 dz / W, n0 n1 / volume */
  double *mean;            /* backend memory, 3 doubles: the ranks' sum of b dV, sigma, the constant c */
} nav_fft_slab;

typedef struct nav_kernel_ops {
  const char *name;

  /* memory: backend allocations, copies between host and backend, and within the backend */
  nav_err (*alloc)(void **ptr, size_t bytes);
  void (*free)(void *ptr);
  nav_err (*to_host)(void *host, const void *src, size_t bytes);
  nav_err (*from_host)(void *dst, const void *host, size_t bytes);
  nav_err (*copy)(void *dst, const void *src, size_t bytes);
  /* A copy to the host that does not wait (a scalar read back later without stalling the host):
   * ordered after every kernel launched before it on the current stream, and complete once a later
   * call that waits for that stream has returned (sync, to_host, a reduction returning a host
   * double); host must come from alloc_host (page-locked on cuda, plain memory on cpu, where the
   * copy is done on return). */
  nav_err (*to_host_async)(void *host, const void *src, size_t bytes);
  nav_err (*alloc_host)(void **ptr, size_t bytes);
  void (*free_host)(void *ptr);
  /* optional (NULL on cpu): page-lock host memory allocated elsewhere (an MPI shared-memory window),
   * so that to_host and from_host on it run at the pinned speed; unregister before it is freed */
  nav_err (*host_register)(void *ptr, size_t bytes);
  void (*host_unregister)(void *ptr);
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
  /* Recorded launch sequences (CUDA graphs); NULL where the backend has none (cpu). graph_begin: the
   * launches, fills and copies within the backend that follow are recorded, not run, until graph_end,
   * which makes them one executable sequence in *exec (exec NULL: discarded; on an error in between the
   * recording is discarded and the error returned). Nothing may wait for the backend or copy to or from
   * the host in between. graph_launch runs a sequence on the main stream (ordered like a kernel);
   * graph_free releases it. The kernel arguments are recorded by value: a sequence stays valid while the
   * arrays and boxes it was recorded with do. */
  nav_err (*graph_begin)(void);
  nav_err (*graph_end)(void **exec);
  nav_err (*graph_launch)(void *exec);
  void (*graph_free)(void *exec);

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
  /* CUDA IPC between the processes of one node (the cuda-ipc transport, grid/nav_transport.c); NULL
   * where the backend has none. ipc_export: the handle (NAV_IPC_BYTES) of the allocation that holds
   * ptr, and ptr's byte offset in it. ipc_open: another process's allocation mapped into this one (kernels
   * and copy() read and write it; a handle is open at most once per process at a time), ipc_close: unmapped.
   * ipc_exchange: one exchange with npeer <= NAV_IPC_MAX_PEERS peers as ONE kernel on the current stream,
   * ordered after every kernel launched before it and before every kernel launched after it:
   *   1. set each peer's arrive_out to epoch (this rank's receive buffers and everything before are done
   *      with), and wait until arrive_in >= epoch for each peer sent to (its receive buffers are free);
   *   2. the ncopy <= NAV_IPC_MAX_COPIES copies (stores into the peers' memory), each block then adds 1 to
   *      done_out of each peer sent to;
   *   3. the last block waits until done_in >= received x the blocks of one exchange for each peer received
   *      from (the peer's copies into this rank have landed).
   * Every rank of an exchange must take part in it (a peer that never arrives is a hang). count: this
   * rank's own counter (device, zero at the start) of the finished blocks, that picks the last one. */
  nav_err (*ipc_export)(const void *ptr, void *handle, size_t *offset);
  nav_err (*ipc_open)(const void *handle, void **base);
  void (*ipc_close)(void *base);
  nav_err (*ipc_exchange)(const nav_ipc_peer *peer, int npeer, const nav_ipc_copy *copy, int ncopy,
                          unsigned long long *count);

  /* x = value at every point, ghosts included */
  nav_err (*set)(const nav_box *b, nav_real *x, nav_real value);
  /* ghost layer of face (dir, side), see nav_ghost_kind */
  nav_err (*fill_ghost)(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind, nav_real alpha,
                        nav_real beta);
  /* the ghost points of a cell-centred field in the directions not skipped, in one pass, faces as
   * in g: the values that fill_ghost of those faces in the order x, y, z gives, edges and corners
   * included, bit for bit (a ghost of a skipped direction is read as it is) */
  nav_err (*fill_ghosts)(const nav_box *b, nav_real *x, const nav_ghost_faces *g);
  /* the faces of direction dir of g's fields in one pass: bit for bit what fill_ghost of each face
   * that is on gives (the fields are distinct arrays, and the two sides of one field touch disjoint
   * points when n[dir] >= 2; below that the faces are filled one after the other) */
  nav_err (*fill_ghost_dir)(const nav_box *b, int dir, const nav_ghost_dir *g);
  /* halo exchange (grid/nav_halo.c): copy the plane `layer` (-1..n) of direction dir, ghost rows of
   * the other directions included, to (pack) or from (unpack) the contiguous backend buffer buf
   * of (n[t0]+2) x (n[t1]+2 in 3D, else 1) values, t0 < t1 the tangential directions, t0 fastest.
   * side is the face the plane belongs to (0 low, 1 high): informational, the layer decides. */
  nav_err (*pack_face)(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf);
  nav_err (*unpack_face)(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf);
  /* The same copies for nf <= NAV_FACES_MAX fields and both sides in one launch (the halo exchange): for each
   * side s with buf[s] != NULL, plane layer[s] of every field x[f] to (pack = 1) or from (pack = 0)
   * buf[s] + f * pts, pts the points of one plane as above. */
  nav_err (*copy_faces)(const nav_box *b, nav_real *const *x, int nf, int dir, const int layer[2],
                        nav_real *const buf[2], int pack);

  /* inflow and outflow faces (nav_point_open.h). The values of the velocity on an open face
   * (dir, side) live in a PLANE array: a block array whose layer 0 (side 0) or n-1 (side 1) along
   * dir holds, at each point (r, q) of the face (tangential ghost rows included), the value of a
   * component at the boundary face. */
  /* ghosts of face (dir, side) of component x from its plane: normal (x is component dir): the
   * boundary face = plane (side 0: also the ghost -1 = 2 plane - x_1); tangential: the ghost =
   * 2 plane - the adjacent interior value */
  nav_err (*fill_ghost_plane)(const nav_box *b, nav_real *x, int dir, int side, int normal, const nav_real *plane);
  /* convective outflow, backward Euler and upwind: plane = (plane + r x_a) / (1 + r) + shift at
   * every face point, x_a the interior value next to the face (normal: the face one cell inside,
   * r = rate / its distance df; tangential: the adjacent cell centre, r = rate / (df / 2));
   * rate = dt U_c; rate = 0 only shifts */
  nav_err (*outflow_update)(const nav_box *b, const nav_real *x, int dir, int side, int normal, nav_real rate,
                            nav_real shift, nav_real *plane);
  /* over the interior points of face (dir, side), area elements dA: *sum = sum x dA with x a plane
   * (what 0), or (what 1 + c) the integral of the inward normal derivative of the tangential
   * component x = u_c (ghosts filled), (x_adjacent - x_ghost) / (centre distance) at its faces,
   * by the trapezoidal rule along c */
  nav_err (*face_integral)(const nav_box *b, const nav_real *x, int dir, int side, int what, double *sum);
  /* sum over interior faces of x dV_c, x staggered in direction c */
  nav_err (*face_sum)(const nav_box *b, const nav_real *x, int c, double *sum);

  /* flow (nav_point_flow.h) */
  /* rhs_c = N_c(u) for every component c, interior faces; u needs filled ghosts */
  nav_err (*momentum_rhs)(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs);
  /* u_c = nav_ab2(u_c, a, rhs_c, c, rhs_old_c, c != 0) (a time-integration update), interior, every
   * component; rhs_old is not read when c == 0 */
  nav_err (*advance)(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                       nav_real a, nav_real c);
  /* momentum_rhs and advance in one pass, u left unchanged: at the interior faces of every component
   * N = N_c(u), rhs_c = N and rhs_old_c = nav_ab2(u_c, a, N, c, rhs_old_c, c != 0): the update u* is
   * written over rhs_old (each point of rhs_old is read before it is written; not read when c == 0),
   * bit for bit what momentum_rhs then advance put in rhs and u. u needs filled ghosts; u, rhs and
   * rhs_old are distinct arrays. */
  nav_err (*momentum_advance)(const nav_box *b, nav_real *const *u, nav_real nu, nav_real a, nav_real c,
                              nav_real *const *rhs, nav_real *const *rhs_old);
  /* div = scale * div u at the cells (div may be NULL); *max_abs = max |div u| (unscaled) if max_abs
   * != NULL; *sum = sum over the cells of div dV (the values written, summed in double as `sum`
   * does) if sum != NULL, with sum in BACKEND memory (written on the device, no host wait; a
   * reduction in a fixed order: the same inputs give the same bits). At most one of max_abs and
   * sum; sum needs div. */
  nav_err (*divergence)(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs,
                        double *sum);
  /* u_c -= scale * grad_c p, interior faces, every component; p needs filled ghosts */
  nav_err (*correct)(const nav_box *b, nav_real *const *u, const nav_real *p, nav_real scale);
  /* max over cells of the advective rate sum |u_d|/h_d and of the diffusive rate sum 1/h_d^2 */
  nav_err (*time_rates)(const nav_box *b, nav_real *const *u, double *adv_max, double *diff_max);
  /* sum over interior faces of 1/2 u_c^2 dV_c, every component */
  nav_err (*kinetic_energy)(const nav_box *b, nav_real *const *u, double *sum);
  /* sum[0] = sum of 2 S:S dV, sum[1] = sum of |omega|^2/2 dV over the block (nav_point_monitor.h); bit d
   * (3 + d) of bnd: the block's high (low) side along d is a non-periodic face of the global grid; u needs
   * filled ghosts */
  nav_err (*monitor_sums)(const nav_box *b, nav_real *const *u, int bnd, double sum[2]);

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

  /* k-omega SST (nav_point_sst.h): at the interior cells, out[0..7] = nu_t, F1, the diffusivities of k and
   * omega, their explicit parts q and implicit rates c (nav_sst_point, in that order) from u, k, w (ghosts
   * filled) and the wall distance wd; an out[i] that is NULL is not written (the update of nu_t asks for out[0]
   * only: 8 bytes a cell written instead of 64) */
  nav_err (*sst_cells)(const nav_box *b, nav_real *const *u, const nav_real *k, const nav_real *w, const nav_real *wd,
                       nav_real nu, nav_real *const *out);

  /* artificial compressibility (nav_point_ac.h): one stage x = x0 + alpha dtau R of the pseudo-time
   * march, local dtau from u0 (ghosts filled), a is a HOST struct. ac_momentum: u_c = u0_c + alpha
   * dtau (rhs_c - grad_c p) at the interior faces but the physical boundary faces, *res_max = max
   * |rhs_c - grad_c p| there (if not NULL); p needs filled ghosts. ac_cells: p = p0 - alpha dtau
   * beta^2 (div u - fp) (fp: a forcing, NULL = 0) and, if T != NULL, T = T0 + alpha dtau rhs_T at
   * the interior cells; res_max[0] = max |div u - fp|, res_max[1] = max |rhs_T| (0 without T), if
   * res_max != NULL. ac_restrict_faces: uc_c = the area-weighted average of the fine faces of each
   * interior coarse face (even fine counts); ac_prolong_faces_add: u_c += linear interpolation of
   * the coarse ec_c (ghosts filled) at the interior fine faces, every component. */
  nav_err (*ac_momentum)(const nav_box *b, nav_real *const *u, nav_real *const *u0, nav_real *const *rhs,
                         const nav_real *p, const nav_ac_params *a, double *res_max);
  nav_err (*ac_cells)(const nav_box *b, nav_real *const *u, nav_real *const *u0, nav_real *p, const nav_real *p0,
                      const nav_real *fp, nav_real *T, const nav_real *T0, const nav_real *rhs_T, const nav_ac_params *a,
                      double *res_max);
  /* ac_dissipation: rhs_c += nav_ac_dissipation(k) at the interior faces of every component and, if
   * T != NULL, rhs_T += nav_ac_dissipation_cell(k) at the interior cells (the coarse levels of the
   * pseudo-time multigrid); u and T need filled ghosts */
  nav_err (*ac_dissipation)(const nav_box *b, nav_real *const *u, const nav_real *T, nav_real k, nav_real *const *rhs,
                            nav_real *rhs_T);
  nav_err (*ac_restrict_faces)(const nav_box *fine, nav_real *const *u, const nav_box *coarse, nav_real *const *uc);
  nav_err (*ac_prolong_faces_add)(const nav_box *coarse, nav_real *const *ec, const nav_box *fine, nav_real *const *u);

  /* immersed bodies (nav_point_ibm.h): u_c += du (nav_ibm_force) at the interior faces of every component
   * where tag_c != 0; a is a HOST struct; q (ghosts filled) is read only if a->gscale != 0; v: the surface
   * velocity per face (rotating bodies) or NULL (the owner's velocity in a). sums != NULL: also
   * sums[3 k + c] = the local sum over the faces of body k of du dV_c (k < a->nbody, c < 3; the rest 0). */
  nav_err (*ibm_force)(const nav_box *b, nav_real *const *u, nav_real *const *tag, const nav_real *q,
                       nav_real *const *v, const nav_ibm_params *a, double *sums);
  /* sharp-interface forcing (nav_point_ibm.h): u_c[target] <- nav_ibm_sharp_value at every face of s (a HOST
   * struct of backend arrays), all values computed before any is written; u's ghosts must be current (sources
   * may be ghost faces). sums != NULL: also sums[3 k + c] = the local sum over the faces of body k of du dV_c
   * (the rest 0). */
  nav_err (*ibm_sharp)(nav_real *const *u, const nav_ibm_stencils *s, double *sums);

  /* Poisson (nav_point_poisson.h); x needs filled ghosts */
  nav_err (*laplacian)(const nav_box *b, const nav_real *x, nav_real *y); /* y = L x */
  /* r = rhs - L x; *rr = sum r^2 dV if rr != NULL */
  nav_err (*residual)(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr);
  /* inv_diag = 1 / diag(L) at every interior cell (set once per level) */
  nav_err (*inverse_diagonal)(const nav_box *b, nav_real *inv_diag);
  /* one Gauss-Seidel/SOR half sweep over the cells of one colour (0 red, 1 black), in place; a backend
   * may divide by the stencil's diagonal instead of reading inv_diag (CUDA: nav_relax with inv_diag = NULL) */
  nav_err (*relax_colour)(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                          nav_real omega);
  /* the first half sweep from x = 0 without reading x: the cells of the colour get nav_relax_from_zero, the
   * others 0, the ghosts are left as they are (set(x, 0) then relax_colour in one pass over the cells) */
  nav_err (*relax_first)(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                         nav_real omega);
  /* a whole red-black sweep, colour `first` then the other, from x into out (apart from x: a kernel reads x once and
   * writes out; the caller alternates the two), or with x = NULL from x = 0 (the first colour by
   * nav_relax_from_zero); out's interior is written whole, its ghosts are not (fill them after). The values of
   * relax_colour (or relax_first), the ghost fill, relax_colour, for a 3D block with nav_box.uniform and the plain
   * Poisson operator (no kc, sc, shift) whose ghosts hold the mirror rules of nav_fill_scalar_ghosts (no halo, no
   * periodic face: mg.c, nav_mg_wavefront). NULL on a backend without it (CPU). */
  nav_err (*relax_sweep)(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *out, int first,
                         nav_real omega);
  /* zebra line relaxation along direction dir of the lines of one colour (the parity of the global
   * indices in the other directions), in place (nav_relax_line); kind[2]: the low and high end of the
   * block's lines (+1 Neumann, -1 Dirichlet, 0 ghost kept); cp, dd: scratch arrays
   * (their contents afterwards unspecified: the CUDA backend works in shared memory, and in cp for long lines) */
  nav_err (*relax_line)(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                        int colour, const int kind[2], nav_real omega);
  /* nav_line_solve (mode 0, 1, 2) along direction dir on the lines of one colour (every line if
   * colour < 0) into out; ends (backend memory, may be NULL): the first and last value of line
   * l = ka + n[oa] kb (oa, ob: nav_line_others) at ends[2 l], ends[2 l + 1] */
  nav_err (*line_solve)(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out, int dir,
                        int colour, const int kind[2], int mode, nav_real *ends);
  /* nav_line_update on the lines of one colour, alpha = coef[2 l], beta = coef[2 l + 1] */
  nav_err (*line_update)(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                         const nav_real *coef, int dir, int colour, nav_real omega);
  /* damped Jacobi: x_new = x + omega (rhs - L x) / diag */
  nav_err (*jacobi)(const nav_box *b, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                    nav_real *x_new, nav_real omega);
  /* z = r / diag(L) (Jacobi preconditioner) */
  nav_err (*diag_scale)(const nav_box *b, const nav_real *inv_diag, const nav_real *r, nav_real *z);
  /* coarse rhs = volume-weighted average of the fine residual r */
  nav_err (*restrict_residual)(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs);
  /* coarse rhs = restrict_residual of the fine residual b - L x, that residual not stored (bit for bit
   * residual then restrict_residual); NULL on a backend without it (the CPU: the two calls) */
  nav_err (*residual_restrict)(const nav_box *fine, const nav_real *x, const nav_real *b, const nav_box *coarse,
                               nav_real *rhs);
  /* x += linear interpolation of the coarse xc (coarse ghosts filled) */
  nav_err (*prolong_add)(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x);
  /* The mixed-precision multigrid (solvers/poisson/mg.c; NULL on a backend without it, the CPU): the
   * outer residual r = rhs - L x of the nav_real iterate x, computed in nav_real and stored in float (the
   * next float cycle's right-hand side), *rr = sum r^2 dV of the unrounded r if rr != NULL; and the
   * update x += e of the iterate by the float correction e, at every point, ghosts included (the
   * homogeneous ghost rules are linear: x keeps valid ghosts when e's are filled). The other Poisson
   * entries above serve the float levels through nav_box.lo. */
  nav_err (*residual_lo)(const nav_box *b, const nav_real *x, const nav_real *rhs, float *r, double *rr);
  nav_err (*add_lo)(const nav_box *b, nav_real *x, const float *e);

  /* vector algebra and reductions over the interior (cell-centred fields unless stated) */
  nav_err (*axpby)(const nav_box *b, nav_real a, const nav_real *x, nav_real beta, nav_real *y); /* y = a x + beta y */
  nav_err (*dot)(const nav_box *b, const nav_real *x, const nav_real *y, double *sum);           /* sum x y dV */
  nav_err (*sum)(const nav_box *b, const nav_real *x, double *sum);                               /* sum x dV */
  nav_err (*shift)(const nav_box *b, nav_real *x, nav_real value);                                /* x += value */
  /* x_old = x and x = x + r (x - x_old) (the old x_old) in one pass: the initial guess of the next pressure solve
   * extrapolated linearly in time (solvers/nav_flow.c, nav_extrapolated) */
  nav_err (*extrapolate)(const nav_box *b, nav_real r, nav_real *x, nav_real *x_old);
  /* the interior of x <-> a dense array of n0 n1 n2 doubles (x fastest, backend memory): to_box = 1:
   * x = dense, 0: dense = x (the Poisson library's blocks in device memory, navier/poisson.h) */
  nav_err (*dense_copy)(const nav_box *b, nav_real *x, double *dense, int to_box);
  /* max |x - y| and max |x| over interior points (y may be NULL: max |x|); any point works for
   * faces too since the index range is the same; *bad = 1 if a value is NaN or Inf */
  nav_err (*max_abs_diff)(const nav_box *b, const nav_real *x, const nav_real *y, double *max_diff, double *max_x,
                          int *bad);

  /* FFT Poisson solver (solvers/poisson/fft.c, nav_point_fft.h); fft_plan is NULL where the backend
   * was built without an FFT library. Dense arrays: x fastest, m[0] x m[1] x m[2] values (m[2] = 1
   * in 2D). */
  /* the box of cnt points: dst[doff + i dst_st[0] + j dst_st[1] + k dst_st[2]] = src[soff + i sst[0] + ...];
   * src and dst do not overlap */
  nav_err (*copy_box)(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                      nav_idx doff, const nav_idx dst_st[3]);
  /* a plan of the transform `kind` along direction dir of every line of a dense m array, in place;
   * data is the array it will run on (planning may overwrite it) */
  nav_err (*fft_plan)(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **plan);
  nav_err (*fft_execute)(void *plan, nav_real *data);
  void (*fft_plan_free)(void *plan);
  /* optional (NULL: the build has no BLAS): the dense transform of a stretched direction (fft.c,
   * "two or three stretched directions"): a plan for direction dir of every line of a dense m array,
   * y_k = sum_i A[k][i] x_i with A the m[dir] x m[dir] matrix given as row-major host doubles (the
   * plan keeps its own copy in nav_real), applied in place as one matrix-matrix product (BLAS gemm,
   * cuBLAS on the GPU) */
  nav_err (*matrix_plan)(const int m[3], int dir, const double *A, void **plan);
  nav_err (*matrix_apply)(void *plan, nav_real *data);
  void (*matrix_plan_free)(void *plan);
  /* data = nav_fft_divide(data, lam[0][i] + lam[1][j] + lam[2][k]); lam[2] NULL in 2D */
  nav_err (*fft_divide)(const int m[3], const nav_real *const lam[3], nav_real *data);
  /* every line along dir: nav_fft_thomas with a, b, c (m[dir] values) and the shift of the other
   * directions' lam; lam[dir] is not read; work: a dense m array */
  nav_err (*fft_tridiag)(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a, const nav_real *b,
                         const nav_real *c, int singular, nav_real *data, nav_real *work);
  /* optional (NULL: the solver transforms direction by direction): one rank, every direction
   * periodic or even (two Neumann faces), the whole box in one multi-dimensional real-to-complex
   * transform (nav_point_fft.h, "the whole box"): plan once (*state NULL), then x = L^-1 b, b and x
   * with ghosts (first cell at off, strides st; they may be the same array), scratch a dense
   * m0 m1 m2 array. tw[d]: the twiddles of an even direction (NULL: periodic), lam[d] the
   * eigenvalues of nav_fft_direction (lam[2] NULL in 2D), scale = 2^(even directions); fft_box_free
   * releases the state. bsum (BACKEND memory, or NULL): the transform reads b + (nav_real)(-*bsum /
   * volume) instead of b, the mean of b removed on the way in (bsum = sum b dV, volume = sum dV; bit
   * for bit what shift of that value then fft_box give), b itself unchanged. */
  nav_err (*fft_box)(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3], nav_real scale,
                     const nav_real *b, const double *bsum, double volume, nav_real *x, nav_idx off,
                     const nav_idx st[3], nav_real *scratch, void **state);
  void (*fft_box_free)(void *state);
  /* optional (NULL: the solver moves pencils): slabs (nav_fft_slab, nav_point_fft.h "slabs").
   * fft_slab_forward: plan once (*state NULL; fft_box_free releases it), b (ghosts: first cell at
   * off, strides st) reordered into scratch (a dense m array) and transformed plane by plane into
   * the state's half spectrum, then ends = the ends of this rank's lines and, where sl->mean_u, its
   * sums: Gw and this rank's sum of b dV (*bsum, backend memory; 0 where bsum is NULL: b compatible)
   * (nav_fft_slab_part values, backend memory). fft_slab_inverse: with all = every rank's ends (P such
   * arrays in the order of the ranks' rows), the rank's rows of the lines solved (a singular problem:
   * b's mean removed and x's, in the spectrum) and transformed back into x (off, st; it may be b). */
  nav_err (*fft_slab_forward)(const nav_fft_slab *sl, const nav_real *b, const double *bsum, nav_idx off,
                              const nav_idx st[3], nav_real *scratch, nav_real *ends, void **state);
  nav_err (*fft_slab_inverse)(const nav_fft_slab *sl, const nav_real *all, nav_real *x, nav_idx off,
                              const nav_idx st[3], nav_real *scratch, void **state);
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
/* Free and total bytes of the device that backend `name` selected for this rank (after
 * nav_backend_get); returns 0, or -1 for a backend without device memory (cpu) or on failure. */
int nav_backend_device_memory(const char *name, size_t *free_bytes, size_t *total_bytes);

extern const nav_kernel_ops nav_kernel_ops_cpu;
/* Defined only when the CUDA backend is built (NAV_HAVE_CUDA); reach it through nav_backend_get("cuda"). */
extern const nav_kernel_ops nav_kernel_ops_cuda;

#ifdef __cplusplus
}
#endif

#endif
