"""The edit loop's latency: `cardbake watch` on the 1,000-card catalog, a title saved, the
rebuilt card on disk.

Saves a new title the way editors do (a new file renamed over the catalog), `runs` times, and
measures from the rename to the moment the manifest names the new title, polling its `stat`
every millisecond and reading it when it was replaced. The edited card's own render time, from the report watch rewrites after each
rebuild, is subtracted: what remains is watch's overhead (noticing the change, debouncing,
planning 1,000 cards, writing), against the target of 0.2 s. Prints its table and writes it
to its section of RESULTS.md.
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import time

import make_data
import results
from bench import LOGS, RESULTS, RUNS, BenchError, Cardbake, cardbake_binary, progress, table

CARDS = 1000
EDITED_CARD = 500
TIMEOUT = 600  # seconds: bounds a hung watch, not a target
# Edits timed, whatever BENCH_RUNS says: each takes about a second, and one edit's figure moves by
# tens of milliseconds against a target of 0.2 s.
EDITS = max(RUNS, 5)


def wait_for(condition, what):
    """Polls `condition` every millisecond until it holds; raises BenchError after TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if condition():
            return time.monotonic()
        time.sleep(0.001)
    raise BenchError(f"watch: {what} within {TIMEOUT} s")


class ManifestWatch:
    """Whether the manifest in place names a title for the edited card, read again only when the
    file was replaced: parsing 1,000 cards' manifest every millisecond would take a core from the
    2 that watch runs on."""

    def __init__(self, build):
        self.path = build.output / "manifest.json"
        self.seen = None
        self.title = None

    def names(self, title):
        try:
            status = os.stat(self.path)
            identity = (status.st_ino, status.st_mtime_ns, status.st_size)
            if identity != self.seen:
                self.title = json.loads(self.path.read_text())["cards"][EDITED_CARD]["title"]
                self.seen = identity
        except (OSError, ValueError, KeyError, IndexError):
            return False
        return self.title == title


def measure(binary, runs):
    """Latencies (rename to manifest) and the edited card's render seconds, one pair per run."""
    build = Cardbake(binary, CARDS)
    catalog = make_data.catalog_path(CARDS).with_name(f"catalog-{CARDS}-watched.json")
    document = json.loads(make_data.catalog_path(CARDS).read_text())
    catalog.write_text(json.dumps(document, ensure_ascii=False))
    LOGS.mkdir(parents=True, exist_ok=True)
    with open(LOGS / "watch.log", "w") as log:
        command = build.command(catalog)
        command[1] = "watch"
        watch = subprocess.Popen([str(part) for part in command], stdout=log, stderr=subprocess.STDOUT)
        try:
            manifest = ManifestWatch(build)
            wait_for(lambda: build.report.exists() and manifest.names(document["cards"][EDITED_CARD]["title"]),
                     "the first build never finished")
            latencies, renders = [], []
            # New titles on every invocation: a rerun must not find them in the cache.
            started = time.strftime("%H:%M:%S")
            for index in range(runs):
                title = f"{document['cards'][EDITED_CARD]['title']}, watched {index + 1} at {started}"
                document["cards"][EDITED_CARD]["title"] = title
                saved = catalog.with_suffix(".json.new")
                saved.write_text(json.dumps(document, ensure_ascii=False))
                start = time.monotonic()
                os.rename(saved, catalog)
                latencies.append(wait_for(lambda: manifest.names(title),
                                          "the edited title never reached the manifest") - start)
                time.sleep(0.5)  # the report is written after the manifest
                report = json.loads(build.report.read_text())["cards"][EDITED_CARD]
                if report["status"] != "rendered":
                    raise BenchError(f"watch: the edited card was {report['status']}, not rendered")
                renders.append(report["seconds"])
        finally:
            watch.send_signal(signal.SIGINT)
            watch.wait(timeout=60)
    return latencies, renders


def main():
    binary = cardbake_binary()
    make_data.main()
    progress(f"cardbake watch on {CARDS} cards, {EDITS} title edits")
    latencies, renders = measure(binary, EDITS)
    overheads = [latency - render for latency, render in zip(latencies, renders)]
    rows = [[f"{latency:.3f}", f"{render:.3f}", f"{overhead:.3f}"]
            for latency, render, overhead in zip(latencies, renders, overheads)]
    median = statistics.median(overheads)
    report = "\n".join([
        f"## Edit loop: `cardbake watch` of {CARDS} cards, one title saved ({EDITS} runs)\n",
        "Command: `bench/watch.py` (from `make bench`). From renaming the edited catalog over the watched",
        "one to the manifest naming the new title; the edited card's render is from the report.\n",
        table(["save → manifest s", "the card's render s", "watch's own s"], rows),
        f"\nMedian of watch's own time: {median:.3f} s (target: under 0.2 s): "
        + ("pass" if median < 0.2 else "**FAIL**"),
    ])
    results.publish(RESULTS, "watch", report)


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"bench: error: {error}")
