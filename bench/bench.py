"""The benchmark driver: cardbake against its peers, incremental builds, memory and formats.

Runs everything in one go from the repository's root, prints markdown tables with each target
and whether it is met, and writes them to bench/RESULTS.md. Every command runs as a child
process and is measured by one helper: wall time (monotonic clock), CPU time (user + system,
children included) and peak RSS, from os.wait4. Each figure is the median of BENCH_RUNS runs
(default 3). BENCH_QUICK=1 is a development mode: one run, no 10,000-card builds, and the
report goes to bench/work/RESULTS-quick.md.
CARDBAKE names the binary; by default it is the release build's.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pyvips

import make_data
import results
from peers.cardset import SCALES, feature_height

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
WORK = BENCH / "work"
LOGS = WORK / "logs"
QUICK = os.environ.get("BENCH_QUICK") == "1"
# A quick run's figures are no result: they stay out of the repository's RESULTS.md.
RESULTS = WORK / "RESULTS-quick.md" if QUICK else BENCH / "RESULTS.md"
RUNS = int(os.environ.get("BENCH_RUNS", "1" if QUICK else "3"))
FORMAT_CARDS = 4 if QUICK else 16  # cards of the 48 that the formats table encodes
EDITED_CARD = 500  # the card whose title the incremental build edits, in the 1,000-card catalog
# Free disk a full run needs: the 10,000-card output folder and cache hold about 43 GB, beside the
# smaller builds (about 5 GB).
FULL_RUN_DISK = 55 * 10**9


class BenchError(Exception):
    """A command failed or an output is wrong: the benchmark stops."""


@dataclass
class Usage:
    """What one command cost: seconds of wall and CPU time, and peak RSS in MB; for a single run,
    its /proc/<pid>/io counters as it ended (`write_bytes`, `wchar`, …)."""
    wall: float
    cpu: float
    rss_mb: float
    io: dict = None


def progress(message):
    """Says on stderr what the benchmark is doing."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def run(command, log_name, show_output=False):
    """Runs a command to completion and returns its Usage; raises BenchError if it fails.

    Its output goes to bench/work/logs/<log_name>.log, or to this process's stderr with
    show_output.
    """
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / f"{log_name}.log"
    with open(log_path, "w") as log:
        sink = sys.stderr if show_output else log
        start = time.monotonic()
        process = subprocess.Popen([str(part) for part in command], cwd=REPO, stdout=sink,
                                   stderr=sink)
        # Waited for without reaping, so that its /proc/<pid>/io can still be read.
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
        wall = time.monotonic() - start
        io = {name: int(value) for name, value in
              (line.split(": ") for line in Path(f"/proc/{process.pid}/io").read_text().splitlines())}
        _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        tail = "".join(log_path.read_text().splitlines(keepends=True)[-20:])
        raise BenchError(f"{' '.join(map(str, command))} exited with {process.returncode}\n{tail}")
    return Usage(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, io)


def median(usages):
    """The median of each figure of several Usages."""
    return Usage(*(statistics.median(getattr(usage, field) for usage in usages)
                   for field in ("wall", "cpu", "rss_mb")))


def median_usage(runs, command, log_name, prepare=lambda: None, check=lambda: None,
                 show_output=False):
    """The median Usage over `runs` runs of a command; prepare() goes before each run and
    check() after each."""
    usages = []
    for index in range(runs):
        prepare()
        usages.append(run(command, f"{log_name}-{index + 1}", show_output))
        check()
    return median(usages)


def remove(*paths):
    """Deletes folders or files, if they exist."""
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def check_free_disk():
    """Stops a full run before it starts when the disk cannot hold its largest build, rather than
    an hour in, when the 10,000-card build fills it."""
    free = shutil.disk_usage(WORK).free
    if not QUICK and free < FULL_RUN_DISK:
        raise BenchError(f"a full run needs {FULL_RUN_DISK / 1e9:.0f} GB of free disk under {WORK}, "
                         f"and {free / 1e9:.0f} GB is free (BENCH_QUICK=1 needs far less)")


