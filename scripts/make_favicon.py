#!/usr/bin/env python3
"""Draw tapequiz's brand mark (the nav's gradient square with a white nabla) as a 32x32 PNG
inside an ICO, with no imaging library: 4x4 supersampling per pixel.

Usage: scripts/make_favicon.py static/favicon.ico
"""

import struct
import sys
import zlib

N, SS = 32, 4
A, B = (0x43, 0x38, 0xCA), (0x0E, 0xA5, 0xE9)


def inside_rounded(x, y, r=7.0):
    cx = min(max(x, r), N - r)
    cy = min(max(y, r), N - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def tri(x, y, top, bottom, half):
    """Inside the downward triangle with top edge at y=top (width 2*half) and apex at bottom."""
    if not (top <= y <= bottom):
        return False
    w = half * (bottom - y) / (bottom - top)
    return abs(x - 16) <= w


def nabla(x, y):
    return tri(x, y, 8.0, 25.0, 10.0) and not tri(x, y, 11.0, 20.5, 5.4)


rows = []
for py in range(N):
    row = bytearray([0])
    for px in range(N):
        cov = ink = 0
        for sy in range(SS):
            for sx in range(SS):
                x, y = px + (sx + 0.5) / SS, py + (sy + 0.5) / SS
                if inside_rounded(x, y):
                    cov += 1
                    ink += nabla(x, y)
        t = (px + py) / (2 * N - 2)
        base = [round(a + (b - a) * t) for a, b in zip(A, B, strict=True)]
        k = ink / cov if cov else 0
        rgb = [round(c + (255 - c) * k) for c in base]
        row += bytes([*rgb, round(255 * cov / SS**2)])
    rows.append(bytes(row))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 8, 6, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
ico = struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", N, N, 0, 0, 1, 32, len(png), 22) + png
with open(sys.argv[1], "wb") as out:
    out.write(ico)
print(len(ico), "bytes")
