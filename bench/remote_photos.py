"""Photos from URLs: a cold build of a catalog whose every card gives its photo as a URL on a
loopback nginx (bench/nginx_cache.py serving the benchmark's photographs), against the cold build
of the same catalog with the photos as local files; and the no-op rebuilds of both (the remote
one within `maxAge`, so with no request). The difference of the cold builds is what fetching
costs.

    bench/.venv/bin/python bench/remote_photos.py [--cards 1000]

Each card has a URL of its own (`…/images/photo-07.jpg?card=123`), so every card is a download,
though the catalog reuses the 48 photographs. Called by bench/run after remote.py; replaces its
own section of RESULTS.md (bench/work/RESULTS-quick.md with BENCH_QUICK=1). Medians of BENCH_RUNS runs.
"""

import json
import os

import make_data
from bench import (RUNS, WORK, BenchError, CatalogBuild, median_usage, progress, publish_section, remove,
                   run_script, table, usage_row)
from nginx_cache import NginxCache

SECTION = "## Photos from URLs"


def remote_catalog(cards, server, folder):
    """The catalog of `cards` cards with each photo as a URL of its own on `server`."""
    catalog = json.loads(make_data.catalog_path(cards).read_text())
    for index, card in enumerate(catalog["cards"]):
        card["image"] = f"{server.url}/{card['image']}?card={index}"
    catalog["remoteImages"] = {"allow": [f"127.0.0.1:{server.port}/images/"], "maxAge": "1d"}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"catalog-remote-{cards}.json"
    path.write_text(json.dumps(catalog, indent=1))
    return path


def measure(binary, cards):
    """Usage of the cold and no-op builds, local and remote, and the remote cold build's photo report."""
    root = WORK / "remote-photos" / str(cards)
    with NginxCache(root / "nginx") as server:
        os.symlink(make_data.DATA / "images", os.path.join(server.data, "images"))
        local = CatalogBuild(binary, make_data.catalog_path(cards), root / "local", cards)
        remote = CatalogBuild(binary, remote_catalog(cards, server, root), root / "remote", cards)
        measured = {}
        for name, build in (("local", local), ("remote", remote)):
            progress(f"photos from URLs: cold build of {cards} cards, {name} photos, {RUNS} run(s)")
            measured[f"{name} cold"] = median_usage(RUNS, build.command, f"photos-{name}-cold-{cards}",
                                                    prepare=lambda build=build: remove(build.folder),
                                                    check=lambda build=build: build.expect("rendered"))
            photos = build.expect("rendered").get("photos")
            progress(f"photos from URLs: no-op rebuild of {cards} cards, {name} photos, {RUNS} run(s)")
            measured[f"{name} no-op"] = median_usage(RUNS, build.command, f"photos-{name}-noop-{cards}",
                                                     check=lambda build=build: build.expect("cached"))
            if name == "remote":
                noop_photos = build.expect("cached")["photos"]
                if noop_photos["requests"] != 0:
                    raise BenchError(f"the no-op rebuild within maxAge sent {noop_photos['requests']} requests")
                fetched = photos
    return measured, fetched


def section(cards, measured, fetched):
    overhead = measured["remote cold"].wall - measured["local cold"].wall
    rows = [usage_row(f"{name} build, {cards} cards", usage, cards if "cold" in name else None)
            for name, usage in measured.items()]
    return "\n\n".join([
        f"{SECTION}: a cold build with every photo a URL on nginx (loopback), against the same photos as local files "
        f"({cards} cards × 3 scales, PNG)",
        table(["build", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s rendered"], rows),
        f"Fetching costs **{overhead:+.1f} s** on the cold build ({overhead / measured['local cold'].wall * 100:+.0f} %): "
        f"{fetched['requests']} requests, {fetched['downloadedBytes'] / 1e6:.0f} MB downloaded. The no-op rebuild "
        f"within maxAge sent no request. Medians of {RUNS} run(s); `bench/.venv/bin/python bench/remote_photos.py "
        f"--cards {cards}`" + (f" with `CARDBAKE={os.environ['CARDBAKE']}`." if "CARDBAKE" in os.environ else ".")
        + f" Load average when it ended: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
    ])


def main():
    publish_section(__doc__, "photos-from-urls", 1000, lambda binary, cards: section(cards, *measure(binary, cards)))


if __name__ == "__main__":
    run_script(main)
