"""A cold build of the bench's 48 cards over 12 MP photos: cardbake against an expert's pyvips script
and the floor, at the same settings, in alternating runs (`make bench-cold`; also run by `make bench`).

Every contender runs BENCH_RUNS times (3) into emptied folders (cardbake's output and cache folder
too), one after the other in each round, so that the machine's drift falls on all of them alike; each
figure is the median of its runs. Three comparisons:

- PNG at zlib level 2 with adaptive filters, cardbake's PNG settings: cardbake, the expert script
  (peers/expert_cards.py), the floor (peers/floor.py: decode and encode only).
- The default format: cardbake's default (JPEG picked per image: q85 with 4:2:0 chroma first, more
  where its fidelity floor needs it) against the expert script picking per image by the same steps
  and floor (`--fidelity-floor`: encode, decode, compare, as an expert does it in pyvips), the same
  promise about every card; and the floor picking per image by the same steps and floor (its
  stand-ins have no text: their extended rows measure as the text area).
- JPEG q90 without chroma subsampling on every side (cardbake with `"quality": 90` in the catalog's
  style): the same encoder settings exactly.

And cardbake alone on 600 small cards at 1x (the photographs reduced to 800 pixels wide), where
per-card costs rather than pixels set the pace: its CPU/wall says how busy it keeps the cores.

Targets: the expert's wall and CPU time at least 1.5x cardbake's, cardbake's CPU at most 1.1x the
floor's.

usage: cold.py   (BENCH_RUNS, BENCH_QUICK, CARDBAKE as for bench.py)
"""

import json
import re
import subprocess
import sys
from typing import NamedTuple

import pyvips

import bench
import make_data
import results

CARDS = 48
EXPERT_GOAL, FLOOR_GOAL = 1.5, 1.1
SECTION = f"## Cold build of {CARDS} cards × 3 scales: cardbake against an expert's script and the floor"


class Contender(NamedTuple):
    """One command of the comparison: `prepare` empties its folders, `check` verifies what it wrote."""
    name: str
    command: list
    prepare: object
    check: object
    cards: int = CARDS


def cardbake(name, build, catalog=None):
    """cardbake's cold build (a bench.Cardbake) of `catalog` (by default the bench's) into its emptied folders."""
    return Contender(name, build.command(catalog), lambda: bench.remove(build.output, build.cache),
                     lambda: build.expect("rendered"), build.size)


def catalog_at_quality(quality):
    """A copy of the bench's catalog beside it whose style asks for JPEG at `quality` (4:4:4, as a set quality is)."""
    source = make_data.catalog_path(CARDS)
    document = json.loads(source.read_text())
    document["style"].update(format="jpeg", quality=quality)
    copy = source.with_name(f"{source.stem}-jpeg-q{quality}.json")
    copy.write_text(json.dumps(document, indent=1))
    return copy


def script(name, peer, slug, manifest, geometry, png, encoding):
    """A Python peer (expert_cards.py or floor.py) writing the catalog's cards with `encoding`
    (its command-line options for the format) into a folder of its own."""
    width, text_height = geometry
    level, filter_name = png
    folder = bench.WORK / "peers" / slug
    command = [sys.executable, bench.BENCH / "peers" / peer, make_data.catalog_path(CARDS), folder,
               "--width", width, "--text-height", text_height, "--compression", level, "--filter", filter_name,
               *encoding]
    extension = "jpg" if "jpeg" in encoding else "png"
    return Contender(name, command, lambda: bench.remove(folder),
                     lambda: bench.check_peer_output(name, folder, manifest, extension))


def alternating(contenders, runs):
    """The median Usage of each contender over `runs` rounds, each round running every contender once."""
    usages = {contender.name: [] for contender in contenders}
    for index in range(runs):
        for contender in contenders:
            bench.progress(f"cold: {contender.name}, run {index + 1}/{runs}")
            contender.prepare()
            log = re.sub(r"[^a-z0-9]+", "-", contender.name.lower()).strip("-")
            usages[contender.name].append(bench.run(contender.command, f"cold-{log}-{index + 1}"))
            contender.check()
    return {name: bench.median(values) for name, values in usages.items()}, usages


def ratio_rows(comparison, usage, cardbake_name, expert_name, floor_name):
    """The targets of one comparison: expert / cardbake in wall and CPU, cardbake / floor in CPU."""
    ours, expert, floor = usage[cardbake_name], usage[expert_name], usage[floor_name]
    return [
        bench.ratio_target(f"{comparison}: wall, expert / cardbake", expert.wall, ours.wall,
                           f">= {EXPERT_GOAL}x", lambda x: x >= EXPERT_GOAL, digits=2),
        bench.ratio_target(f"{comparison}: CPU, expert / cardbake", expert.cpu, ours.cpu,
                           f">= {EXPERT_GOAL}x", lambda x: x >= EXPERT_GOAL, digits=2),
        bench.ratio_target(f"{comparison}: CPU, cardbake / floor", ours.cpu, floor.cpu,
                           f"<= {FLOOR_GOAL}x", lambda x: x <= FLOOR_GOAL, digits=2),
    ]


