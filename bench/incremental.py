"""Incremental builds and the bounded cache: the first no-op rebuild and the first `check` right
after a cold build, later ones, and `cardbake cache gc` of a cache holding three catalogs' worth
of entries down to one (with the next build of the current catalog, which must render nothing).

    bench/incremental.py --binary PATH [--cards 10000] [--gc-cards 1000] [--small] [--results FILE]

`make bench` runs it from bench/bench.py with the full sizes, on the 12-megapixel catalogs of
make_data.py. `--small` builds its own catalogs over the demo images of Input/images instead
(small photos: a development run that spares the CPU); its figures are no result. Every command
runs as a child process; wall time comes from the monotonic clock, CPU time from os.wait4. The
section it writes replaces its own `## ` section of the results file, or is appended to it.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import make_data
import results

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "bench" / "work" / "incremental"
DATA = REPO / "bench" / "work" / "data"
DEMO = REPO / "Input"
TITLE = "## Incremental builds and the bounded cache"
LATER_RUNS = 3
NOOP_TARGET = 0.3


class IncrementalError(Exception):
    """A command failed or gave the wrong result: the benchmark stops."""


def timed(command, expect_status=0):
    """Runs `command` from the repository; returns (wall seconds, CPU seconds, stdout)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.monotonic()
        process = subprocess.Popen([str(part) for part in command], cwd=REPO, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    code = os.waitstatus_to_exitcode(status)
    if code != expect_status:
        raise IncrementalError(f"{' '.join(map(str, command))} exited with {code}, not {expect_status}\n"
                               f"{stdout[-2000:]}{stderr[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, stdout


def progress(message):
    print(f"incremental: {message}", file=sys.stderr, flush=True)


def demo_catalog(size, folder):
    """A catalog of `size` cards over the demo images (copied into `folder`), each with its own text."""
    demo = make_data.demo_cards()
    (folder / "images").mkdir(parents=True, exist_ok=True)
    cards = []
    for index in range(size):
        source = demo[index % len(demo)]
        image = Path(source["image"]).name
        if not (folder / "images" / image).exists():
            shutil.copy2(DEMO / source["image"], folder / "images" / image)
        cards.append({"id": f"card-{index:05d}", "image": f"images/{image}",
                      "title": f"{index + 1}. {source['title']}",
                      "description": f"{source['description']} Card {index + 1} of {size}."})
    return {"version": 1, "style": {"scales": [1, 2, 3], "format": "png"}, "cards": cards}


def base_catalog(size, small):
    """The catalog document of `size` cards, and the folder its image paths are relative to."""
    if small:
        folder = WORK / "data"
        return demo_catalog(size, folder), folder
    path = DATA / f"catalog-{size}.json"
    if not path.exists():
        raise IncrementalError(f"no {path}: bench/bench.py makes it (make_data.py), or use --small")
    return json.loads(path.read_text()), DATA


def write_catalog(document, folder, name):
    """Writes the catalog next to the images it names; returns its path."""
    path = folder / name
    path.write_text(json.dumps(document, ensure_ascii=False))
    return path


class Builds:
    """cardbake commands on one cache folder."""

    def __init__(self, binary, name):
        self.binary = binary
        self.folder = WORK / name
        self.cache = self.folder / "cache"
        self.report = self.folder / "report.json"
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)

    def build(self, catalog, output, extra=()):
        """A build; returns (wall, CPU, cards rendered)."""
        wall, cpu, _ = timed([self.binary, "build", catalog, "-o", self.folder / output,
                              "--cache-dir", self.cache, "--report", self.report, "-q", *extra])
        cards = json.loads(self.report.read_text())["cards"]
        return wall, cpu, sum(card["status"] == "rendered" for card in cards)

    def check(self, catalog, output):
        return timed([self.binary, "check", catalog, "-o", self.folder / output, "--cache-dir", self.cache, "-q"])

    def stats(self):
        """`cache stats`: (entries, bytes, stat-cache hits, stat-cache misses of the last build)."""
        _, _, text = timed([self.binary, "cache", "stats", "--cache-dir", self.cache])
        entries = re.search(r"entries: (\d+) .*?, (\d+) bytes?\b", text)
        stat = re.search(r"stat cache: (\d+) hits?, (\d+) miss(?:es)?\b", text)
        return (int(entries[1]), int(entries[2]), *(map(int, stat.groups()) if stat else (None, None)))


def noop_figures(binary, cards, small):
    """Cold build, then the first check and no-op build right after it, then later ones."""
    document, folder = base_catalog(cards, small)
    catalog = write_catalog(document, folder, f"incremental-{cards}.json")
    builds = Builds(binary, f"noop-{cards}")
    progress(f"cold build of {cards} cards")
    cold = builds.build(catalog, "out")
    if cold[2] != cards:
        raise IncrementalError(f"the cold build rendered {cold[2]} of {cards} cards")
    progress("check and no-op build right after it, then later ones")
    first_check = builds.check(catalog, "out")
    first_noop = builds.build(catalog, "out")
    _, _, hits, misses = builds.stats()
    later_noops = [builds.build(catalog, "out") for _ in range(LATER_RUNS)]
    later_checks = [builds.check(catalog, "out") for _ in range(LATER_RUNS)]
    if any(run[2] for run in [first_noop, *later_noops]):
        raise IncrementalError("a no-op rebuild rendered cards")
    median = lambda runs, index: statistics.median(run[index] for run in runs)
    seconds = lambda wall, cpu: f"{wall:.3f} s wall, {cpu:.3f} s CPU"
    verdict = lambda wall: f"< {NOOP_TARGET} s: {'pass' if wall < NOOP_TARGET else '**FAIL**'}"
    return [
        [f"cold build, {cards:,} cards", f"{cold[0]:.2f} s wall, {cold[1]:.2f} s CPU", "—"],
        ["first no-op rebuild right after it",
         f"{seconds(*first_noop[:2])} (stat cache: {hits} hits, {misses} misses)", verdict(first_noop[0])],
        [f"later no-op rebuilds (median of {LATER_RUNS})", seconds(median(later_noops, 0), median(later_noops, 1)), "—"],
        ["first `check` right after the cold build (exit 0)", seconds(*first_check[:2]),
         f"like a no-op rebuild, {verdict(first_check[0])}"],
        [f"later checks (median of {LATER_RUNS})", seconds(median(later_checks, 0), median(later_checks, 1)), "—"],
    ]


def retitled(document, generation):
    """The catalog with every title marked as generation `generation` at its start (a title too
    long for the card is cut at its end): new bitmaps, the same backgrounds."""
    copy = json.loads(json.dumps(document))
    for card in copy["cards"]:
        card["title"] = f"Take {generation}: {card['title']}"
    return copy


def gc_figures(binary, cards, small):
    """A cache holding three catalogs' worth of entries, collected down to one; then the next
    build of the current catalog, into an empty output folder."""
    document, folder = base_catalog(cards, small)
    catalogs = {g: write_catalog(retitled(document, g), folder, f"incremental-gc-{cards}-{g}.json") for g in (1, 2, 3)}
    builds = Builds(binary, f"gc-{cards}")
    progress(f"cache gc: catalog 3 of {cards} cards alone, for its size")
    builds.build(catalogs[3], "out-3")
    _, one_catalog, _, _ = builds.stats()
    progress("catalogs 1 and 2, then catalog 3 again (up to date)")
    builds.build(catalogs[1], "out-1")
    builds.build(catalogs[2], "out-2")
    builds.build(catalogs[3], "out-3")
    entries_before, bytes_before, _, _ = builds.stats()
    progress(f"cache gc --max-size {one_catalog}")
    wall, cpu, said = timed([binary, "cache", "gc", "--cache-dir", builds.cache, "--max-size", one_catalog])
    entries_after, bytes_after, _, _ = builds.stats()
    next_build = builds.build(catalogs[3], "out-fresh")
    if next_build[2] != 0:
        raise IncrementalError(f"after the gc, the current catalog rendered {next_build[2]} cards")
    mib = lambda count: f"{count / 1024 ** 2:.1f} MiB"
    return [
        [f"`cache gc` of 3 catalogs x {cards:,} cards ({entries_before:,} entries, {mib(bytes_before)}) "
         f"down to one ({mib(one_catalog)})", f"{wall:.2f} s wall, {cpu:.2f} s CPU: {said.strip()}",
         f"{'pass' if bytes_after <= one_catalog else '**FAIL**'} ({entries_after:,} entries, {mib(bytes_after)} left)"],
        ["next build of the current catalog, into an empty output folder",
         f"{next_build[2]} cards rendered, {next_build[0]:.2f} s", "0 rendered: pass"],
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the cardbake binary to measure")
    parser.add_argument("--cards", type=int, default=10000, help="cards of the no-op and check figures")
    parser.add_argument("--gc-cards", type=int, default=1000, help="cards of each of the three catalogs of the gc")
    parser.add_argument("--small", action="store_true", help="the demo images instead of 12 MP photos")
    parser.add_argument("--results", type=Path, help="the markdown file to write the section into")
    arguments = parser.parse_args()
    load = os.getloadavg()[0]
    rows = noop_figures(arguments.binary, arguments.cards, arguments.small)
    rows += gc_figures(arguments.binary, arguments.gc_cards, arguments.small)
    # Its caches and output folders hold about 14 GB of bitmaps: the sections after this one need the disk.
    shutil.rmtree(WORK, ignore_errors=True)
    photos = "the demo images (--small: not a result)" if arguments.small else "12 MP photos (make_data.py)"
    command = " ".join(["bench/incremental.py", *sys.argv[1:]]).replace(str(REPO) + "/", "")
    section = "\n".join([
        TITLE, "",
        f"Command: `{command}`. Cards over {photos}, scales 1x, 2x, 3x; every command starts as soon as "
        "the one before it has ended. One run of each first figure. Load average when it started: "
        f"{load:.1f} on {os.cpu_count()} cores.", "",
        "| figure | measured | target |", "|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ])
    print(section)
    if arguments.results:
        results.write_section(arguments.results, "incremental", section)


if __name__ == "__main__":
    try:
        main()
    except IncrementalError as error:
        sys.exit(f"incremental: error: {error}")
