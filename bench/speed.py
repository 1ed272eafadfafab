"""Speed on this machine: reading and scoring a 12 MP JPEG vs. merely decoding it.

    python bench/speed.py [--repeat 15]

Same file, same run. The reader decodes a large JPEG at half size (enough for the cells of
any city that fills a fair part of the frame) and finds the city on a 1008 px copy.
Also: classifier time for the 16 cells of one city, model sizes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.city import City  # noqa: E402
from scorer.reading import PhotoReader  # noqa: E402
from scorer.table import Table, score_table  # noqa: E402
from scorer.vision import geometry  # noqa: E402
from scorer.vision.image_io import read_photo  # noqa: E402
from scorer.vision.models import MODEL_DIR  # noqa: E402
from training.render import random_layout, render_scene  # noqa: E402
from training.tiles import drawn_faces  # noqa: E402


def twelve_megapixel_jpeg(folder: str) -> str:
    rng = np.random.default_rng(5)
    faces = drawn_faces()
    scene = render_scene(random_layout(faces, rng), faces, rng, "medium", (4032, 3024),
                         tile_px=400)
    path = os.path.join(folder, "city-12mp.jpg")
    cv2.imwrite(path, cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    reader = PhotoReader()
    with tempfile.TemporaryDirectory() as folder:
        path = twelve_megapixel_jpeg(folder)
        image = read_photo(path)

        def read_and_score():
            reading = reader.read_file(path)
            score_table(Table((City.from_rows(reading.grid),)))

        read_and_score()  # warm up the sessions
        decode = median_ms(lambda: read_photo(path), args.repeat)
        full = median_ms(read_and_score, args.repeat)
        warped = geometry.warp_city(image, reader.find_city(image))
        tiles, corners = geometry.tile_crops(warped), geometry.corner_crops(warped)
        classify = median_ms(lambda: reader.classifier.predict(tiles, corners), args.repeat)
        small = geometry.shrink(image, 4)
        find = median_ms(lambda: reader.find_city(small), args.repeat)
        data = np.fromfile(path, np.uint8)
        half = median_ms(lambda: cv2.imdecode(data, cv2.IMREAD_REDUCED_COLOR_2), args.repeat)
        size = os.path.getsize(path)
    print(f"12 MP JPEG ({image.shape[1]}x{image.shape[0]}, {size / 1e6:.1f} MB), "
          f"median of {args.repeat}, {os.cpu_count()} cores")
    print(f"  decode only (full resolution)      {decode:8.1f} ms")
    print(f"  read + score (decode included)     {full:8.1f} ms")
    print(f"  ratio read+score / decode          {full / decode:8.2f} x")
    print(f"  of which: half-size JPEG decode    {half:8.1f} ms (OpenCV reduced decoding)")
    print(f"  find the city (all looks, 1008 px) {find:8.1f} ms")
    print(f"  classify 16 cells (one batch)      {classify:8.1f} ms")
    for name in ("tiles", "icons", "badges", "city_finder"):
        megabytes = os.path.getsize(MODEL_DIR / f"{name}.onnx") / 1e6
        print(f"  {name + '.onnx':<35}{megabytes:8.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