def run_figures(runs):
    """Each run's wall and CPU seconds, as `w / c` pairs."""
    return ", ".join(f"{usage.wall:.2f} / {usage.cpu:.2f}" for usage in runs)


def main():
    binary = bench.cardbake_binary()
    make_data.main()
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    png = bench.png_settings()
    # The geometry and the bitmaps' sizes the peers must match come from a first cardbake build.
    png_build = bench.Cardbake(binary, CARDS, "48-png", ["--format", "png"])
    bench.progress("cold: a first cardbake build for the cards' geometry")
    bench.remove(png_build.output, png_build.cache)
    bench.run(png_build.command(), "cold-geometry")
    manifest = png_build.manifest()
    geometry = bench.card_geometry(manifest)
    names = {
        "png": ("cardbake, PNG", "expert script, PNG", "floor, PNG"),
        "default": ("cardbake, the default (JPEG per image)", "expert script, JPEG per image by the same floor",
                    "floor, JPEG per image by the same floor"),
        "q90": ("cardbake, JPEG q90 4:4:4 (the style's quality 90)", "expert script, JPEG q90 4:4:4", "floor, JPEG q90 4:4:4"),
    }
    jpeg_q90 = ["--format", "jpeg", "--quality", "90", "--chroma", "full"]
    contenders = [
        cardbake(names["png"][0], png_build),
        script(names["png"][1], "expert_cards.py", "expert-png", manifest, geometry, png, ["--format", "png"]),
        script(names["png"][2], "floor.py", "floor-png", manifest, geometry, png, ["--format", "png"]),
        cardbake(names["default"][0], bench.Cardbake(binary, CARDS, "48-default", ["--format", "jpeg"])),
        script(names["default"][1], "expert_cards.py", "expert-default", manifest, geometry, png,
               ["--format", "jpeg", "--fidelity-floor"]),
        cardbake(names["q90"][0], bench.Cardbake(binary, CARDS, "48-q90"), catalog_at_quality(90)),
        script(names["q90"][1], "expert_cards.py", "expert-q90", manifest, geometry, png, jpeg_q90),
        script(names["q90"][2], "floor.py", "floor-q90", manifest, geometry, png, jpeg_q90),
        script(names["default"][2], "floor.py", "floor-default", manifest, geometry, png,
               ["--format", "jpeg", "--fidelity-floor"]),
        cardbake(f"cardbake, {make_data.SMALL_CARDS} small cards at 1x, PNG",
                 bench.Cardbake(binary, make_data.SMALL_CARDS, "small-1x"), make_data.small_catalog()),
    ]
    cards = {contender.name: contender.cards for contender in contenders}
    usage, runs = alternating(contenders, bench.RUNS)
    targets = (ratio_rows("PNG level 2, adaptive filters", usage, *names["png"])
               + ratio_rows("the default format (the expert picking per image by the same floor)", usage, *names["default"])
               + ratio_rows("JPEG q90 4:4:4 on every side", usage, *names["q90"]))
    section = "\n".join([
        SECTION, "",
        "Command: `make bench-cold` (bench/cold.py; also run by `make bench`).",
        *(["", "**Quick development run (BENCH_QUICK=1). Not a result.**"] if bench.QUICK else []),
        "", *bench.host(),
        f"- {version}; the expert script and the floor are pyvips {pyvips.__version__} on libvips "
        f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}, one process per core.",
        f"- {CARDS} cards of 12 MP photos (4032 x 3024) at 1x, 2x and 3x, {geometry[0]} pt wide with a {geometry[1]} pt "
        f"text area. {bench.RUNS} rounds; in each, every command below runs once, in this order, into emptied "
        "folders (cardbake's output and cache folder); figures are medians, each run's in the last column.",
        f"- The small cards: {make_data.SMALL_CARDS} cards at 1x over the same photos reduced to "
        f"{make_data.SMALL_WIDTH} pixels wide (bench/make_data.py, `small_catalog`).",
        "",
        "### Targets", "",
        bench.table(["target", "measured", "goal", "result"], targets),
        "", "### Runs", "",
        bench.table(["command", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s", "runs: wall / CPU s"],
                    [bench.usage_row(name, figures, cards[name]) + [run_figures(runs[name])]
                     for name, figures in usage.items()]),
    ])
    results.publish(bench.RESULTS, "cold", section)


if __name__ == "__main__":
    try:
        main()
    except bench.BenchError as error:
        sys.exit(f"bench: error: {error}")