class CatalogBuild:
    """A build of `catalog` (`cards` cards) into `folder`, with an output folder, cache and report of
    its own; `extra` is added to the command."""

    def __init__(self, binary, catalog, folder, cards, extra=()):
        self.folder = folder
        self.cards = cards
        self.report = folder / "report.json"
        self.command = [binary, "build", catalog, "-o", folder / "out", "--cache-dir", folder / "cache",
                        "--report", self.report, "-q", *extra]

    def expect(self, status):
        """Raises BenchError unless the last build gave every card `status`; returns its report."""
        report = json.loads(self.report.read_text())
        counts = {}
        for card in report["cards"]:
            counts[card["status"]] = counts.get(card["status"], 0) + 1
        if counts != {status: self.cards}:
            raise BenchError(f"{self.folder.name}: expected {self.cards} {status}, got {counts}")
        return report


def publish_section(doc, name, default_cards, section_of):
    """The `main` of a script that measures the benchmark's catalog of `--cards` cards (described by
    the first paragraph of `doc`) and replaces its section `name` of RESULTS.md with
    `section_of(binary, cards)`."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=default_cards, choices=make_data.CATALOG_SIZES)
    cards = parser.parse_args().cards
    binary = cardbake_binary()
    make_data.main()
    results.publish(RESULTS, name, section_of(binary, cards))


def run_script(main):
    """Runs a benchmark script's `main`; a BenchError ends it with its message and exit status 1."""
    try:
        main()
    except BenchError as error:
        print(f"bench: error: {error}", file=sys.stderr)
        sys.exit(1)


def cardbake_binary():
    """A copy, in bench/work/bin, of $CARDBAKE or else the release build's binary: a rebuild
    during the run cannot change what is measured."""
    if "CARDBAKE" in os.environ:
        binary = Path(os.environ["CARDBAKE"])
    else:
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"],
                                  cwd=REPO, check=True, capture_output=True, text=True)
        binary = Path(bin_path.stdout.strip()) / "cardbake"
    if not os.access(binary, os.X_OK):
        raise BenchError(f"no cardbake binary at {binary}: run `make build` first")
    copy = WORK / "bin" / "cardbake"
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(binary, copy)
    return copy


@dataclass
class Results:
    """Everything one benchmark run measured."""
    version: str          # cardbake --version
    png: tuple            # cardbake's PNG settings: (zlib level, filter name)
    geometry: tuple       # (W, T) in points
    cardbake48: Usage     # cold build of 48 cards
    peers: dict           # peer name -> Usage, 48 cards
    formats: list         # rows of formats.py
    cold100: Usage
    cold1000: Usage
    noop1000: tuple       # no-op rebuilds: (the first after the cold build, median of the next)
    edit: Usage           # rebuild of 1,000 cards after editing one title
    rendered: list        # cards rendered by each of those rebuilds
    edited_seconds: float  # the edited card's render, from the report
    cold20: Usage = None   # peak memory: a cold build of 20 cards
    cold200: Usage = None  # and of 200
    cold10k: Usage = None  # None in quick mode
    noop10k: tuple = None  # as noop1000; None in quick mode
    check10k: Usage = None  # `check` right after the cold build of 10,000 cards; None in quick mode
    start: tuple = None     # process start: (libraries out of the page cache, in it, how many files)


