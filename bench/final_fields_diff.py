#!/usr/bin/env python3
"""Largest difference of two runs' final fields (output.dump_final = true: DIR/final_fields.bin, the
interior values of u, v, (w), p (then T) as little-endian doubles, and DIR/summary.json): for each field
max|a - b| / max|b|, the pressure minus its mean on both sides (it is defined up to a constant).

usage: final_fields_diff.py DIR_A DIR_B   prints one line "u 1.2e-05, v 3.4e-05, p ..." (exit 0), or
                                           "no final fields (reason)" (exit 1)"""
import json
import struct
import sys


def load(d):
    s = json.load(open(d + "/summary.json"))
    data = open(d + "/final_fields.bin", "rb").read()
    v = struct.unpack(f"<{len(data) // 8}d", data)
    n = s["cells"]
    return s, [v[i * n:(i + 1) * n] for i in range(len(v) // n)]


def main():
    try:
        (_, a), (sb, b) = load(sys.argv[1]), load(sys.argv[2])
    except Exception as e:
        print(f"no final fields ({e})")
        sys.exit(1)
    names = ["u", "v", "w"][:sb["dim"]] + ["p", "T"]
    out = []
    for k, (x, y) in enumerate(zip(a, b)):
        if names[k] == "p":
            mx, my = sum(x) / len(x), sum(y) / len(y)
            x, y = [t - mx for t in x], [t - my for t in y]
        scale = max(abs(t) for t in y) or 1
        out.append(f"{names[k]} {max(abs(s - t) for s, t in zip(x, y)) / scale:.2e}")
    print(", ".join(out))


if __name__ == "__main__":
    main()
