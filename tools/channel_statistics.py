#!/usr/bin/env python3
"""A turbulent channel's statistics (navier's [statistics] output) against a DNS reference, and the check that
an averaging window is long enough (its two halves agree).

usage: channel_statistics.py compare RUN_DIR REFERENCE.csv [--bands | --les-bands]
       channel_statistics.py halves FIRST_DIR FULL_DIR [--band PERCENT]

compare: RUN_DIR/statistics.csv (both walls folded, wall units) and RUN_DIR/summary.json `statistics` against a
reference profile of data/ (mkm1999_retau180.csv, leemoser2015_retau550.csv: columns y_over_delta,
y_plus, U_plus, uu_plus, vv_plus, ww_plus, uv_plus, from the wall to the centre). Printed: Re_tau (the reference's:
y_plus at the centre), C_f and U_b+ (the reference's: 2 / U_b+^2 and the trapezoidal mean of U_plus over y/delta in
[0, 1]), the largest relative deviation of U+ (the reference interpolated linearly in y+ at the run's y+) for
y+ <= 100 and up to the centre, and the peaks of u_rms+, v_rms+, w_rms+ and -uv+. --bands: exit 1 unless every
row is within the bands of the DNS validation (Re_tau 2 %, C_f 3 %, U+ 2 % for y+ <= 100 and 3 % to the centre,
each peak 5 %); --les-bands: those of the LES validation (Re_tau 3 %, U+ 4 % to the centre, the u_rms+ peak 10 %;
the other rows printed without a band). Without either the DNS bands are printed, not enforced.

halves: FIRST_DIR averaged over [t0, tm] (the first part of a run, to tm) and FULL_DIR over [t0, t1] (the same
run continued from its checkpoint at tm: the running sums go on). The second half's sums are the full window's
minus the first's (samples in summary.json), so its mean profile and wall shear follow without a second run. The
largest relative difference of U+ = U / u_tau (each half with its own u_tau) over every cell of the wall-normal
profile (DIR/statistics_profile.csv, both halves of the channel); --band (default 1): exit 1 above it. The same
difference with the cells of both walls averaged (a symmetric profile) is printed after it, without a band.
Plain Python (no numpy)."""
import json
import math
import os
import sys

from csv_table import interp, table


def statistics_of(run):
    with open(os.path.join(run, "summary.json")) as f:
        st = json.load(f).get("statistics")
    if not st or "u_tau" not in st:
        sys.exit(f"{run}/summary.json: no channel statistics (statistics.enabled = true on a channel)")
    return st


def rel(a, b):
    return (a - b) / abs(b)


# The bands of each validation: row name -> largest relative deviation (rows not named have none).
BANDS = {
    "dns": {"Re_tau": 0.02, "C_f": 0.03, "peak u_rms+": 0.05, "peak v_rms+": 0.05, "peak w_rms+": 0.05,
            "peak -uv+": 0.05, "max U+ deviation, y+ <= 100": 0.02, "max U+ deviation, to the centre": 0.03},
    "les": {"Re_tau": 0.03, "peak u_rms+": 0.10, "max U+ deviation, to the centre": 0.04},
}


def compare(run, reference, kind, enforce):
    st, prof, ref = statistics_of(run), table(os.path.join(run, "statistics.csv")), table(reference)
    yr, ur = ref["y_plus"], ref["U_plus"]
    re_ref = yr[-1]
    ub_ref = sum(0.5 * (ur[i] + ur[i + 1]) * (ref["y_over_delta"][i + 1] - ref["y_over_delta"][i])
                 for i in range(len(ur) - 1)) / (ref["y_over_delta"][-1] - ref["y_over_delta"][0])
    cf_ref = 2 / ub_ref**2
    band = BANDS[kind]
    rows = [("Re_tau", st["re_tau"], re_ref), ("C_f", st["cf"], cf_ref), ("U_b+", st["ub_plus"], ub_ref)]
    dev_inner = dev_all = 0.0
    at_inner = at_all = float("nan")
    for yp, up in zip(prof["y_plus"], prof["U_plus"]):
        if yp > yr[-1]:
            break
        d = abs(rel(up, interp(yp, yr, ur)))
        if d > dev_all:
            dev_all, at_all = d, yp
        if yp <= 100 and d > dev_inner:
            dev_inner, at_inner = d, yp
    peaks = []
    for name, col, sign in (("u_rms+", "uu_plus", 1), ("v_rms+", "vv_plus", 1), ("w_rms+", "ww_plus", 1),
                            ("-uv+", "uv_plus", -1)):
        run_peak = max(sign * x for x in prof[col])
        ref_peak = max(sign * x for x in ref[col])
        if sign > 0:
            run_peak, ref_peak = math.sqrt(run_peak), math.sqrt(ref_peak)
        peaks.append((f"peak {name}", run_peak, ref_peak))
    print(f"{run}: averaged over t = {st['start']:.6g} .. {st['end']:.6g} ({st['samples']:.0f} samples) against "
          f"{os.path.basename(reference)}")
    print("| quantity | run | reference | deviation | band |")
    print("|---|---:|---:|---:|---:|")
    ok = True
    def band_text(name, d):  # "" (no band), "B %" or "B % FAIL"
        b = band.get(name)
        return "" if b is None else f"{100 * b:.0f} %" + ("" if d <= b else " FAIL")

    for name, a, b in rows + peaks:
        text = band_text(name, abs(rel(a, b)))
        ok &= not text.endswith("FAIL")
        print(f"| {name} | {a:.5g} | {b:.5g} | {100 * rel(a, b):+.2f} % | {text} |")
    for name, d, at in (("max U+ deviation, y+ <= 100", dev_inner, at_inner),
                        ("max U+ deviation, to the centre", dev_all, at_all)):
        text = band_text(name, d)
        ok &= not text.endswith("FAIL")
        print(f"| {name} | at y+ = {at:.3g} | | {100 * d:.2f} % | {text} |")
    return 0 if ok or not enforce else 1


