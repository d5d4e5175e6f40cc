"""Time of one halo-sized exchange between the 2 GPUs of one host, both directions at once
(issue 16: the 2-GPU step's exchanges): NCCL send/receive in one group (the `nccl` transport), and a
copy-engine peer copy (cudaMemcpyPeerAsync), and a kernel of the cuda-ipc transport's shape storing into the peer's
memory (256 blocks of 512 threads, 16-byte stores, no flags: the copy part of its ipc_exchange), for the plane
sizes of the 256^3-per-GPU and 512^3 cavities (3 fields of 8-byte values) and the FFT slabs' ends.
Each figure: the mean of 200 exchanges issued back to back and synchronized at the end, in
microseconds. NCCL reads its environment (NCCL_*) at the communicators' creation.
usage (device, 2 GPUs; part transports of bench/gpu_x2_round.sh): python3 bench/p2p_latency.py [LABEL]"""
import sys
import time

import cupy as cp
from cupy.cuda import nccl

label = sys.argv[1] if len(sys.argv) > 1 else "default"
sizes = {"plane 256^2 x 3": 256 * 256 * 3 * 8, "plane 512^2 x 3": 512 * 512 * 3 * 8,
         "slab ends 256^3": 256 * 129 * 8 * 8, "slab ends 512^3": 512 * 257 * 8 * 8}
reps = 200
bufs = []
for d in (0, 1):
    with cp.cuda.Device(d):
        n = max(sizes.values())
        bufs.append((cp.ones(n // 8), cp.zeros(n // 8), cp.cuda.Stream(non_blocking=True)))
for d in (0, 1):
    with cp.cuda.Device(d):
        try:
            cp.cuda.runtime.deviceEnablePeerAccess(1 - d)
        except cp.cuda.runtime.CUDARuntimeError:
            pass
comms = nccl.NcclCommunicator.initAll([0, 1])
stores = r"""extern "C" __global__ void stores(uint4 *dst, const uint4 *src, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}"""
kernels = []
for d in (0, 1):
    with cp.cuda.Device(d):
        kernels.append(cp.RawKernel(stores, "stores"))


def sync():
    for d in (0, 1):
        with cp.cuda.Device(d):
            bufs[d][2].synchronize()


def timed(fn):
    fn()
    sync()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t) / reps * 1e6


for name, nbytes in sizes.items():
    count = nbytes // 8

    def nccl_exchange():
        nccl.groupStart()
        for d in (0, 1):
            s, r, st = bufs[d]
            comms[d].send(s.data.ptr, count, nccl.NCCL_FLOAT64, 1 - d, st.ptr)
            comms[d].recv(r.data.ptr, count, nccl.NCCL_FLOAT64, 1 - d, st.ptr)
        nccl.groupEnd()

    def peer_exchange():
        for d in (0, 1):
            with cp.cuda.Device(d):
                s, _, st = bufs[d]
                cp.cuda.runtime.memcpyPeerAsync(bufs[1 - d][1].data.ptr, 1 - d, s.data.ptr, d, nbytes, st.ptr)

    def kernel_exchange():
        for d in (0, 1):
            with cp.cuda.Device(d):
                s, _, st = bufs[d]
                kernels[d]((256,), (512,), (bufs[1 - d][1], s, cp.uint64(nbytes // 16)), stream=st)

    print("%-10s %-18s %8.1f KB: nccl %7.1f us, peer copy %7.1f us, kernel stores %7.1f us" %
          (label, name, nbytes / 1024, timed(nccl_exchange), timed(peer_exchange), timed(kernel_exchange)), flush=True)
