#!/usr/bin/env python3
"""The ratios of the peers of `bench/gpu.sh peers` to navier, same GPU, same call: CuPy's time over navier's
for each pair of solves of the same problem, and which is faster.

  periodic 256^3     cupy rfftn/irfftn solve        navier `bench poisson --solver fft --bc periodic`
  neumann 256^3      cupy dctn/idctn solve          navier `... --bc neumann` (FP64, and FP32 with the FP32 build)
  cg 128^3           cupy CG without preconditioner navier's FFT solve at 128^3 (a CuPy user's few lines against
                                                    navier's solver of the same size; the boundary types differ)

usage: peer_ratios.py BENCH_LOG PEERS_LOG     (bench/gpu.sh's $OUT/bench.log and $OUT/peers.log)"""
import json
import sys


def navier_ms(bench_log):
    """label -> solve ms of the `navier bench poisson` lines ("LABEL {json}") of bench.log."""
    out = {}
    for line in open(bench_log):
        brace = line.find("{")
        if brace <= 0:
            continue
        try:
            d = json.loads(line[brace:])
        except ValueError:
            continue
        if "solve_s" in d:
            out[line[:brace].strip()] = 1e3 * d["solve_s"]
    return out


def peers_ms(peers_log):
    """(solve, precision) -> ms of gpu_peers.py's JSON lines."""
    out = {}
    for line in open(peers_log):
        if line.startswith("{"):
            d = json.loads(line)
            out[(d["solve"], d["precision"])] = d["solve_ms"]
    return out


def main():
    nav, peer = navier_ms(sys.argv[1]), peers_ms(sys.argv[2])
    pairs = [("periodic 256^3 FP64", ("periodic", "float64"), "fp64_fft_256_periodic"),
             ("neumann 256^3 FP64", ("neumann", "float64"), "fp64_fft_256_neumann"),
             ("neumann 256^3 FP32", ("neumann", "float32"), "fp32_fft_256_neumann"),
             ("cg 128^3 FP64 vs navier fft 128^3", ("cg (no preconditioner)", "float64"), "fp64_fft_128_neumann")]
    print(f"{'problem':36s} {'cupy ms':>9s} {'navier ms':>10s} {'cupy / navier':>14s}")
    for name, pk, nk in pairs:
        if pk not in peer or nk not in nav:
            print(f"{name:36s} (not measured in this call)")
            continue
        r = peer[pk] / nav[nk]
        print(f"{name:36s} {peer[pk]:9.3f} {nav[nk]:10.3f} {r:13.2f}x  ({'navier' if r > 1 else 'cupy'} faster)")


if __name__ == "__main__":
    main()
