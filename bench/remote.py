"""The remote-cache benchmark: on a loopback nginx (WebDAV PUT, bench/nginx_cache.py), a cold
build of the catalog that fills the remote cache, then a build on a "second machine" with an
empty local cache and output folder, which downloads every card. Its wall time as a ratio to the
cold build's is the figure; the target is at least 10 times faster.

    bench/.venv/bin/python bench/remote.py [--cards 48]

Called by bench/run after bench.py; replaces its own section of
RESULTS.md (bench/work/RESULTS-quick.md with BENCH_QUICK=1). Medians of BENCH_RUNS runs.
"""

import json
import os

import make_data
from bench import (RUNS, WORK, CatalogBuild, median_usage, progress, publish_section, remove, table,
                   usage_row)
from nginx_cache import NginxCache

TARGET = 10.0
SECTION = "## Remote cache"


def machine(binary, cards, name, server):
    """A build of the catalog with a local cache and output folder of its own, sharing `server`."""
    return CatalogBuild(binary, make_data.catalog_path(cards), WORK / "remote" / str(cards) / name, cards,
                        extra=["--remote-cache", server.url])


def measure(binary, cards):
    """Usage of the cold build and of the download build, and the download build's report."""
    with NginxCache(WORK / "remote" / str(cards) / "nginx") as server:
        fill = machine(binary, cards, "fill", server)
        fetch = machine(binary, cards, "fetch", server)
        progress(f"remote cache: cold build of {cards} cards filling nginx, {RUNS} run(s)")
        cold = median_usage(RUNS, fill.command, f"remote-cold-{cards}",
                            prepare=lambda: (remove(fill.folder), server.clear()),
                            check=lambda: fill.expect("rendered"))
        progress(f"remote cache: {cards} cards from an empty local cache, {RUNS} run(s)")
        warm = median_usage(RUNS, fetch.command, f"remote-download-{cards}",
                            prepare=lambda: remove(fetch.folder),
                            check=lambda: fetch.expect("cached"))
        uploaded = json.loads(fill.report.read_text())["remoteCache"]
        downloaded = fetch.expect("cached")["remoteCache"]
    return cold, warm, uploaded, downloaded


def section(cards, cold, warm, uploaded, downloaded):
    ratio = cold.wall / warm.wall
    rows = [usage_row("cold build, filling the remote cache", cold, cards),
            usage_row("second machine, empty local cache: everything downloaded", warm)]
    return "\n\n".join([
        f"{SECTION}: a second machine with an empty local cache ({cards} cards × 3 scales, PNG, nginx on loopback)",
        table(["build", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s rendered"], rows),
        f"Download build **{ratio:.1f}×** faster than the cold build (target ≥ {TARGET:.0f}×: "
        f"{'pass' if ratio >= TARGET else '**FAIL**'}). The cold build uploaded {uploaded['uploads']} objects "
        f"({uploaded['uploadedBytes'] / 1e6:.1f} MB); the second machine fetched {downloaded['hits']} "
        f"({downloaded['downloadedBytes'] / 1e6:.1f} MB), rendered nothing and uploaded {downloaded['uploads']}. "
        f"Medians of {RUNS} run(s); `bench/.venv/bin/python bench/remote.py --cards {cards}`"
        + (f" with `CARDBAKE={os.environ['CARDBAKE']}`." if "CARDBAKE" in os.environ else "")
        + f" Load average when it ended: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
    ])


def main():
    publish_section(__doc__, "remote", 48, lambda binary, cards: section(cards, *measure(binary, cards)))


if __name__ == "__main__":
    main()
