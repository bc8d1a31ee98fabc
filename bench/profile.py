"""Where a cold build's CPU goes: `perf record` of cardbake's cold build of the bench's 48 cards
(12 MP photos, 1x/2x/3x), as PNG (compression 2, adaptive filters) and in the default format,
its samples sorted into what they do by library and symbol (`make bench-profile`).

Debian's libraries are stripped of their internal symbols, so a sample is classed by the library
it fell in (libdeflate compresses PNG, libjpeg-turbo decodes the photos and, in the default
format, encodes the cards) and, in cardbake's own code, by the Swift type it fell in. Writes the
profile section of bench/RESULTS.md.

usage: profile.py   (BENCH_QUICK as for bench.py)
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH)]

import bench  # noqa: E402
import make_data  # noqa: E402
import results  # noqa: E402

WORK = bench.WORK / "profile"
CARDS = 48
FREQUENCY = 999  # samples per second and thread
# (what the samples did, the library's file name, the symbol), first match wins; None matches anything.
CLASSES = (
    ("SHA-256 of inputs and outputs (libcrypto)", re.compile(r"^libcrypto"), None),
    ("PNG encode: compression and CRCs (libdeflate; zlib, libpng)", re.compile(r"^lib(deflate|z|png)"), None),
    ("JPEG decode of the photos, and encode in the default format (libjpeg-turbo)", re.compile(r"^libjpeg"), None),
    ("libvips: scaling, blur, colour, pipeline (libvips, orc)", re.compile(r"^(libvips|liborc|orcexec)"), None),
    ("text: layout and rasterising (Pango, HarfBuzz, cairo, pixman, FreeType, fontconfig)",
     re.compile(r"^lib(pango|harfbuzz|cairo|pixman|freetype|fontconfig|fribidi|thai|datrie)"), None),
    ("cardbake: resizing, libvips' reductions done here (HorizontalReduction, VerticalReduction)",
     re.compile(r"^cardbake$"), re.compile(r"HorizontalReduction|VerticalReduction")),
    ("cardbake: painting the card's layers (CardCanvas)", re.compile(r"^cardbake$"), re.compile(r"Canvas")),
    ("cardbake: scaling the background up (BackgroundImage)", re.compile(r"^cardbake$"), re.compile(r"BackgroundImage")),
    ("cardbake: text shadows and coverage (GaussianBlur, TextRaster)", re.compile(r"^cardbake$"),
     re.compile(r"GaussianBlur|TextRaster|ctext_|TextLabel|TextCoverage")),
    ("cardbake: placeholder (colour, ThumbHash)", re.compile(r"^cardbake$"), re.compile(r"Placeholder|ThumbHash|Oklab")),
    ("cardbake: fidelity check of the default JPEG (FidelityFloor)", re.compile(r"^cardbake$"),
     re.compile(r"FidelityFloor|SquaredErrors")),
    ("cardbake: PNG row filters (PNGScanlines)", re.compile(r"^cardbake$"), re.compile(r"PNGScanlines|PNGRowFilter|AdaptiveFilter")),
    ("cardbake: the rest (planning, cache, manifest)", re.compile(r"^cardbake$"), None),
    ("kernel: writing and reading files (output, cache, journal)", re.compile(r"^\[kernel"),
     re.compile(r"ext4|jbd2|folio|filemap|find_get_block|recently_deleted|find_inode_bit|iomap|_iter|vfs_|"
                r"generic_perform_write|dentry|inode|path_|link_path|do_renameat|namei")),
    ("kernel: page faults", re.compile(r"^\[kernel"),
     re.compile(r"page_fault|clear_page|do_anonymous_page|handle_mm_fault|do_fault|lock_vma|irqentry_exit")),
    ("kernel: scheduling, locks and the rest", re.compile(r"^\[kernel"), None),
    ("C library, GLib, libm, Swift runtime: allocation, copies, maths",
     re.compile(r"^(libc\.|libglib|libgobject|libm\.|libswift|ld-linux|libFoundation|libdispatch|libstdc)"), None),
)
REPORT_LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)$")


def classify(dso, symbol):
    """The CLASSES name a sample in `dso` at `symbol` belongs to."""
    for name, library, pattern in CLASSES:
        if (library is None or library.search(dso)) and (pattern is None or pattern.search(symbol)):
            return name
    return "other"


def profile(binary, name, format_arguments):
    """A cold build under perf: (CPU seconds of the build, {class: share of samples})."""
    output, cache, data = WORK / f"out-{name}", WORK / f"cache-{name}", WORK / f"{name}.data"
    for folder in (output, cache):
        shutil.rmtree(folder, ignore_errors=True)
    # perf's usage holds the build's, which it waits for; its own sampling adds little.
    cpu = bench.run(["perf", "record", "-q", "-F", FREQUENCY, "-o", data, "--", binary, "build",
                     make_data.catalog_path(CARDS), "-o", output, "--cache-dir", cache, "-q", *format_arguments],
                    f"profile-{name}").cpu
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,sym", "--stdio",
                             "-g", "none", "--percent-limit", "0"], check=True, capture_output=True, text=True).stdout
    shares = {}
    for line in report.splitlines():
        if match := REPORT_LINE.match(line):
            share, dso, symbol = float(match[1]), match[2], match[3]
            kind = classify(dso, symbol)
            shares[kind] = shares.get(kind, 0) + share
    return cpu, shares


def main():
    if shutil.which("perf") is None:
        raise bench.BenchError("perf is not installed: `make bench-profile` installs linux-perf")
    binary = bench.cardbake_binary()
    make_data.main()
    WORK.mkdir(parents=True, exist_ok=True)
    builds = {"PNG, level 2, adaptive filters": ["--format", "png"], "the default: JPEG, picked per image (4:2:0 q85 first)": ["--format", "jpeg"]}
    measured = {}
    for name, arguments in builds.items():
        bench.progress(f"profile: cold build of {CARDS} cards, {name}")
        measured[name] = profile(binary, name.split(",")[0].split(":")[0].replace(" ", "-"), arguments)
    kinds = [name for name, _, _ in CLASSES] + ["other"]
    rows = []
    for kind in kinds:
        cells = []
        for cpu, shares in measured.values():
            share = shares.get(kind, 0)
            cells += [f"{share:.1f} %", f"{1000 * cpu * share / 100 / CARDS:.0f}"]
        if any(shares.get(kind, 0) >= 0.05 for _, shares in measured.values()):
            rows.append([kind, *cells])
    rows.append(["all", *[cell for cpu, _ in measured.values() for cell in ("100 %", f"{1000 * cpu / CARDS:.0f}")]])
    header = ["what the CPU did"] + [f"{label} {name}" for name in measured for label in ("share,", "CPU ms per card,")]
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    section = "\n".join([
        "## Where a cold build's CPU goes (perf)", "",
        f"Command: `make bench-profile` (bench/profile.py: `perf record -F {FREQUENCY}` of `cardbake build "
        f"bench/work/data/catalog-{CARDS}.json` with an empty cache, then `perf report --sort dso,sym`).",
        "", *bench.host(), f"- {version}; {CARDS} cards of 12 MP photos at 1x, 2x and 3x, `--jobs` its default.",
        "- Samples are classed by the library they fell in (Debian strips the libraries' internal symbols) "
        "and, in cardbake's code, by its Swift type; CPU ms per card is the build's CPU time (user and "
        "system, from the kernel) times the share, over the cards.",
        "", bench.table(header, rows),
    ])
    results.publish(bench.RESULTS, "profile", section)


if __name__ == "__main__":
    try:
        main()
    except bench.BenchError as error:
        sys.exit(f"bench: error: {error}")
