"""Draw the six die faces the bot registers as application emojis (`die_1` … `die_6`).

The PNGs are committed under `bot/assets/`, so the running bot needs no Pillow; run this again only to
change the artwork: `.venv/bin/python scripts/draw_dice.py` (Pillow is a dev dependency).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

SIZE = 128  # Discord shows emojis at up to 48 px (96 px on jumbo): 128 px stays sharp at both
SCALE = 4  # drawn this much larger, then reduced: smooth edges without an antialiasing library
MARGIN, RADIUS, PIP = 6, 22, 12
BODY, EDGE, INK = (250, 250, 247, 255), (60, 60, 60, 255), (25, 25, 25, 255)
# Pip centres on a 3×3 grid (0 = left/top, 1 = middle, 2 = right/bottom), as on real dice.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
OUT = Path(__file__).resolve().parents[1] / "bot" / "assets"


def draw_face(face: int) -> Image.Image:
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    box = (MARGIN * SCALE, MARGIN * SCALE, big - MARGIN * SCALE, big - MARGIN * SCALE)
    pen.rounded_rectangle(box, radius=RADIUS * SCALE, fill=BODY, outline=EDGE, width=4 * SCALE)
    step = (big - 2 * MARGIN * SCALE) // 4
    for column, row in PIPS[face]:
        x = MARGIN * SCALE + step * (column + 1)
        y = MARGIN * SCALE + step * (row + 1)
        radius = PIP * SCALE
        pen.ellipse((x - radius, y - radius, x + radius, y + radius), fill=INK)
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT, help="folder for die_1.png … die_6.png")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for face in PIPS:
        draw_face(face).save(args.out / f"die_{face}.png", optimize=True)
    print(f"Drew 6 die faces in {args.out}")


if __name__ == "__main__":
    main()
