"""CSV tables of numbers and their linear interpolation, for the comparison scripts of tools/ (plain Python)."""
import bisect
import csv


def table(path):
    """{column: [float, ...]} of a CSV file with a header row"""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"{path}: no rows")
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def interp(x, xs, ys):
    """linear interpolation of (xs, ys) at x (xs increasing; clamped at the ends)"""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, x)
    a = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
    return ys[i - 1] + a * (ys[i] - ys[i - 1])