def second_half(s1, p1, sf, pf):
    """The mean streamwise profile U and the mean wall shear of the samples of the full window (summary sf,
    profile pf) that are not in the first (s1, p1): sums of the full window minus the first's (the wall
    shear is linear in the mean)."""
    n1, nf = s1["samples"], sf["samples"]
    tau1 = 0.5 * (s1["tau_w"][0] + s1["tau_w"][1])
    tauf = 0.5 * (sf["tau_w"][0] + sf["tau_w"][1])
    return [(nf * uf - n1 * u1) / (nf - n1) for u1, uf in zip(p1["U"], pf["U"])], (nf * tauf - n1 * tau1) / (nf - n1)


def halves(first, full, band):
    s1, sf = statistics_of(first), statistics_of(full)
    p1, pf = table(os.path.join(first, "statistics_profile.csv")), table(os.path.join(full, "statistics_profile.csv"))
    n1, nf = s1["samples"], sf["samples"]
    if not (nf > n1 > 0) or abs(s1["start"] - sf["start"]) > 1e-12 * max(1.0, abs(sf["start"])):
        sys.exit(f"halves: {full} must continue {first}'s window (same start, more samples): "
                 f"{s1['start']} / {sf['start']}, {n1:.0f} / {nf:.0f} samples")
    U2, tau2 = second_half(s1, p1, sf, pf)
    ut1, ut2 = math.sqrt(0.5 * (s1["tau_w"][0] + s1["tau_w"][1])), math.sqrt(tau2)
    worst, at = 0.0, float("nan")
    for y, U1, u2 in zip(p1["y"], p1["U"], U2):
        d = abs(rel(u2 / ut2, U1 / ut1))
        if d > worst:
            worst, at = d, y
    print(f"halves: t = {s1['start']:.6g} .. {s1['end']:.6g} ({n1:.0f} samples) and {s1['end']:.6g} .. "
          f"{sf['end']:.6g} ({nf - n1:.0f}): u_tau {ut1:.6f} / {ut2:.6f} ({100 * rel(ut2, ut1):+.2f} %), "
          f"Re_tau {s1['re_tau']:.2f} / {s1['re_tau'] * ut2 / ut1:.2f}; largest U+ difference {100 * worst:.2f} % "
          f"at y = {at:.4g} (band {band:g} %{'' if 100 * worst <= band else ': FAIL'})")
    # the same with the two walls' cells averaged (as compare's profile), printed only: a profile symmetric
    # about the centre (cell j and its mirror n - 1 - j at the same distance from their walls)
    y, n = p1["y"], len(p1["y"])
    width = y[0] + y[-1]
    if n > 1 and all(abs(y[j] + y[n - 1 - j] - width) <= 1e-9 * width for j in range(n)):
        fw, fat = 0.0, float("nan")
        for j in range(n // 2):
            d = abs(rel(0.5 * (U2[j] + U2[n - 1 - j]) / ut2, 0.5 * (p1["U"][j] + p1["U"][n - 1 - j]) / ut1))
            if d > fw:
                fw, fat = d, y[j]
        print(f"halves, both walls folded: largest U+ difference {100 * fw:.2f} % at y = {fat:.4g} (not a band)")
    return 0 if 100 * worst <= band else 1


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "compare":
        les = "--les-bands" in a[3:]
        return compare(a[1], a[2], "les" if les else "dns", les or "--bands" in a[3:])
    if len(a) >= 3 and a[0] == "halves":
        band = float(a[a.index("--band") + 1]) if "--band" in a else 1.0
        return halves(a[1], a[2], band)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
