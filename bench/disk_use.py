"""Disk use and build times of the output folder and the cache together: how many bytes the same
bitmaps take in both, counted as `du` counts them (each inode's blocks once, however many names it
has), and the wall and CPU time of a cold build, a no-op build and a one-card edit.

    bench/disk_use.py --binary PATH [--binary PATH ...] [--cards 300] [--runs 3]

Each binary builds its own catalog of `--cards` cards over the demo images of Input/images (each
card with its own title and description, three JPEG scales) into a fresh output folder and cache
under bench/work/disk-use/. "copies" is what the folders would take if no inode were shared (every
name's blocks counted): what a build that copies its bitmaps out of the cache leaves. Times are
medians over `--runs` runs (the cold build runs once per binary); CPU time comes from os.wait4.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "bench" / "work" / "disk-use"
IMAGES = ["coffee.jpg", "astronaut.jpg", "chelsea.jpg", "rocket.jpg", "coins.jpg", "camera-operator.jpg",
          "hubble-deep-field.jpg", "retina.jpg", "immunohistochemistry.jpg", "chelsea-eyes.jpg"]
WORDS = "a short description of the card that wraps over a few lines of justified text below its title".split()


def write_catalog(folder, cards, title_of_first="Card 0"):
    """The catalog of `cards` cards, the first titled `title_of_first`."""
    entries = [{"id": f"card-{index:05d}", "image": f"{REPO}/Input/images/{IMAGES[index % len(IMAGES)]}",
                "title": title_of_first if index == 0 else f"Card {index}",
                "description": " ".join(WORDS[: 8 + index % (len(WORDS) - 8)]) + f" ({index})"}
               for index in range(cards)]
    (folder / "catalog.json").write_text(json.dumps({"version": 1, "cards": entries}))


def timed(binary, folder):
    """Builds the catalog in `folder`; returns (wall seconds, CPU seconds)."""
    start = time.monotonic()
    process = subprocess.Popen([binary, "build", "catalog.json", "-o", "OUT", "--cache-dir", "C", "-q"], cwd=folder)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{binary} build failed in {folder}")
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime


def blocks(folders, shared):
    """Bytes of the blocks of the files under `folders`: each (device, inode) once when `shared`."""
    seen, total = set(), 0
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in names:
                info = os.lstat(os.path.join(root, name))
                if shared and (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
                total += info.st_blocks * 512
    return total


def median_of(runs, make):
    times = [make(run) for run in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def measure(binary, cards, runs):
    folder = WORK / Path(binary).parent.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    write_catalog(folder, cards)
    cold = timed(binary, folder)
    out, cache = folder / "OUT", folder / "C"
    use = {"output": blocks([out], True), "both": blocks([out, cache], True), "copies": blocks([out, cache], False)}
    noop = median_of(runs, lambda _: timed(binary, folder))

    def edit(run):
        write_catalog(folder, cards, title_of_first=f"Edited title {run}")
        return timed(binary, folder)

    edited = median_of(runs, edit)
    return {"binary": binary, "cold": cold, "noop": noop, "edit": edited, **use}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", action="append", required=True)
    parser.add_argument("--cards", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    print(f"| binary | output | output + cache (du) | as copies | ratio | cold build | no-op | one-card edit |")
    print("|---|---|---|---|---|---|---|---|")
    mib = 1024 * 1024
    for binary in arguments.binary:
        m = measure(binary, arguments.cards, arguments.runs)
        times = " | ".join(f"{m[k][0]:.2f} s ({m[k][1]:.2f} s CPU)" for k in ("cold", "noop", "edit"))
        print(f"| {binary} | {m['output'] / mib:.1f} MiB | {m['both'] / mib:.1f} MiB | {m['copies'] / mib:.1f} MiB "
              f"| {m['both'] / m['output']:.3f} | {times} |", flush=True)


if __name__ == "__main__":
    main()
