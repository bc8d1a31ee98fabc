"""The sharded build's benchmark: does splitting a catalog across N runners cost CPU?

Builds the catalog once unsharded, then as N shards one after another, each with an empty
cache and output folder of its own (as N fresh CI runners), then merges the shards. It does so
twice: with no cache shared between the shards, and with the shards sharing one remote cache
(nginx on loopback, bench/nginx_cache.py) as the recipes in docs/ci set them up. Compares the
total CPU time (user + system of the child processes, from os.wait4, plus nginx's own) of the
shards and the merge with the unsharded build's (target: within 10 %, for the shared cache), and
checks that the merged manifest has the unsharded manifest's bytes. Writes its own section of
bench/RESULTS.md (of bench/work/RESULTS-quick.md with BENCH_QUICK=1), replacing the one a
previous run wrote.

usage: shard.py [--cards N] [--shards N] [--runs N]   (defaults: 1,000 cards, 100 with
BENCH_QUICK=1; 4 shards; BENCH_RUNS runs)
"""

import argparse
import dataclasses
import statistics

import make_data
import results
from bench import (QUICK, RESULTS, RUNS, WORK, BenchError, Usage, cardbake_binary, median_usage,
                   progress, remove, run, table, target_row, usage_row, run_script)
from nginx_cache import NginxCache

TARGET = 0.10  # the shards and merge may take this much more CPU than the unsharded build


@dataclasses.dataclass
class ShardedBuild:
    """One sharded build: each shard's Usage, the merge's, and the CPU the cache server used."""
    parts: list
    merge: Usage
    server_cpu: float = 0.0

    @property
    def cpu(self):
        return sum(part.cpu for part in self.parts) + self.merge.cpu + self.server_cpu


def sharded_build(binary, cards, shards, folder, log_name, server=None):
    """Builds the shards one after another from empty caches and output folders, then merges them."""
    catalog = make_data.catalog_path(cards)
    outputs = [folder / f"shard{index}" / "out" for index in range(1, shards + 1)]
    remove(folder)
    if server:
        server.clear()
        server_before = server.cpu_seconds()
    parts = []
    for index, output in enumerate(outputs, 1):
        command = [binary, "build", catalog, "--shard", f"{index}/{shards}", "-o", output,
                   "--cache-dir", output.parent / "cache", "-q"]
        if server:
            command += ["--remote-cache", server.url]
        parts.append(run(command, f"{log_name}-{index}-of-{shards}-{cards}"))
    merge = run([binary, "merge", folder / "merged", *outputs, "-q"], f"{log_name}-merge-{cards}")
    return ShardedBuild(parts, merge, server.cpu_seconds() - server_before if server else 0.0)


def median_sharded_build(runs, build):
    """The run of `build()` whose total CPU is the median of `runs` runs."""
    builds = sorted((build() for _ in range(runs)), key=lambda sharded: sharded.cpu)
    return builds[(len(builds) - 1) // 2]


def measure(binary, cards, shards, runs):
    """The unsharded cold build's median Usage, and the median sharded builds without and with a shared cache."""
    folder = WORK / "shard" / str(cards)
    whole_output, whole_cache = folder / "whole" / "out", folder / "whole" / "cache"
    progress(f"unsharded cold build of {cards} cards, {runs} run(s)")
    whole = median_usage(runs, [binary, "build", make_data.catalog_path(cards), "-o", whole_output,
                                "--cache-dir", whole_cache, "-q"],
                         f"shard-whole-{cards}", prepare=lambda: remove(whole_output, whole_cache))
    expected = (whole_output / "manifest.json").read_bytes()

    def checked(build, sharded_folder):
        if (sharded_folder / "merged" / "manifest.json").read_bytes() != expected:
            raise BenchError(f"the merged manifest {sharded_folder}/merged/manifest.json differs from the unsharded build's")
        return build

    alone_folder = folder / "alone"
    progress(f"{shards} shards of {cards} cards with caches of their own, then merge, {runs} run(s)")
    alone = median_sharded_build(runs, lambda: checked(
        sharded_build(binary, cards, shards, alone_folder, "shard-alone"), alone_folder))
    remove(alone_folder)
    shared_folder = folder / "shared"
    with NginxCache(folder / "nginx") as server:
        progress(f"{shards} shards of {cards} cards sharing nginx on loopback, then merge, {runs} run(s)")
        shared = median_sharded_build(runs, lambda: checked(
            sharded_build(binary, cards, shards, shared_folder, "shard-shared", server), shared_folder))
    remove(shared_folder, folder / "nginx", folder / "whole")
    return whole, alone, shared


def section(cards, shards, runs, whole, alone, shared):
    """This benchmark's section of RESULTS.md."""
    def change(sharded):
        return sharded.cpu / whole.cpu - 1

    headers = ["run", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s rendered"]
    rows = [usage_row(f"unsharded cold build, {cards:,} cards", whole, cards)]
    for name, sharded in (("own caches", alone), ("shared remote cache", shared)):
        rows += [usage_row(f"{name}: shard {index}/{shards}, cold", part) for index, part in enumerate(sharded.parts, 1)]
        rows += [usage_row(f"{name}: merge of {shards} shards", sharded.merge)]
    return "\n".join([
        "## Sharded build",
        "",
        f"Command: `bench/shard.py --cards {cards} --shards {shards} --runs {runs}` (run by `make bench`). "
        f"The catalog of {cards:,} cards x 3 scales (PNG) built once unsharded, then as {shards} shards "
        "one after another, each with an empty local cache and output folder of its own (as fresh CI runners), "
        "then merged; twice: with no cache shared between the shards, and with the shards sharing one remote "
        "cache (nginx on loopback), as the CI recipes set them up. The CPU of a sharded build is that of its "
        f"shards, its merge and (shared) nginx. Median of {runs} run(s).",
        *(["", "**Quick development run (BENCH_QUICK=1). Not a result.**"] if QUICK else []),
        "",
        table(["target", "measured", "goal", "result"], [
            target_row(f"{shards} shards with caches of their own + merge vs unsharded, total CPU",
                       f"{change(alone):+.1%} ({alone.cpu:.2f} s vs {whole.cpu:.2f} s)",
                       f"within {TARGET:.0%}", abs(change(alone)) <= TARGET),
            target_row(f"{shards} shards sharing a remote cache + merge vs unsharded, total CPU",
                       f"{change(shared):+.1%} ({shared.cpu:.2f} s, nginx {shared.server_cpu:.2f} s, vs {whole.cpu:.2f} s)",
                       f"within {TARGET:.0%}", abs(change(shared)) <= TARGET),
        ]),
        "",
        table(headers, rows),
        "",
        f"The bench's {cards:,} cards use {make_data.PHOTO_COUNT} photos, and the cards of one photo share its "
        "blurred background in the cache: a shard with a cache of its own computes again the backgrounds of "
        "its photos that another shard computed too, and a shard sharing a remote cache downloads them. Each "
        "card still decodes its own photo, the larger cost. A single run's CPU varies by several percent on "
        "a shared machine: BENCH_RUNS=3 gives a firmer figure.",
        "",
        "The merged manifest has the unsharded build's bytes (checked on every run).",
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100 if QUICK else 1000,
                        choices=make_data.CATALOG_SIZES)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--runs", type=int, default=RUNS)
    arguments = parser.parse_args()
    binary = cardbake_binary()
    make_data.main()
    text = section(arguments.cards, arguments.shards, arguments.runs,
                   *measure(binary, arguments.cards, arguments.shards, arguments.runs))
    results.publish(RESULTS, "shard", text)


if __name__ == "__main__":
    run_script(main)