class Cardbake:
    """Builds of one catalog with cardbake, into an output and cache folder of their own."""

    def __init__(self, binary, size, name=None, format_arguments=()):
        self.binary = binary
        self.size = size
        self.format_arguments = list(format_arguments)
        self.folder = WORK / "cardbake" / (name or str(size))
        self.output = self.folder / "out"
        self.cache = self.folder / "cache"
        self.report = self.folder / "report.json"

    def command(self, catalog=None, quiet=True):
        """The build command of the catalog (or an edited copy), writing a report."""
        return [self.binary, "build", catalog or make_data.catalog_path(self.size),
                "-o", self.output, "--cache-dir", self.cache, "--report", self.report, *self.format_arguments,
                *(["-q"] if quiet else [])]

    def statuses(self):
        """The number of cards of each status in the last build's report."""
        counts = {}
        for card in json.loads(self.report.read_text())["cards"]:
            counts[card["status"]] = counts.get(card["status"], 0) + 1
        return counts

    def expect(self, status):
        """Raises BenchError unless the last build gave every card this status."""
        counts = self.statuses()
        if counts != {status: self.size}:
            raise BenchError(f"{self.size}-card build: expected {self.size} {status}, got {counts}")

    def cold(self, runs, show_progress=False):
        """Median Usage of builds with an empty cache and output folder; with show_progress,
        cardbake's progress lines go to the terminal."""
        progress(f"cardbake cold build of {self.size} cards, {runs} run(s)")
        return median_usage(runs, self.command(quiet=not show_progress),
                            f"cardbake-cold-{self.size}",
                            prepare=lambda: remove(self.output, self.cache),
                            check=lambda: self.expect("rendered"), show_output=show_progress)

    def noop(self, runs):
        """Rebuilds with nothing changed, each started as soon as the build before it ended,
        after a cold build of the same catalog: the Usage of the first, which reads back once
        the bitmaps the cold build just wrote, and the median Usage of `runs` more."""
        progress(f"cardbake no-op rebuild of {self.size} cards, 1 + {runs} run(s)")
        command, check = self.command(), lambda: self.expect("cached")
        first = median_usage(1, command, f"cardbake-noop-{self.size}-first", check=check)
        return first, median_usage(runs, command, f"cardbake-noop-{self.size}", check=check)

    def check(self):
        """The Usage of one `cardbake check` of the catalog, which must find it up to date."""
        progress(f"cardbake check of {self.size} cards")
        return run([self.binary, "check", make_data.catalog_path(self.size), "-o", self.output,
                    "--cache-dir", self.cache, "-q"], f"cardbake-check-{self.size}")

    def manifest(self):
        """The manifest of the last build."""
        return json.loads((self.output / "manifest.json").read_text())


def shared_libraries(binary):
    """The binary and every shared library it loads, as ldd lists them."""
    listing = subprocess.run(["ldd", binary], check=True, capture_output=True, text=True).stdout
    paths = [line.split("=>")[-1].split("(")[0].strip() for line in listing.splitlines()]
    return [Path(binary)] + [Path(path) for path in paths if path.startswith("/")]


def evict(paths):
    """Drops the files' pages from the page cache (posix_fadvise DONTNEED: no root needed), as a
    build that writes many gigabytes does to files it does not touch."""
    for path in paths:
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(descriptor)


def process_start(binary, runs):
    """The median Usage of `cardbake --version` with the binary and its shared libraries out of the
    page cache, and in it: what any first command after a build that evicted them pays to start."""
    progress(f"process start, {runs} run(s) each with the libraries out of the page cache and in it")
    libraries = shared_libraries(binary)
    command = [binary, "--version"]
    cold = median_usage(runs, command, "start-cold", prepare=lambda: evict(libraries))
    return cold, median_usage(runs, command, "start-warm"), len(libraries)


def title_edits(build, runs):
    """Rebuilds after editing one title, `runs` times, each with a new title.

    Returns the median Usage, the numbers of cards rendered in each run, and the median of the
    seconds the report gives for the edited card's render.
    """
    progress(f"cardbake rebuild of {build.size} cards after editing one title, {runs} run(s)")
    document = json.loads(make_data.catalog_path(build.size).read_text())
    edited = make_data.catalog_path(build.size).with_name(f"catalog-{build.size}-edited.json")
    card = document["cards"][EDITED_CARD]
    original = card["title"]
    usages, rendered, seconds = [], [], []
    # New titles on every invocation: a rerun must not find them in the cache.
    started = time.strftime("%H:%M:%S")
    for index in range(runs):
        card["title"] = f"{original}, edited {index + 1} at {started}"
        edited.write_text(json.dumps(document, ensure_ascii=False))
        usages.append(run(build.command(edited), f"cardbake-edit-{build.size}-{index + 1}"))
        report = json.loads(build.report.read_text())["cards"]
        rendered.append(sum(entry["status"] == "rendered" for entry in report))
        seconds.append(report[EDITED_CARD]["seconds"])
    return median(usages), rendered, statistics.median(seconds)


