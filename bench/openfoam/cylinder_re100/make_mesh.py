#!/usr/bin/env python3
"""Write system/blockMeshDict of the body-fitted cylinder mesh (OpenFOAM blockMesh, 2D, one cell thick).

Geometry as navier's cases/cylinder2d_re100.ini, in the frame of the cylinder: a circle of diameter D = 1
at the origin, domain x in [-10, 30], y in [-15.01, 14.99] (navier puts the cylinder 0.01 D above the axis
of [-15, 15]: the same asymmetry), z in [-0.5, 0.5] (one cell; frontAndBack empty; Aref = D * 1 = 1).

Blocks: an O-ring of four blocks between the circle and the square [-A, A]^2 (arcs on the circle, NQ cells
along each quarter, NR cells across, graded so that the first cell at the wall is H_WALL and the ring
ends with the square's spacing 2A/NQ), and eight Cartesian blocks around the square, whose cells start
at 2A/NQ next to it and grow geometrically towards the far boundaries (the wake column to x = 30 in
N_WAKE cells, the upstream one in N_FAR cells, the sides in N_SIDE cells).

usage: make_mesh.py CASE_DIR [SCALE]   SCALE multiplies every cell count (and divides H_WALL): 1 is the
       mesh of the benchmark; 0.667 and 1.5 the coarser and finer meshes of the resolution check.
"""
import math
import sys

A = 2.0                    # half width of the square around the O-ring
X0, X1 = -10.0, 30.0       # domain in x (cylinder at the origin)
Y0, Y1 = -15.01, 14.99     # domain in y (navier's 0.01 D offset of the cylinder)
Z0, Z1 = -0.5, 0.5
R = 0.5                    # cylinder radius


def ratio_for(length, first, n):
    """Geometric expansion q with first * (q^n - 1) / (q - 1) = length; returns the blockMesh total
    expansion ratio q^(n-1) (last cell / first cell)."""
    lo, hi = 1.0 + 1e-12, 2.0
    if first * n >= length:     # cells shrink: solve on the other side of 1
        lo, hi = 0.5, 1.0 - 1e-12
    for _ in range(200):
        q = 0.5 * (lo + hi)
        s = first * (q ** n - 1.0) / (q - 1.0)
        if (s < length) == (q > 1.0):
            lo = q
        else:
            hi = q
    return q ** (n - 1)


