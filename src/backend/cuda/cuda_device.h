/* CUDA device query (plain C entry points, implemented in device.cu). */
#ifndef NAV_CUDA_DEVICE_H
#define NAV_CUDA_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of visible CUDA devices (0 if none or if the driver is missing). */
int nav_cuda_device_count(void);
/* Make device `index` current for this process (cudaSetDevice); 0 on success, -1 on failure. */
int nav_cuda_select_device(int index);
/* 1 if NCCL can be loaded for the nccl halo transport (p2p.cu), else 0 with the reason in why. */
int nav_cuda_p2p_available(char *why, int size);
/* Free and total bytes of the current device (cudaMemGetInfo); 0 on success, -1 on failure. */
int nav_cuda_memory_info(size_t *free_bytes, size_t *total_bytes);
/* One line per device into text: index, name, memory, compute capability. */
void nav_cuda_describe(char *text, int size);

#ifdef __cplusplus
}
#endif

#endif