def png_settings():
    """cardbake's PNG settings for the bench's catalogs, as the peers name them (level, filter):
    the catalog style's `compression` and `pngFilter`, else cardbake's defaults (docs/catalog.md).
    The peers save with libvips at that zlib level; cardbake's own writer maps it onto libdeflate."""
    style = json.loads(make_data.catalog_path(48).read_text()).get("style", {})
    name = style.get("pngFilter", "adaptive")
    return style.get("compression", 2), {"adaptive": "all", "average": "avg"}.get(name, name)


def card_geometry(manifest):
    """W and T in points, from the size cardbake gave the first card of the 48-card catalog."""
    size = manifest["cards"][0]["size"]
    catalog = json.loads(make_data.catalog_path(48).read_text())
    image = make_data.catalog_path(48).parent / catalog["cards"][0]["image"]
    return size["width"], size["height"] - feature_height(image, size["width"])


def peers(geometry, png):
    """Each peer's name, command and output folder (its own, under bench/work/peers)."""
    width, text_height = geometry
    level, filter_name = png
    catalog = make_data.catalog_path(48)
    folders = {name: WORK / "peers" / name for name in ("pyvips", "imagemagick")}
    python_options = ["--width", width, "--text-height", text_height,
                      "--compression", level, "--filter", filter_name]
    return {
        "pyvips script": ([sys.executable, BENCH / "peers" / "pyvips_cards.py", catalog,
                           folders["pyvips"], *python_options], folders["pyvips"]),
        "ImageMagick script": ([BENCH / "peers" / "imagemagick_cards.sh", catalog,
                                folders["imagemagick"], width, text_height, level, filter_name],
                               folders["imagemagick"]),
    }


def check_peer_output(name, folder, manifest, extension="png"):
    """Raises BenchError unless a peer wrote every card at every scale, each with the pixel
    size of cardbake's bitmap of it."""
    for card in manifest["cards"]:
        for scale in SCALES:
            expected = card["images"][f"{scale}x"]
            path = folder / f"{card['id']}@{scale}x.{extension}"
            if not path.exists():
                raise BenchError(f"{name} wrote no {path}")
            header = pyvips.Image.new_from_file(str(path))
            if (header.width, header.height) != (expected["width"], expected["height"]):
                raise BenchError(f"{name}: {path} is {header.width}x{header.height}, "
                                 f"not {expected['width']}x{expected['height']}")


def measure_peers(commands, manifest, runs):
    """Median Usage of each peer, each run into an emptied folder, outputs checked."""
    usages = {}
    for name, (command, folder) in commands.items():
        progress(f"{name}, 48 cards, {runs} run(s)")
        usages[name] = median_usage(runs, command, name.replace(" ", "-"),
                                    prepare=lambda folder=folder: remove(folder),
                                    check=lambda name=name, folder=folder: check_peer_output(
                                        name, folder, manifest))
    return usages


def measure_formats(output, runs):
    """The formats table's rows, measured by bench/formats.py on FORMAT_CARDS of cardbake's
    cards."""
    progress(f"formats, {FORMAT_CARDS} cards, {runs} run(s)")
    result = WORK / "formats.json"
    run([sys.executable, BENCH / "formats.py", output, result, "--runs", runs,
         "--cards", FORMAT_CARDS], "formats")
    return json.loads(result.read_text())["rows"]


