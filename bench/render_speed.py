"""Renderer throughput: seeded photos per minute on this machine's cores.

    python bench/render_speed.py [--photos 60] [--size 1024x768]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.data import scene_for  # noqa: E402


def render(job):
    index, size = job
    scene, _ = scene_for(99, index, "mixed", out_size=size)
    return scene.image.shape


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--size", default="1024x768")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    cores = os.cpu_count()
    with Pool(cores) as pool:
        pool.map(render, [(i, size) for i in range(cores)])  # load the tile art in each worker
        start = time.perf_counter()
        pool.map(render, [(i, size) for i in range(args.photos)])
        elapsed = time.perf_counter() - start
    print(f"{args.photos} photos at {args.size} on {cores} cores: {elapsed:.1f} s, "
          f"{60 * args.photos / elapsed:.0f} photos a minute")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
