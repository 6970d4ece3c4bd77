#!/usr/bin/env python3
"""Renders text drawn in UTF-8 half blocks as a terminal shows it, into a PNG.

Usage: half-blocks.py TEXT-FILE PNG [light-on-dark | dark-on-light]

Each character is one module wide and two tall: U+2588 fills both halves, U+2580 the
upper, U+2584 the lower, a space neither. Filled halves take the terminal's foreground,
the others its background: light on dark (the default, as most terminals), or dark on
light. Other characters are refused (exit 1). Each module is drawn 8 pixels square, with
a margin of the background around the whole, so a reader such as zbarimg sees what a
phone's camera would.
"""
import sys

from PIL import Image

SCALE = 8
HALVES = {"\u2588": (1, 1), "\u2580": (1, 0), "\u2584": (0, 1), " ": (0, 0)}

text_file, png = sys.argv[1], sys.argv[2]
colours = sys.argv[3] if len(sys.argv) > 3 else "light-on-dark"
foreground, background = (255, 0) if colours == "light-on-dark" else (0, 255)
lines = [line for line in open(text_file, encoding="utf-8").read().split("\n") if line]
width = max(len(line) for line in lines)
image = Image.new("L", ((width + 4) * SCALE, (2 * len(lines) + 4) * SCALE), background)
for row, line in enumerate(lines):
    for column, character in enumerate(line):
        if character not in HALVES:
            sys.exit(f"half-blocks.py: {character!r} at line {row + 1}, column {column + 1} is not a half block")
        for half, filled in enumerate(HALVES[character]):
            if filled:
                x, y = (column + 2) * SCALE, (2 * row + half + 2) * SCALE
                image.paste(foreground, (x, y, x + SCALE, y + SCALE))
image.save(png)
