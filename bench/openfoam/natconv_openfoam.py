#!/usr/bin/env python3
"""The differentially heated cavity in OpenFOAM (bench/openfoam/natconv256): the conduction start and
the de Vahl Davis (1983) quantities of the result, computed as navier computes them
(src/solvers/nav_heat.c), from the cell-centred fields of a uniform N x N mesh (blockMesh order: x
fastest):
  - Nusselt number of the hot wall x = 0 and the cold wall x = 1: mean over the wall of the wall
    gradient from the adjacent cell, 2 (T_wall - T_cell) / h (the fixedValue snGrad of OpenFOAM and the
    ghost-cell gradient of navier), times L / (T_hot - T_cold);
  - u_max on the vertical mid-plane x = 0.5 (the mean of the two cell columns beside it) and v_max on the
    horizontal mid-plane y = 0.5, each refined by the parabola through the discrete maximum and its two
    neighbours, velocities in units of kappa / L (kappa = 1 in the case), positions in units of L.

usage: natconv_openfoam.py init CASE_DIR N          write 0/T: theta = 1 - x at the cell centres
       natconv_openfoam.py measure CASE_DIR N RA [REF_DIR]   print the quantities and their
                                                    deviations from de Vahl Davis
                                                    (REF_DIR/devahldavis1983.csv; default: data/)"""
import csv
import os
import sys


def read_internal(path, ncells):
    """internalField of an ascii volScalarField or volVectorField: a list of floats or of tuples."""
    text = open(path).read()
    k = text.index("internalField")
    head = text[k:k + 200]
    if "nonuniform" not in head.split(";")[0]:
        raise ValueError(f"{path}: internalField is uniform (the run wrote no solution?)")
    start = text.index("(", text.index("\n", text.index("List<", k)))
    vals = []
    pos = start + 1
    if "List<vector>" in head:
        for _ in range(ncells):
            a = text.index("(", pos)
            b = text.index(")", a)
            vals.append(tuple(float(x) for x in text[a + 1:b].split()))
            pos = b + 1
    else:
        end = text.index(")", pos)
        vals = [float(x) for x in text[pos:end].split()]
    if len(vals) != ncells:
        raise ValueError(f"{path}: {len(vals)} values, expected {ncells}")
    return vals


def write_conduction(case, n):
    path = os.path.join(case, "0", "T")
    text = open(path).read()
    vals = "\n".join(f"{1 - (i + 0.5) / n:.17g}" for j in range(n) for i in range(n))
    field = f"internalField nonuniform List<scalar>\n{n * n}\n(\n{vals}\n)\n;"
    start = text.index("internalField")
    end = text.index(";", start) + 1
    open(path, "w").write(text[:start] + field + text[end:])


def line_max(prof, cen):
    jm = max(range(len(prof)), key=lambda j: prof[j])
    best, at = prof[jm], cen[jm]
    if 0 < jm < len(prof) - 1:
        d1, d3 = cen[jm - 1] - cen[jm], cen[jm + 1] - cen[jm]
        s1, s3 = (prof[jm - 1] - prof[jm]) / d1, (prof[jm + 1] - prof[jm]) / d3
        q = (s1 - s3) / (d1 - d3)
        lin = s1 - q * d1
        if q < 0:
            at, best = cen[jm] - lin / (2 * q), prof[jm] - lin * lin / (4 * q)
    return best, at


def measure(case, n, ra, ref_dir):
    times = [d for d in os.listdir(case) if d.replace(".", "", 1).isdigit() and float(d) > 0]
    if not times:
        raise SystemExit(f"{case}: no time folder after 0")
    last = max(times, key=float)
    T = read_internal(os.path.join(case, last, "T"), n * n)
    U = read_internal(os.path.join(case, last, "U"), n * n)
    h = 1.0 / n
    nu_hot = sum(2 * (1 - T[j * n]) / h for j in range(n)) / n
    nu_cold = sum(2 * (T[j * n + n - 1] - 0) / h for j in range(n)) / n
    cen = [(j + 0.5) * h for j in range(n)]
    m = n // 2  # x = 0.5 lies between the cells m - 1 and m (n even)
    if n % 2:
        raise SystemExit("N must be even (the mid-planes are cell faces)")
    uprof = [0.5 * (U[j * n + m - 1][0] + U[j * n + m][0]) for j in range(n)]
    vprof = [0.5 * (U[(m - 1) * n + i][1] + U[m * n + i][1]) for i in range(n)]
    umax, uy = line_max(uprof, cen)
    vmax, vx = line_max(vprof, cen)
    ref = {}
    with open(os.path.join(ref_dir, "devahldavis1983.csv")) as f:
        for r in csv.DictReader(f):
            if float(r["ra"]) == ra:
                ref[r["quantity"]] = (float(r["value"]), float(r["coord_value"]) if r["coord_value"] else None)
    nref, (uref, yref), (vref, xref) = ref["Nu_avg"][0], ref["u_max"], ref["v_max"]
    dev = lambda a, b: 100 * abs(a - b) / b
    print(f"OpenFOAM Ra {ra:g} {n}x{n} (time {last}): Nu hot {nu_hot:.5f} ({dev(nu_hot, nref):.3f} %), "
          f"Nu cold {nu_cold:.5f} ({dev(nu_cold, nref):.3f} %) [de Vahl Davis {nref}]; "
          f"u_max {umax:.4f} at y = {uy:.4f} ({dev(umax, uref):.3f} %) [{uref} at {yref}]; "
          f"v_max {vmax:.4f} at x = {vx:.4f} ({dev(vmax, vref):.3f} %) [{vref} at {xref}]")


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("init", "measure"):
        raise SystemExit(__doc__)
    case, n = sys.argv[2], int(sys.argv[3])
    if sys.argv[1] == "init":
        write_conduction(case, n)
    else:
        measure(case, n, float(sys.argv[4]), sys.argv[5] if len(sys.argv) > 5 else
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))


if __name__ == "__main__":
    main()
