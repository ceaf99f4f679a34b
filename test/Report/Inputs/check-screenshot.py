#!/usr/bin/env python3
"""Checks that a screenshot of the report shows a drawn graph.

  check-screenshot.py SHOT.png [--min-colors N] [--min-ink F]

Decodes the PNG (8-bit RGB or RGBA, no interlacing: what Chromium writes)
with the standard library only, and checks that it is not blank: more than
--min-colors distinct colors, more than a --min-ink fraction of pixels that
are not the page's white, and pixels of the fills the page gives f16 ops
(#8ed6a0) and FP32 ops (#c9d3df) in the middle part, where the graph is.
"""

import argparse
import struct
import sys
import zlib


def fail(message):
    print("check-screenshot: " + message, file=sys.stderr)
    sys.exit(1)


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        fail("unsupported PNG (depth %d, color type %d, interlace %d)" % (depth, color, interlace))
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("png")
    parser.add_argument("--min-colors", type=int, default=20)
    parser.add_argument("--min-ink", type=float, default=0.02)
    args = parser.parse_args()
    width, height, bpp, rows = read_png(args.png)
    colors, ink, total = set(), 0, 0
    found = {"f16": 0, "fp32": 0}
    targets = {"f16": (0x8E, 0xD6, 0xA0), "fp32": (0xC9, 0xD3, 0xDF)}
    for y in range(0, height, 2):
        row = rows[y]
        for x in range(0, width, 2):
            px = tuple(row[x * bpp:x * bpp + 3])
            colors.add(px)
            total += 1
            if px != (255, 255, 255):
                ink += 1
            # The graph is in the middle; the side panels show swatches.
            if width * 0.25 < x < width * 0.72:
                for name, want in targets.items():
                    if all(abs(p - w) <= 3 for p, w in zip(px, want)):
                        found[name] += 1
    if len(colors) < args.min_colors:
        fail("only %d colors: a blank page?" % len(colors))
    if ink < args.min_ink * total:
        fail("only %.1f%% of the pixels are not white" % (100.0 * ink / total))
    for name, count in found.items():
        if count < 50:
            fail("no %s op drawn in the graph area (%d pixels of its fill)" % (name, count))
    print("OK: %dx%d, %d colors, %.0f%% ink, f16 fill %d px, FP32 fill %d px" % (
        width, height, len(colors), 100.0 * ink / total, found["f16"], found["fp32"]))


if __name__ == "__main__":
    main()