def table(headers, rows):
    """A markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def usage_row(name, usage, cards=None):
    """A row of a builds table: wall, CPU, CPU/wall, peak RSS, and cards rendered per second
    when `cards` were."""
    return [name, f"{usage.wall:.2f}", f"{usage.cpu:.2f}", f"{usage.cpu / usage.wall:.2f}",
            f"{usage.rss_mb:.0f}", f"{cards / usage.wall:.1f}" if cards else ""]


def target_row(target, measured, goal, met):
    """A row of the targets table; `met` is None for a target not measured."""
    result = "not run" if met is None else "pass" if met else "**FAIL**"
    return [target, measured, goal, result]


def format_rows(rows, png):
    """The formats table's rows; cardbake's current default is marked."""
    default = ("png", f"level {png[0]}, filter {png[1]}")
    cells = []
    for row in rows:
        name = row["format"] + (" (cardbake default)" if (row["format"], row["settings"]) == default
                                else "")
        if row["available"]:
            psnr = "lossless" if row["psnr_db"] is None else f"{row['psnr_db']:.1f}"
            cells.append([name, row["settings"], f"{row['encode_ms']:.1f}",
                          f"{row['bytes'] / 1024:.0f}", f"{row['decode_ms']:.1f}", psnr,
                          f"{row['ssim']:.4f}"])
        else:
            cells.append([name, row["settings"], "not available", "", "", "", ""])
    return cells


def imagemagick_version():
    """ImageMagick's name and version, from `convert -version`."""
    result = subprocess.run(["/usr/bin/convert", "-version"], check=True, capture_output=True,
                            text=True)
    return " ".join(result.stdout.split()[1:3])


def host():
    """Lines giving the date and describing the machine."""
    memory_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemTotal:"))
    return [
        f"- Date: {datetime.datetime.now().astimezone().isoformat(timespec='minutes')}",
        f"- Machine: {os.cpu_count()} cores, {memory_kb / 1024 ** 2:.1f} GiB memory, "
        f"{platform.system()} {platform.release()}",
    ]


def machine():
    """Lines describing the machine and the software measured."""
    return host() + [
        f"- libvips {pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}, "
        f"pyvips {pyvips.__version__}, {imagemagick_version()}",
    ]


def ratio_target(target, numerator, denominator, goal, met, digits=1):
    """A targets-table row for a ratio of two figures, with the test `met(ratio)`."""
    ratio = numerator / denominator
    return target_row(target, f"{ratio:.{digits}f}x", goal, met(ratio))


def targets(r):
    """The targets table's rows, for Results r."""
    cardbake, peer = r.cardbake48, r.peers
    edit_limit = 0.3 + r.edited_seconds
    rss_change = r.cold1000.rss_mb / r.cold100.rss_mb - 1
    return [
        ratio_target("cold build 48 cards, wall: pyvips script / cardbake",
                     peer["pyvips script"].wall, cardbake.wall, ">= 4x", lambda x: x >= 4),
        ratio_target("cold build 48 cards, wall: ImageMagick script / cardbake",
                     peer["ImageMagick script"].wall, cardbake.wall, ">= 30x", lambda x: x >= 30),
        ratio_target("cold build 48 cards, cardbake CPU / wall",
                     cardbake.cpu, cardbake.wall, ">= 1.8", lambda x: x >= 1.8, digits=2),
        *noop10k_targets(r),
        target_row("one title edited in 1,000 cards: cards rendered",
                   ", ".join(map(str, r.rendered)), "exactly 1 (each run)",
                   all(count == 1 for count in r.rendered)),
        target_row("one title edited in 1,000 cards: wall", f"{r.edit.wall:.3f} s",
                   f"< 0.3 s + that card's render ({edit_limit:.3f} s)", r.edit.wall < edit_limit),
        target_row("cold build 1,000 cards: peak RSS", f"{r.cold1000.rss_mb:.0f} MB", "< 300 MB",
                   r.cold1000.rss_mb < 300),
        target_row("cold build 1,000 cards: peak RSS vs 100 cards",
                   f"{rss_change:+.1%} (100 cards: {r.cold100.rss_mb:.0f} MB)", "within 10%",
                   abs(rss_change) <= 0.10),
        rss_flat_row(r),
    ]


