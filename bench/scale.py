"""The benchmark at scale: a catalog of 100,000 small cards, measured end to end.

Builds the catalog (make_data.scale_catalog: 48-point cards at 1x, PNG, over 300 photographs) as 4
shards sharing one remote cache (nginx on loopback, bench/nginx_cache.py), merges them, then works
on the merged output folder with a local cache of its own, as a developer who pulled it would: a
first build that fills the local cache from the remote one, no-op builds, `cardbake check`, one
edited title, one card added, one removed. For each: wall time, peak RSS (os.wait4), the bytes the
process wrote (/proc/<pid>/io) and the files of the output and cache folders whose size, mtime or
inode changed. Then the disk use of the output and of the cache (a hard-linked inode counted once),
the sizes of the manifest's root and pages and of `index.html`, an app's open and first screen
through CardBakeKit (bench/manifest-open) and the gallery's first paint in headless Chromium
(bench/gallery_first_paint.py, when there). Prints a table with each target and writes the
"Scale" section of bench/RESULTS.md (bench/work/RESULTS-quick.md with BENCH_QUICK=1).

usage: scale.py [--cards N]   (default 100,000; 3,000 with BENCH_QUICK=1)
"""

import argparse
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import make_data
import results
from bench import (QUICK, REPO, RESULTS, RUNS, WORK, BenchError, cardbake_binary, median_usage, progress,
                   remove, run, table, target_row, run_script)
from nginx_cache import NginxCache

SHARDS = 4
MiB = 1024 * 1024
# Targets (issue 63).
NOOP_SECONDS = 0.3
EDIT_SECONDS = 1.0        # besides the edited card's own render
EDIT_BYTES = 2 * MiB      # besides the edited card's own bitmaps
RSS_MB = 150
DISK_RATIO = 1.2          # output and cache together against the output alone
OPEN_BYTES = 256 * 1024
OPEN_MS = 50


@dataclasses.dataclass(frozen=True)
class FileState:
    """What tells a rewritten file: its inode, size and mtime."""
    inode: int
    size: int
    mtime_ns: int


def snapshot(*folders):
    """Every file under `folders`, by path, with its FileState."""
    states = {}
    for folder in folders:
        for directory, _, names in os.walk(folder):
            for name in names:
                path = Path(directory) / name
                info = path.lstat()
                states[path] = FileState(info.st_ino, info.st_size, info.st_mtime_ns)
    return states


def disk_use(*paths):
    """Bytes the files and folders at and under `paths` take on disk, each inode counted once (hard
    links share one)."""
    seen = {}
    for path in paths:
        entries = [path] + [Path(directory) / name for directory, subfolders, names in os.walk(path)
                            for name in names + subfolders]
        for entry in entries:
            info = entry.lstat()
            seen[(info.st_dev, info.st_ino)] = info.st_blocks * 512
    return sum(seen.values())


def cache_entries(cache):
    """Each top-level file or folder of the cache with its files, their bytes and its disk use, the largest first."""
    rows = []
    for entry in cache.iterdir():
        states = snapshot(entry) if entry.is_dir() else {entry: FileState(0, entry.stat().st_size, 0)}
        rows.append((entry.name, len(states), sum(state.size for state in states.values()), disk_use(entry)))
    return sorted(rows, key=lambda row: -row[3])


def folder_bytes(folder):
    """The total size of the files under `folder` and how many there are."""
    sizes = [info.size for info in snapshot(folder).values()] if folder.exists() else []
    return sum(sizes), len(sizes)


@dataclasses.dataclass
class Change:
    """One command that changes the catalog, measured: its Usage, the cards it rendered, the edited
    card's render from the report, and the files it changed (path -> size; None when removed)."""
    name: str
    usage: object
    rendered: int
    card_seconds: float
    changed: dict
    own_bitmaps: int  # bytes of the changed files that are the edited card's bitmaps
    report_bytes: int
    card_id: str
    output: Path

    @property
    def output_bitmaps_written(self):
        """How many of the card's files in the output folder the build wrote (not those it removed)."""
        return sum(1 for path, size in self.changed.items() if size is not None
                   and path.parent == self.output / "cards" and path.name.startswith(f"{self.card_id}@"))

    @property
    def changed_bytes(self):
        return sum(size or 0 for size in self.changed.values())

    @property
    def written_besides_bitmaps(self):
        """What the process wrote to disk besides the card's bitmaps and the report the bench asks for."""
        return self.usage.io["write_bytes"] - self.own_bitmaps - self.report_bytes

    @property
    def changed_besides_bitmaps(self):
        return self.changed_bytes - self.own_bitmaps


