#!/usr/bin/env python3
"""Scaling figures from `bench/scaling.sh gpu`: efficiency against GPU count.

usage: plot_scaling.py SCALING.jsonl OUT.png
Time of a run: step_s (navier bench step) or solve_s (navier bench poisson). For each mode and
case the reference is the 1-GPU run; weak efficiency = t1 / tG (the work grows with G), strong
efficiency = t1 / (G tG), speed-up = t1 / tG. Prints a Markdown table of every run (failed ones
with their exit status) and the best configuration per case and GPU count; draws one line per
case, decomposition kind and transport (weak and strong side by side)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def seconds(run):
    r = run.get("result") or {}
    return r.get("step_s", r.get("solve_s"))


def main(path, png):
    runs = [json.loads(line) for line in open(path) if line.strip()]
    ref = {}
    for r in runs:
        if r["gpus"] == 1 and seconds(r):
            ref.setdefault((r["mode"], r["case"]), seconds(r))
    print("| mode | case | GPUs | decomposition | kind | transport | overlap | time ms | ns/cell/step | efficiency | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    best = {}
    for r in runs:
        t, t1 = seconds(r), ref.get((r["mode"], r["case"]))
        row = [r["mode"], r["case"], str(r["gpus"]), r["decomposition"], r["kind"], r["transport"], r["overlap"]]
        if not t or not t1:
            print("| " + " | ".join(row) + f" | {r.get('status', 'failed')} (exit {r['exit']}) | | | |")
            continue
        g = r["gpus"]
        eff = t1 / t if r["mode"] == "weak" else t1 / (g * t)
        r["efficiency"], r["speedup"] = eff, t1 / t
        ns = (r.get("result") or {}).get("ns_per_cell_step")
        print("| " + " | ".join(row) + f" | {1e3 * t:.2f} | {ns if ns is not None else '-'} | {eff:.3f} | {t1 / t:.2f} |")
        key = (r["mode"], r["case"], g)
        if key not in best or eff > best[key]["efficiency"]:
            best[key] = r
    print("\nBest configuration per case and GPU count:\n")
    print("| mode | case | GPUs | decomposition | transport | overlap | efficiency | speed-up |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(best):
        r = best[key]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {r['decomposition']} | {r['transport']} | {r['overlap']} | "
              f"{r['efficiency']:.3f} | {r['speedup']:.2f} |")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, mode in zip(axes, ("weak", "strong")):
        lines = {}
        for r in runs:
            if r["mode"] != mode or "efficiency" not in r:
                continue
            label = f"{r['case']} {r['kind']} {r['transport']}" + ("" if r["overlap"] == "off" else f" overlap {r['overlap']}")
            if r["gpus"] == 1:
                continue
            lines.setdefault(label, {})[r["gpus"]] = r["efficiency"]
        for label, pts in sorted(lines.items()):
            gs = [1] + sorted(pts)
            ax.plot(gs, [1.0] + [pts[g] for g in gs[1:]], marker="o", label=label)
        ax.axhline(0.9 if mode == "weak" else 0.75, color="grey", ls="--", lw=0.8)
        ax.set_xscale("log", base=2)
        ticks = sorted({r["gpus"] for r in runs})
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(t) for t in ticks])
        ax.set_xlabel("GPUs")
        ax.set_ylabel(f"{mode} scaling efficiency")
        ax.set_ylim(0, 1.1)
        ax.set_title(f"{mode} scaling" + (" (256^3 per GPU)" if mode == "weak" else ""))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