def noop10k_targets(r):
    """The targets rows of the 10,000-card catalog once built: the first check and no-op right
    after its cold build, and later no-ops."""
    figures = [("`check` right after the cold build of 10,000 cards, wall", r.check10k),
               ("first no-op rebuild right after the cold build of 10,000 cards, wall",
                r.noop10k[0] if r.noop10k else None),
               ("later no-op rebuilds of 10,000 cards, wall", r.noop10k[1] if r.noop10k else None)]
    return [target_row(name, f"{usage.wall:.3f} s" if usage else "(BENCH_QUICK)", "< 0.3 s",
                       usage.wall < 0.3 if usage else None) for name, usage in figures]


def rss_flat_row(r):
    """The targets row of peak memory as the catalog grows: 200 and 10,000 cards against 20."""
    larger = [(200, r.cold200)] + ([(10000, r.cold10k)] if r.cold10k else [])
    changes = [(cards, usage.rss_mb / r.cold20.rss_mb - 1) for cards, usage in larger]
    measured = ", ".join(f"{cards:,} cards {change:+.1%}" for cards, change in changes)
    return target_row("cold builds of 200 and 10,000 cards: peak RSS vs 20 cards",
                      f"{measured} (20 cards: {r.cold20.rss_mb:.0f} MB)", "within 10%, < 250 MB",
                      all(abs(change) <= 0.10 for _, change in changes)
                      and all(usage.rss_mb < 250 for _, usage in larger))


def noop_rows(noop, cards):
    """The rows of the no-op rebuilds of a catalog: the first after its cold build, then the
    median of the next."""
    first, median_next = noop
    return [usage_row(f"first no-op rebuild after the cold build, {cards:,} cards (1 run)", first),
            usage_row(f"no-op rebuild, {cards:,} cards", median_next)]


def build_rows(r):
    """The rows of cardbake's larger and incremental builds, for Results r."""
    rows = [usage_row("cold build, 20 cards", r.cold20, 20),
            usage_row("cold build, 100 cards", r.cold100, 100),
            usage_row("cold build, 200 cards", r.cold200, 200),
            usage_row("cold build, 1,000 cards", r.cold1000, 1000),
            *noop_rows(r.noop1000, 1000),
            usage_row("one title edited, 1,000 cards", r.edit)]
    if r.noop10k:
        rows += [usage_row("cold build, 10,000 cards (1 run)", r.cold10k, 10000),
                 usage_row("`check` right after the cold build, 10,000 cards (1 run)", r.check10k),
                 *noop_rows(r.noop10k, 10000)]
    if r.start:
        rows += [usage_row("process start (`cardbake --version`), libraries out of the page cache", r.start[0]),
                 usage_row("process start (`cardbake --version`), libraries in the page cache", r.start[1])]
    return rows