class Workspace:
    """The merged output folder, its local cache and the catalog file a developer edits in place."""

    def __init__(self, binary, cards):
        self.binary = binary
        self.cards = cards
        self.folder = WORK / "scale" / str(cards)
        self.catalog = self.folder / "catalog.json"
        self.output = self.folder / "out"
        self.cache = self.folder / "cache"
        self.report = self.folder / "report.json"
        self.document = None

    def prepare(self):
        """An empty folder holding the catalog, written beside the generated photographs' folder."""
        remove(self.folder)
        self.folder.mkdir(parents=True)
        source = make_data.scale_catalog(self.cards)
        self.document = json.loads(source.read_text())
        images = source.parent / "images"
        for card in self.document["cards"]:
            card["image"] = str(images / Path(card["image"]).name)
        self.save()

    def save(self):
        """Writes the catalog as editors save: a new file renamed over the old one."""
        temporary = self.catalog.with_name(".catalog.json.saving")
        temporary.write_text(json.dumps(self.document, ensure_ascii=False, indent=1))
        temporary.rename(self.catalog)

    def build_command(self, *extra, output=None, cache=None):
        return [self.binary, "build", self.catalog, "-o", output or self.output,
                "--cache-dir", cache or self.cache, "-q", *extra]

    def statuses(self):
        counts = {}
        for card in json.loads(self.report.read_text())["cards"]:
            counts[card["status"]] = counts.get(card["status"], 0) + 1
        return counts

    def shards(self, server):
        """The catalog built as SHARDS shards sharing `server`, one after another, then merged into
        the output folder: each part's Usage."""
        parts = []
        outputs = []
        for index in range(1, SHARDS + 1):
            shard = self.folder / "shards" / str(index)
            outputs.append(shard / "out")
            progress(f"shard {index}/{SHARDS} of {self.cards:,} cards, sharing nginx")
            parts.append((f"shard {index}/{SHARDS}, cold, remote cache shared",
                          run(self.build_command("--shard", f"{index}/{SHARDS}", "--remote-cache", server.url,
                                                 output=shard / "out", cache=shard / "cache"),
                              f"scale-shard-{index}-{self.cards}")))
        progress(f"merge of {SHARDS} shards")
        parts.append((f"merge of {SHARDS} shards",
                      run([self.binary, "merge", self.output, *outputs, "-q"], f"scale-merge-{self.cards}")))
        return parts

    def settle(self, server):
        """The first build on the merged output with an empty local cache, taking what it lacks from
        the remote cache; it must render nothing."""
        progress("first build on the merged output, empty local cache, remote cache")
        usage = run(self.build_command("--remote-cache", server.url, "--report", self.report),
                    f"scale-settle-{self.cards}")
        self.expect_rendered(0, "the first build on the merged output")
        return usage

    def expect_rendered(self, count, what):
        rendered = self.statuses().get("rendered", 0)
        if rendered != count:
            raise BenchError(f"{what} rendered {rendered} cards, not {count} ({self.statuses()})")

    def change(self, name, edit, rendered, card_id):
        """Applies `edit` to the catalog, saves it and builds, measuring what the build wrote."""
        edit(self.document["cards"])
        self.save()
        remove(self.report)
        before = snapshot(self.output, self.cache)
        progress(f"build after {name}")
        usage = run(self.build_command("--report", self.report), f"scale-{name.replace(' ', '-')}-{self.cards}")
        after = snapshot(self.output, self.cache)
        self.expect_rendered(rendered, f"the build after {name}")
        changed = {path: state.size for path, state in after.items() if before.get(path) != state}
        changed.update({path: None for path in before.keys() - after.keys()})
        report = json.loads(self.report.read_text())["cards"]
        seconds = sum(card["seconds"] for card in report if card["id"] == card_id)
        return Change(name, usage, rendered, seconds, changed, self.own_bitmap_bytes(card_id, changed),
                      self.report.stat().st_size, card_id, self.output)

    def own_bitmap_bytes(self, card_id, changed):
        """Bytes of the changed files that hold the card's bitmaps: its files in the output folder and
        the cache's files with the same bytes (a bitmap the cache keeps inside a record is not one)."""
        bitmaps = {path.read_bytes() for path in (self.output / "cards").glob(f"{card_id}@*")}
        sizes = {len(bitmap) for bitmap in bitmaps}
        return sum(size for path, size in changed.items()
                   if size in sizes and path.exists() and path.read_bytes() in bitmaps)


