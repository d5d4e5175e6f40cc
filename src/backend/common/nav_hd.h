/* NAV_HD marks a function compiled for both host and device: __host__ __device__ under nvcc,
 * nothing under the C compiler. Every numerical formula of navier is a static inline NAV_HD
 * point function in this folder, called by the CPU loops and by the CUDA kernels alike. */
#ifndef NAV_HD_H
#define NAV_HD_H

#ifdef __CUDACC__
#define NAV_HD __host__ __device__
#else
#define NAV_HD
#endif

#endif
