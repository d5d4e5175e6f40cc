/* The kernel interface: everything the algorithm asks of a backend.
 *
 * The time stepper, the projection and the Poisson solvers call only these function pointers (the
 * models' kernels and those of the FFT and multigrid solvers are in their tables beside this one:
 * nav_backend_kernels);
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
#define NAV_FACE_INTEGRALS_MAX 4 /* sums of one face_integral: two sides times two tangential components */
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

  /* inflow and outflow faces: the plane arrays' own kernels are in nav_open_kernels.h */
  /* over the interior points of the faces (dir, side[k]) of one direction, area elements dA, for k < n
   * (1 <= n <= NAV_FACE_INTEGRALS_MAX): sums[k] = sum x[k] dA with x[k] a plane (what[k] 0), or (what[k] 1 + c)
   * the integral of the inward normal derivative of the tangential component x[k] = u_c (ghosts filled),
   * (x_adjacent - x_ghost) / (centre distance) at its faces, by the trapezoidal rule along c. All n in one
   * pass and one host wait; each sums[k] bit for bit what n = 1 gives. */
  nav_err (*face_integral)(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side, const int *what,
                           double *sums);
  /* The same sums left in backend memory, without a host wait: sums[k] into *out[k] (a device double on CUDA),
   * each bit for bit face_integral's on the same backend. CUDA: one launch, finished by its last block (a block
   * counter of the backend: calls run in stream order, never two at once). */
  nav_err (*face_integral_to)(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                              const int *what, double *const *out);
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
  /* max over cells of the advective rate sum |u_d|/h_d, of the diffusive rate sum 1/h_d^2 and of nut (cell-centred,
   * or NULL: *nut_max = 0), in one pass and one host wait (the eddy viscosity's time-step limit rides on it) */
  nav_err (*time_rates)(const nav_box *b, nav_real *const *u, const nav_real *nut, double *adv_max, double *diff_max,
                        double *nut_max);
  /* sum over interior faces of 1/2 u_c^2 dV_c, every component */
  nav_err (*kinetic_energy)(const nav_box *b, nav_real *const *u, double *sum);


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
} nav_kernel_ops;

/* The registered backends. nav_backend_get returns NULL for an unknown or unavailable name; for
 * a device backend it also selects the device of this rank: local_rank (the node-local rank,
 * nav_decomp_local_rank) modulo the device count, one rank per GPU. */
const nav_kernel_ops *nav_backend_get(const char *name, int local_rank);
/* The kernel table `table` of a model or a solver ("heat", "sst", "ac", "ibm", "fft", "mg", ...:
 * backend/nav_<table>_kernels.h, each with a typed accessor) of the backend whose core table is ops, or NULL where that
 * backend has none. The core table above holds fields, stencils, vectors, memory and transports; a model's kernels (and
 * those only one Poisson solver calls) live in its own table, registered beside the core table in
 * backend/nav_backend.c. Not collective. */
const void *nav_backend_kernels(const nav_kernel_ops *ops, const char *table);
/* In the header of a table type T registered as `table`: the backends' instances T_cpu and T_cuda (the
 * latter defined only when the CUDA backend is built) and the typed accessor T_of(ops) (NULL: none). */
#define NAV_KERNEL_TABLE(T, table)                                                                                   \
  extern const T T##_cpu;                                                                                            \
  extern const T T##_cuda;                                                                                           \
  static inline const T *T##_of(const nav_kernel_ops *ops) { return (const T *)nav_backend_kernels(ops, table); }
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