def manifest_open(workspace, card_id):
    """bench/manifest-open's figures on the output's manifest, or the reason it could not run."""
    binary = os.environ.get("MANIFEST_OPEN")
    if not binary:
        built = subprocess.run(["swift", "build", "-c", "release", "--product", "manifest-open"], cwd=REPO,
                               capture_output=True, text=True)
        if built.returncode != 0:
            return None, "manifest-open did not build: " + (built.stdout + built.stderr).strip().splitlines()[-1]
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO,
                                  check=True, capture_output=True, text=True).stdout.strip()
        binary = Path(bin_path) / "manifest-open"
    opened = subprocess.run([binary, workspace.output / "manifest.json", card_id], capture_output=True, text=True)
    if opened.returncode != 0:
        return None, f"manifest-open failed: {opened.stderr.strip()[-300:]}"
    return json.loads(opened.stdout), None


def gallery_first_paint(workspace):
    """bench/gallery_first_paint.py's figures on the output folder, or None when it is not there."""
    script = Path(__file__).resolve().parent / "gallery_first_paint.py"
    if not script.exists():
        return None
    progress("the gallery's first paint in headless Chromium")
    painted = subprocess.run([sys.executable, script, workspace.output, "--runs", str(max(RUNS, 3))],
                             capture_output=True, text=True)
    if painted.returncode != 0:
        raise BenchError(f"{script} failed:\n{painted.stderr[-2000:]}")
    return json.loads(painted.stdout)


