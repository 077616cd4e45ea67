#!/usr/bin/env python3
"""Says whether a screenshot shows the table or a collapsed banner.

The banner is a panel filled with one colour, read at the window's top
right corner. A table shows the board or the cards in the window's middle;
a banner that grew over the window fills the middle with its own colour.
Prints the share of the middle in the banner's colour; exits 1 when it is
over half (a collapsed banner), 0 otherwise.

Usage: table-shown.py SHOT.png
"""
import subprocess
import sys


def pixels(path):
    size = subprocess.run(["identify", "-format", "%w %h", path], capture_output=True, text=True, check=True)
    w, h = (int(v) for v in size.stdout.split())
    raw = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout
    return w, h, raw


def main():
    path = sys.argv[1]
    w, h, raw = pixels(path)
    at = lambda x, y: raw[3 * (y * w + x): 3 * (y * w + x) + 3]
    fill = at(w - 4, 12)
    # The middle: half the width, a third of the height.
    xs = range(w // 4, 3 * w // 4, 4)
    ys = range(h // 3, 2 * h // 3, 4)
    same = sum(1 for y in ys for x in xs if at(x, y) == fill)
    share = same / (len(xs) * len(ys))
    print(f"{path}: {share:.0%} of the middle in the banner's colour")
    sys.exit(1 if share > 0.5 else 0)


if __name__ == "__main__":
    main()
