/* The CUDA backend's kernel table (registered by name in backend/nav_backend.c). Entries in
 * the order of struct nav_kernel_ops (C++ designated initializers must follow it). */
#include "backend/cuda/cuda_kernels.h"

/* Face pack/unpack of the halo exchange (boundary.cu). */
nav_err nav_pack_face_cuda(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf);
nav_err nav_unpack_face_cuda(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf);
nav_err nav_copy_faces_cuda(const nav_box *b, nav_real *const *x, int nf, int dir, const int layer[2],
                            nav_real *const buf[2], int pack);

/* Device-to-device messages through NCCL (p2p.cu). */
nav_err nav_p2p_unique_id_cuda(void *id);
nav_err nav_p2p_create_cuda(const void *id, int rank, int size, void **group);
void nav_p2p_destroy_cuda(void *group);
nav_err nav_p2p_exchange_cuda(void *group, const nav_p2p_msg *msgs, int n);
/* CUDA IPC (p2p.cu). */
nav_err nav_ipc_export_cuda(const void *ptr, void *handle, size_t *offset);
nav_err nav_ipc_open_cuda(const void *handle, void **base);
void nav_ipc_close_cuda(void *base);
nav_err nav_ipc_exchange_cuda(const nav_ipc_peer *peer, int npeer, const nav_ipc_copy *copy, int ncopy,
                              unsigned long long *count);

extern "C" const nav_kernel_ops nav_kernel_ops_cuda = {
    .name = "cuda",
    .alloc = nav_alloc_cuda,
    .free = nav_free_cuda,
    .to_host = nav_to_host_cuda,
    .from_host = nav_from_host_cuda,
    .copy = nav_copy_cuda,
    .to_host_async = nav_to_host_async_cuda,
    .alloc_host = nav_alloc_host_cuda,
    .free_host = nav_free_host_cuda,
    .host_register = nav_host_register_cuda,
    .host_unregister = nav_host_unregister_cuda,
    .sync = nav_sync_cuda,
    .memory = nav_memory_cuda,
    .stream_use = nav_stream_use_cuda,
    .stream_fork = nav_stream_fork_cuda,
    .stream_join = nav_stream_join_cuda,
    .graph_begin = nav_graph_begin_cuda,
    .graph_end = nav_graph_end_cuda,
    .graph_launch = nav_graph_launch_cuda,
    .graph_free = nav_graph_free_cuda,
    .p2p_unique_id = nav_p2p_unique_id_cuda,
    .p2p_create = nav_p2p_create_cuda,
    .p2p_destroy = nav_p2p_destroy_cuda,
    .p2p_exchange = nav_p2p_exchange_cuda,
    .ipc_export = nav_ipc_export_cuda,
    .ipc_open = nav_ipc_open_cuda,
    .ipc_close = nav_ipc_close_cuda,
    .ipc_exchange = nav_ipc_exchange_cuda,
    .set = nav_set_cuda,
    .fill_ghost = nav_fill_ghost_cuda,
    .fill_ghosts = nav_fill_ghosts_cuda,
    .fill_ghost_dir = nav_fill_ghost_dir_cuda,
    .pack_face = nav_pack_face_cuda,
    .unpack_face = nav_unpack_face_cuda,
    .copy_faces = nav_copy_faces_cuda,
    .face_integral = nav_face_integral_cuda,
    .face_integral_to = nav_face_integral_to_cuda,
    .face_sum = nav_face_sum_cuda,
    .momentum_rhs = nav_momentum_rhs_cuda,
    .advance = nav_advance_cuda,
    .momentum_advance = nav_momentum_advance_cuda,
    .divergence = nav_divergence_cuda,
    .correct = nav_correct_cuda,
    .time_rates = nav_time_rates_cuda,
    .kinetic_energy = nav_kinetic_energy_cuda,
    .laplacian = nav_laplacian_cuda,
    .residual = nav_residual_cuda,
    .inverse_diagonal = nav_inverse_diagonal_cuda,
    .relax_colour = nav_relax_colour_cuda,
    .jacobi = nav_jacobi_cuda,
    .diag_scale = nav_diag_scale_cuda,
    .restrict_residual = nav_restrict_residual_cuda,
    .prolong_add = nav_prolong_add_cuda,
    .axpby = nav_axpby_cuda,
    .dot = nav_dot_cuda,
    .sum = nav_sum_cuda,
    .shift = nav_shift_cuda,
    .extrapolate = nav_extrapolate_cuda,
    .dense_copy = nav_dense_copy_cuda,
    .max_abs_diff = nav_max_abs_diff_cuda,
};