def compose_report(r):
    """The whole report as markdown, for Results r."""
    usage_headers = ["run", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s rendered"]
    quick_note = ["", "**Quick development run (BENCH_QUICK=1): one run each, no 10,000-card "
                      "builds. Not a result.**"] if QUICK else []
    return "\n".join([
        "# Benchmark results",
        "",
        "Command: `make bench` (bench/run; bench/README.md says what each figure is).",
        *quick_note,
        "",
        *machine(),
        f"- {r.version}. PNG output at compression {r.png[0]}, filter {r.png[1]}: cardbake's "
        f"default, given to every peer (libvips at that zlib level; cardbake maps it onto libdeflate). Cards {r.geometry[0]} pt wide with a "
        f"{r.geometry[1]} pt text area, at scales {', '.join(f'{s}x' for s in SCALES)}.",
        f"- Photos: 12 MP JPEGs (4032 x 3024). Each timing is the median of {RUNS} run(s).",
        "",
        "## Targets",
        "",
        table(["target", "measured", "goal", "result"], targets(r)),
        "",
        "## Cold build of 48 cards x 3 scales (PNG): cardbake and its peers",
        "",
        table(usage_headers, [usage_row("cardbake", r.cardbake48, 48)]
              + [usage_row(name, usage, 48) for name, usage in r.peers.items()]),
        "",
        "## cardbake: larger catalogs and incremental builds",
        "",
        table(usage_headers, build_rows(r)),
        "",
        f"Cards rendered by each title-edit rebuild: {', '.join(map(str, r.rendered))}; the "
        f"edited card's render took {r.edited_seconds:.3f} s (median, from the report). The "
        "title edits follow the no-op rebuilds. Every rebuild starts as soon as the build before "
        "it has ended. The first `check` and no-op rebuild right after a cold build are timed "
        "apart: they are what a CI step or an edit loop runs next, and they must not read back "
        "the bitmaps the cold build has just written.",
        *(["", f"Process start is `cardbake --version` with the binary and its {r.start[2] - 1} shared "
               "libraries dropped from the page cache (`posix_fadvise`), then with them in it. The cold "
               "build of 10,000 cards writes its bitmaps twice (cache and output folder), tens of "
               "gigabytes, more than the machine's memory: a first command that found its libraries "
               "dropped by those writes would pay the first figure on top of its own work (cardbake "
               "keeps its bitmaps within a page-cache budget so that they are not)."] if r.start else []),
        "",
        f"## Formats, on {FORMAT_CARDS} of cardbake's 48 cards (per card, all scales)",
        "",
        table(["format", "settings", "encode ms", "KB", "decode ms", "PSNR dB", "SSIM"],
              format_rows(r.formats, r.png)),
    ])


def main():
    """Runs the whole benchmark, prints the report and writes bench/RESULTS.md."""
    binary = cardbake_binary()
    check_free_disk()
    progress("making the data (once)")
    make_data.main()
    version = subprocess.run([binary, "--version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    build48 = Cardbake(binary, 48)
    cardbake48 = build48.cold(RUNS)
    manifest = build48.manifest()
    png = png_settings()
    geometry = card_geometry(manifest)
    peer_usages = measure_peers(peers(geometry, png), manifest, RUNS)
    formats = measure_formats(build48.output, RUNS)
    cold100 = Cardbake(binary, 100).cold(RUNS)
    build1000 = Cardbake(binary, 1000)
    cold1000 = build1000.cold(RUNS)
    noop1000 = build1000.noop(RUNS)
    measured = Results(version, png, geometry, cardbake48, peer_usages, formats, cold100, cold1000,
                       noop1000, *title_edits(build1000, RUNS))
    measured.cold20 = Cardbake(binary, 20).cold(RUNS)
    measured.cold200 = Cardbake(binary, 200).cold(RUNS)
    if not QUICK:
        build10k = Cardbake(binary, 10000)
        measured.cold10k = build10k.cold(1, show_progress=True)
        measured.check10k = build10k.check()
        measured.noop10k = build10k.noop(RUNS)
        # Its cache and output folder hold the bitmaps twice, about 43 GB: the sections after this
        # one need the disk.
        remove(build10k.folder)
    measured.start = process_start(binary, max(RUNS, 3))
    report = compose_report(measured)
    print(report)
    results.write_section(RESULTS, "builds", report)
    # The first no-op rebuild of 10,000 cards right after their cold build is measured above; the
    # incremental section takes check and the no-op from a cold build of 1,000, not a second 10,000.
    run([sys.executable, BENCH / "incremental.py", "--binary", binary, "--results", RESULTS, "--cards", "1000",
         *(["--gc-cards", "100"] if QUICK else [])], "incremental", show_output=True)
    progress(f"wrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"bench: error: {error}")