def measure(binary, cards):
    """Runs everything; returns the section's markdown."""
    workspace = Workspace(binary, cards)
    progress(f"the catalog of {cards:,} cards")
    workspace.prepare()
    cards_list = workspace.document["cards"]
    edited, removed = cards_list[cards // 2]["id"], cards_list[cards // 4]["id"]
    with NginxCache(workspace.folder / "nginx") as server:
        built = workspace.shards(server)
        settle = workspace.settle(server)
    remove(workspace.folder / "shards", workspace.folder / "nginx")

    progress(f"no-op builds, 1 + {RUNS} run(s); check, {RUNS} run(s)")
    first_noop = run(workspace.build_command(), f"scale-noop-first-{cards}")
    noop = median_usage(RUNS, workspace.build_command(), f"scale-noop-{cards}")
    check = median_usage(RUNS, [binary, "check", workspace.catalog, "-o", workspace.output,
                                "--cache-dir", workspace.cache, "-q"], f"scale-check-{cards}")

    def edit_title(cards):
        card = next(card for card in cards if card["id"] == edited)
        card["title"] += " (edited)"

    def add_card(cards):
        cards.insert(len(cards) // 3, {**cards[len(cards) // 3], "id": "card-added",
                                       "title": "An added card", "description": "Added by bench/scale.py."})

    def remove_card(cards):
        cards[:] = [card for card in cards if card["id"] != removed]

    changes = [workspace.change("one edited title", edit_title, 1, edited),
               workspace.change("one added card", add_card, 1, "card-added"),
               workspace.change("one removed card", remove_card, 0, removed)]

    output_disk, cache_disk = disk_use(workspace.output), disk_use(workspace.cache)
    entries = cache_entries(workspace.cache)
    both_disk = disk_use(workspace.output, workspace.cache)
    root_bytes = (workspace.output / "manifest.json").stat().st_size
    pages_bytes, pages = folder_bytes(workspace.output / "manifest")
    index = workspace.output / "index.html"
    index_bytes = index.stat().st_size if index.exists() else None
    progress("an app's open and first screen through CardBakeKit")
    opened, open_problem = manifest_open(workspace, cards_list[(3 * len(cards_list)) // 4]["id"])
    painted = gallery_first_paint(workspace)

    runs = [*built, ("first build on the merged output: empty local cache, remote cache", settle),
            ("no-op build, the first", first_noop), (f"no-op build, median of {RUNS}", noop),
            (f"`cardbake check`, median of {RUNS}", check),
            *((f"build after {change.name}", change.usage) for change in changes)]
    return section(cards, runs, noop, first_noop, check, changes, output_disk, cache_disk, both_disk, entries,
                   root_bytes, pages_bytes, pages, index_bytes, opened, open_problem, painted)


def commit():
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, check=True, capture_output=True,
                          text=True).stdout.strip()


def mib(value):
    return f"{value / MiB:.2f} MiB"


def section(cards, runs, noop, first_noop, check, changes, output_disk, cache_disk, both_disk, entries, root_bytes,
            pages_bytes, pages, index_bytes, opened, open_problem, painted):
    edit = changes[0]
    largest_rss = max(runs, key=lambda named: named[1].rss_mb)
    targets = [
        target_row("no-op build (first / median)", f"{first_noop.wall:.3f} / {noop.wall:.3f} s",
                   f"≤ {NOOP_SECONDS} s", max(first_noop.wall, noop.wall) <= NOOP_SECONDS),
        target_row("`cardbake check`", f"{check.wall:.3f} s", f"≤ {NOOP_SECONDS} s", check.wall <= NOOP_SECONDS),
        target_row("one edited title: wall time", f"{edit.usage.wall:.3f} s (the card's render {edit.card_seconds:.3f} s)",
                   f"≤ {EDIT_SECONDS} s + the card's render", edit.usage.wall <= EDIT_SECONDS + edit.card_seconds),
        target_row("one edited title: bytes written besides the card's bitmaps",
                   f"{mib(edit.written_besides_bitmaps)} (/proc io write_bytes); "
                   f"{mib(edit.changed_besides_bitmaps)} in {len(edit.changed)} changed files",
                   f"≤ {mib(EDIT_BYTES)}", max(edit.written_besides_bitmaps, edit.changed_besides_bitmaps) <= EDIT_BYTES),
        target_row("peak RSS, largest of every command", f"{largest_rss[1].rss_mb:.0f} MB ({largest_rss[0]})",
                   f"≤ {RSS_MB} MB", largest_rss[1].rss_mb <= RSS_MB),
        target_row("output + cache on disk against the output", f"{both_disk / output_disk:.2f}x "
                   f"({mib(both_disk)} against {mib(output_disk)}; the cache alone {mib(cache_disk)})",
                   f"≤ {DISK_RATIO}x", both_disk / output_disk <= DISK_RATIO),
    ]
    if opened:
        open_ms = opened["open"]["ms"] + opened["first_screen"]["ms"]
        open_bytes = opened["open"]["bytes"] + opened["first_screen"]["bytes"]
        targets += [
            target_row("app: open + first screen (CardBakeKit), bytes read", f"{open_bytes / 1024:.1f} KiB",
                       f"≤ {OPEN_BYTES // 1024} KiB", open_bytes <= OPEN_BYTES),
            target_row("app: open + first screen, time", f"{open_ms:.1f} ms", f"≤ {OPEN_MS} ms", open_ms <= OPEN_MS),
        ]
    else:
        targets.append(target_row("app: open + first screen (CardBakeKit)", f"not measured: {open_problem}",
                                  f"≤ {OPEN_BYTES // 1024} KiB, ≤ {OPEN_MS} ms", None))

    figures = [
        ["manifest.json (the root)", f"{root_bytes / 1024:.1f} KiB"],
        ["manifest pages (`manifest/`)", f"{mib(pages_bytes)} in {pages:,} files" if pages else "none"],
        ["index.html", f"{index_bytes / 1024:.1f} KiB" if index_bytes is not None else "none"],
        ["output folder on disk", mib(output_disk)],
        ["cache folder on disk (inodes shared with the output counted here too)", mib(cache_disk) + ": "
         + ", ".join(f"`{name}` {files:,} file(s), {mib(size)} of bytes, {mib(disk)} on disk"
                     for name, files, size, disk in entries)],
    ]
    if opened:
        for name, what in (("card_in_middle", "app: one card by position in the middle"),
                           ("card_by_id", "app: one card by ID")):
            figures.append([what, f"{opened[name]['ms']:.1f} ms, {opened[name]['bytes'] / 1024:.1f} KiB "
                                  f"in {opened[name]['files']} file(s)"])
    figures.append(["gallery: first paint in headless Chromium",
                    f"{painted['first_paint_ms']:.0f} ms (median; runs {painted['runs_ms']})" if painted
                    else "gallery: not measured (bench/gallery_first_paint.py is not there)"])

    rows = [[name, f"{usage.wall:.3f}", f"{usage.cpu:.2f}", f"{usage.rss_mb:.0f}",
             f"{usage.io['write_bytes'] / MiB:.2f}" if usage.io else ""] for name, usage in runs]
    change_rows = []
    for change in changes:
        largest = sorted(change.changed.items(), key=lambda item: -(item[1] or 0))
        listed = ", ".join(f"`{path.relative_to(WORK / 'scale' / str(cards))}` "
                           + ("removed" if size is None else f"{size:,} B") for path, size in largest[:8])
        change_rows.append([change.name, str(change.rendered), f"{change.card_seconds:.3f}",
                            f"{change.usage.io['write_bytes']:,}", f"{change.usage.io['cancelled_write_bytes']:,}",
                            f"{change.usage.io['wchar']:,}",
                            f"{change.output_bitmaps_written}", f"{change.own_bitmaps:,}", f"{change.report_bytes:,}",
                            f"{change.changed_bytes:,} in {len(change.changed)}", listed
                            + (f", and {len(largest) - 8} more" if len(largest) > 8 else "")])
    return "\n".join([
        f"## Scale ({cards:,} cards)",
        "",
        f"Commit {commit()}. Command: `bench/scale.py --cards {cards}` (`make bench-scale`). "
        f"{cards:,} cards {make_data.SCALE_CARD_WIDTH} points wide at 1x (PNG) over {make_data.SCALE_PHOTOS} "
        f"photographs, built as {SHARDS} shards sharing nginx on loopback as a remote cache, merged, then "
        "worked on with a local cache: no-op builds, `check`, one edited title, one added card, one "
        f"removed card. Medians of {RUNS} run(s) where it says so. Load average when it ended: "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
        *(["", "**Quick development run (BENCH_QUICK=1). Not a result.**"] if QUICK else []),
        "",
        table(["target", "measured", "goal", "result"], targets),
        "",
        table(["figure", "measured"], figures),
        "",
        table(["command", "wall s", "CPU s", "peak RSS MB", "written MiB (/proc io)"], rows),
        "",
        "What each change wrote: `write_bytes`, `cancelled_write_bytes` and `wchar` from the process's "
        "/proc/<pid>/io as it ended (write_bytes counts the pages it dirtied, the report the bench asks for "
        "included; cancelled_write_bytes the pages of files it removed or replaced before they reached the disk, "
        "whoever wrote them, such as the previous build's manifest); the card's "
        "bitmaps and the report as they are on disk; the files of the output and cache folders whose "
        "inode, size or mtime changed, the largest first. A card's output file is written only when its "
        "bytes change: at 48 points the title is drawn as an ellipsis, so an edited title may leave them as they were.",
        "",
        table(["change", "rendered", "card's render s", "write_bytes", "cancelled_write_bytes", "wchar",
               "card's output files written", "card's bitmaps B", "report B",
               "changed files B", "largest changed files"], change_rows),
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=3000 if QUICK else 100_000)
    cards = parser.parse_args().cards
    binary = cardbake_binary()
    results.publish(RESULTS, "scale", measure(binary, cards))


if __name__ == "__main__":
    run_script(main)