def main():
    case = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    nq = int(round(48 * scale))          # cells per quarter of the circle (4 nq around it)
    nr = int(round(48 * scale))          # cells across the ring
    h_wall = 0.008 / scale               # first cell at the wall
    n_wake = int(round(140 * scale))     # x in [A, 30]
    n_far = int(round(36 * scale))       # x in [-10, -A]
    n_side = int(round(44 * scale))      # y in [A, 15] and [-15, -A]
    h_sq = 2 * A / nq                    # spacing along the square
    g_ring = ratio_for(A - R, h_wall, nr)          # along the axes (the ring is thickest on the diagonals)
    g_wake = ratio_for(X1 - A, h_sq, n_wake)
    g_up = ratio_for(-A - X0, h_sq, n_far)
    g_top = ratio_for(Y1 - A, h_sq, n_side)
    g_bot = ratio_for(-A - Y0, h_sq, n_side)

    xs = [X0, -A, A, X1]
    ys = [Y0, -A, A, Y1]
    pts = [(xs[i], ys[j]) for j in range(4) for i in range(4)]    # P(i, j) = j * 4 + i
    c = R / math.sqrt(2.0)
    cyl = {(1, 1): 16, (2, 1): 17, (1, 2): 18, (2, 2): 19}
    pts += [(-c, -c), (c, -c), (-c, c), (c, c)]
    npt = len(pts)

    def P(i, j):
        return j * 4 + i

    def hexa(v, cells, grading):
        return "    hex (%s %s) (%d %d 1) simpleGrading (%.10g %.10g 1)" % (
            " ".join(str(k) for k in v), " ".join(str(k + npt) for k in v), cells[0], cells[1],
            grading[0], grading[1])

    ncols = [n_far, nq, n_wake]
    nrows = [n_side, nq, n_side]
    gcols = [1.0 / g_up, 1.0, g_wake]
    grows = [1.0 / g_bot, 1.0, g_top]
    blocks = []
    for bj in range(3):
        for bi in range(3):
            if bi == 1 and bj == 1:
                continue
            v = [P(bi, bj), P(bi + 1, bj), P(bi + 1, bj + 1), P(bi, bj + 1)]
            blocks.append(hexa(v, (ncols[bi], nrows[bj]), (gcols[bi], grows[bj])))
    # the O-ring: local x1 outwards (graded), x2 counter-clockwise along the circle
    ring = [[cyl[2, 1], P(2, 1), P(2, 2), cyl[2, 2]],      # right
            [cyl[2, 2], P(2, 2), P(1, 2), cyl[1, 2]],      # top
            [cyl[1, 2], P(1, 2), P(1, 1), cyl[1, 1]],      # left
            [cyl[1, 1], P(1, 1), P(2, 1), cyl[2, 1]]]      # bottom
    for v in ring:
        blocks.append(hexa(v, (nr, nq), (g_ring, 1.0)))
    arcs = [(cyl[2, 1], cyl[2, 2], (R, 0.0)), (cyl[2, 2], cyl[1, 2], (0.0, R)),
            (cyl[1, 2], cyl[1, 1], (-R, 0.0)), (cyl[1, 1], cyl[2, 1], (0.0, -R))]
    edges = []
    for a, b, (x, y) in arcs:
        edges.append("    arc %d %d (%.12g %.12g %g)" % (a, b, x, y, Z0))
        edges.append("    arc %d %d (%.12g %.12g %g)" % (a + npt, b + npt, x, y, Z1))

    def face(a, b):    # a boundary face from the edge a-b of the z0 plane
        return "(%d %d %d %d)" % (a, b, b + npt, a + npt)

    inlet = [face(P(0, j), P(0, j + 1)) for j in range(3)]
    outlet = [face(P(3, j), P(3, j + 1)) for j in range(3)]
    bottom = [face(P(i, 0), P(i + 1, 0)) for i in range(3)]
    top = [face(P(i, 3), P(i + 1, 3)) for i in range(3)]
    wall = [face(a, b) for a, b, _ in arcs]
    fb = []
    for line in blocks:
        v = [int(k) for k in line.split("(")[1].split(")")[0].split()]
        fb.append("(%d %d %d %d)" % (v[0], v[3], v[2], v[1]))
        fb.append("(%d %d %d %d)" % (v[4], v[5], v[6], v[7]))

    def patch(name, kind, faces):
        return "    %s\n    {\n        type %s;\n        faces\n        (\n%s\n        );\n    }" % (
            name, kind, "\n".join("            " + f for f in faces))

    ncells = sum(ncols[bi] * nrows[bj] for bj in range(3) for bi in range(3)
                 if not (bi == 1 and bj == 1)) + 4 * nr * nq
    out = []
    out.append("FoamFile { version 2.0; format ascii; class dictionary; object blockMeshDict; }")
    out.append("// written by make_mesh.py (scale %g): %d cells; %d cells around the cylinder, first cell "
               "%.4g at the wall, ring expansion %.4g; square spacing %.4g; wake expansion %.4g (last cell "
               "%.4g)" % (scale, ncells, 4 * nq, h_wall, g_ring, h_sq, g_wake, h_sq * g_wake))
    out.append("convertToMeters 1;")
    out.append("vertices\n(")
    for z in (Z0, Z1):
        for x, y in pts:
            out.append("    (%.12g %.12g %g)" % (x, y, z))
    out.append(");")
    out.append("blocks\n(\n" + "\n".join(blocks) + "\n);")
    out.append("edges\n(\n" + "\n".join(edges) + "\n);")
    out.append("boundary\n(")
    out.append(patch("inlet", "patch", inlet))
    out.append(patch("outlet", "patch", outlet))
    out.append(patch("top", "patch", top))
    out.append(patch("bottom", "patch", bottom))
    out.append(patch("cylinder", "wall", wall))
    out.append(patch("frontAndBack", "empty", fb))
    out.append(");")
    with open(case + "/system/blockMeshDict", "w") as f:
        f.write("\n".join(out) + "\n")
    print("blockMeshDict: %d cells (scale %g), %d around the cylinder, wall cell %.4g" % (
        ncells, scale, 4 * nq, h_wall))


if __name__ == "__main__":
    main()
