"""The committed die faces are what scripts/draw_dice.py draws, at a size Discord shows sharply."""

from __future__ import annotations

import subprocess
import sys
from io import BytesIO
from pathlib import Path

from PIL import Image

from bot.app.emojis import face_image

ROOT = Path(__file__).resolve().parents[1]


def test_committed_faces_match_the_script(tmp_path: Path) -> None:
    subprocess.run([sys.executable, ROOT / "scripts" / "draw_dice.py", "--out", tmp_path], check=True)
    for face in range(1, 7):
        committed = Image.open(BytesIO(face_image(face)))
        drawn = Image.open(tmp_path / f"die_{face}.png")
        assert committed.size == (128, 128) and committed.mode == "RGBA"
        assert committed.tobytes() == drawn.tobytes(), f"die_{face}.png is stale: run scripts/draw_dice.py"


def test_each_face_is_distinct() -> None:
    pixels = {Image.open(BytesIO(face_image(face))).tobytes() for face in range(1, 7)}
    assert len(pixels) == 6
