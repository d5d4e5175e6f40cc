#!/usr/bin/env python3
"""Taylor-Green vortex at Re 1600: the total dissipation eps(t) = dissipation + dissipation_sgs of
monitor.csv (resolved 2 nu <S:S> plus the modelled <2 nu_t S:S> of an LES closure, as the discrete stress
operator removes it; 0 without one)
against the spectral reference (shared/reference/tgv_re1600.csv: t, Ek, eps = -dEk/dt of a 512^3 DNS).

usage: tgv_les_compare.py [--tmax T] REFERENCE.csv LABEL=RUN_DIR [LABEL=RUN_DIR ...]
(--tmax: compare over [0, T] only, e.g. the time a run still going has reached, for every run alike)

A second table splits each distance over time windows (WINDOWS below): the mean of eps - eps_ref over each
window (in 1e-4) and the share of d^2 that falls before t = 10.

For each run: the L2 distance over t in [0, 20] (over [0, t_end] for a run that has not reached 20, and
marked so),
    d = sqrt( (1/20) int_0^20 (eps - eps_ref)^2 dt ),   and relative to sqrt((1/20) int eps_ref^2 dt),
with the run's eps interpolated linearly to the reference times and the trapezoidal rule; the peak
of eps and its time against the reference's, and the same for -dEk/dt of the run's kinetic_energy
(central differences) for comparison. Plain Python (no numpy). One table row per run, printed as markdown."""
import math
import sys

from csv_table import interp, table


def trapz(y, t):
    return sum(0.5 * (y[i] + y[i + 1]) * (t[i + 1] - t[i]) for i in range(len(t) - 1))


def l2(t, a, b, tmax=20):
    """sqrt((1/tmax) int_0^tmax (a - b)^2 dt) over the points with t <= tmax"""
    idx = [i for i in range(len(t)) if 0 <= t[i] <= tmax]
    tt = [t[i] for i in idx]
    return math.sqrt(trapz([(a[i] - b[i]) ** 2 for i in idx], tt) / tmax)


WINDOWS = [(4, 6), (6, 8), (8, 10), (10, 12), (12, 16), (16, 20)]


def windows_row(label, tr, e_i, er):
    """markdown row: the mean of e_i - er over each window of WINDOWS (1e-4) and the share of the squared
    distance (l2) before t = 10"""
    means = []
    for a, b in WINDOWS:
        idx = [i for i in range(len(tr)) if a <= tr[i] <= b]
        means.append(sum(e_i[i] - er[i] for i in idx) / len(idx))
    share = 10 * l2(tr, e_i, er, 10) ** 2 / (20 * l2(tr, e_i, er, 20) ** 2)
    return "| " + label + " | " + " | ".join(f"{1e4 * m:+.1f}" for m in means) + f" | {100 * share:.0f} % |"


def main():
    args = sys.argv[1:]
    limit = 20.0
    if args and args[0] == "--tmax":
        limit = float(args[1])
        args = args[2:]
    ref = table(args[0])
    tr, er = ref["t"], ref["eps"]
    norm = l2(tr, er, [0.0] * len(er))
    ip = max(range(len(er)), key=lambda i: er[i])
    print(f"reference: peak eps {er[ip]:.6f} at t = {tr[ip]:.2f}; L2 norm over [0, 20] {norm:.4e}")
    print("| run | L2(eps_total - ref) | relative | peak eps_total (t) | peak vs ref | "
          "L2(-dEk/dt - ref) | peak -dEk/dt (t) |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for arg in args[1:]:
        label, d = arg.split("=", 1)
        m = table(d + "/monitor.csv")
        t, ek = m["time"], m["kinetic_energy"]
        sgs = m.get("dissipation_sgs", [0.0] * len(t))
        eps = [a + b for a, b in zip(m["dissipation"], sgs)]
        # -dEk/dt: central differences inside, one-sided at the ends
        dk = [-(ek[min(i + 1, len(t) - 1)] - ek[max(i - 1, 0)]) / (t[min(i + 1, len(t) - 1)] - t[max(i - 1, 0)])
              for i in range(len(t))]
        e_i = [interp(x, t, eps) for x in tr]
        dk_i = [interp(x, t, dk) for x in tr]
        k = max(range(len(eps)), key=lambda i: eps[i])
        kd = max(range(len(dk)), key=lambda i: dk[i])
        tmax = min(limit, t[-1])  # a run still going: its part so far (the label says so)
        dist, distk = l2(tr, e_i, er, tmax), l2(tr, dk_i, er, tmax)
        norm_t = l2(tr, er, [0.0] * len(er), tmax)
        if tmax < limit:
            label += f" (t <= {tmax:.2f} only)"
        elif limit < 20:
            label += f" (t <= {limit:.2f})"
        print(f"| {label} | {dist:.4e} | {dist / norm_t:.3f} | {eps[k]:.6f} ({t[k]:.2f}) | "
              f"{100 * (eps[k] / er[ip] - 1):+.1f} % | {distk:.4e} | {dk[kd]:.6f} ({t[kd]:.2f}) |")
        if tmax >= 20:
            rows.append(windows_row(label, tr, e_i, er))
    if rows:
        print("\nmean of eps_total - eps_ref over time windows (1e-4), share of the squared distance before t = 10:")
        print("| run | " + " | ".join(f"t {a}-{b}" for a, b in WINDOWS) + " | share of d² before t = 10 |")
        print("|---" * (len(WINDOWS) + 2) + "|")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
