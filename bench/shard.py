"""The sharded build's benchmark: does splitting a catalog across N runners cost CPU?

Builds the catalog once unsharded, then as N shards one after another, each with an empty
cache and output folder of its own (as N fresh CI runners), then merges the shards. Compares
the total CPU time (user + system of the child processes, from os.wait4) of the shards and the
merge with the unsharded build's (target: within 10 %), and checks that the merged manifest has
the unsharded manifest's bytes. Writes its own section of bench/RESULTS.md (of
bench/work/RESULTS-quick.md with BENCH_QUICK=1), replacing the one a previous run wrote.

usage: shard.py [--cards N] [--shards N] [--runs N]   (defaults: 1,000 cards, 100 with
BENCH_QUICK=1; 4 shards; BENCH_RUNS runs)
"""

import argparse
import sys

import make_data
import results
from bench import (QUICK, RESULTS, RUNS, WORK, BenchError, Usage, cardbake_binary, median_usage,
                   progress, remove, table, target_row, usage_row)

TARGET = 0.10  # the shards and merge may take this much more CPU than the unsharded build


def measure(binary, cards, shards, runs):
    """The median Usage of the unsharded cold build, of each shard's cold build, and of the merge."""
    catalog = make_data.catalog_path(cards)
    folder = WORK / "shard" / str(cards)
    whole_output, whole_cache = folder / "whole" / "out", folder / "whole" / "cache"
    progress(f"unsharded cold build of {cards} cards, {runs} run(s)")
    whole = median_usage(runs, [binary, "build", catalog, "-o", whole_output, "--cache-dir", whole_cache, "-q"],
                         f"shard-whole-{cards}", prepare=lambda: remove(whole_output, whole_cache))
    parts = []
    for index in range(1, shards + 1):
        output, cache = folder / f"shard{index}" / "out", folder / f"shard{index}" / "cache"
        progress(f"shard {index}/{shards} of {cards} cards, cold, {runs} run(s)")
        parts.append(median_usage(
            runs, [binary, "build", catalog, "--shard", f"{index}/{shards}", "-o", output,
                   "--cache-dir", cache, "-q"],
            f"shard-{index}-of-{shards}-{cards}", prepare=lambda output=output, cache=cache: remove(output, cache)))
    merged = folder / "merged"
    shard_outputs = [folder / f"shard{index}" / "out" for index in range(1, shards + 1)]
    progress(f"merge of {shards} shards")
    merge = median_usage(runs, [binary, "merge", merged, *shard_outputs, "-q"], f"shard-merge-{cards}",
                         prepare=lambda: remove(merged))
    if (merged / "manifest.json").read_bytes() != (whole_output / "manifest.json").read_bytes():
        raise BenchError(f"the merged manifest {merged}/manifest.json differs from the unsharded build's")
    return whole, parts, merge


def section(cards, shards, runs, whole, parts, merge):
    """This benchmark's section of RESULTS.md."""
    total_cpu = sum(part.cpu for part in parts) + merge.cpu
    change = total_cpu / whole.cpu - 1
    headers = ["run", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s rendered"]
    rows = [usage_row(f"unsharded cold build, {cards:,} cards", whole, cards)]
    rows += [usage_row(f"shard {index}/{shards}, cold", part) for index, part in enumerate(parts, 1)]
    rows += [usage_row(f"merge of {shards} shards", merge)]
    return "\n".join([
        "## Sharded build",
        "",
        f"Command: `bench/shard.py --cards {cards} --shards {shards} --runs {runs}` (run by `make bench`). "
        f"The catalog of {cards:,} cards x 3 scales (PNG) built once unsharded, then as {shards} shards "
        "one after another, each with an empty cache and output folder of its own (as fresh CI runners), "
        f"then merged. Median of {runs} run(s).",
        *(["", "**Quick development run (BENCH_QUICK=1). Not a result.**"] if QUICK else []),
        "",
        table(["target", "measured", "goal", "result"], [target_row(
            f"{shards} shards + merge vs unsharded, total CPU",
            f"{change:+.1%} ({total_cpu:.2f} s vs {whole.cpu:.2f} s)", f"within {TARGET:.0%}",
            abs(change) <= TARGET)]),
        "",
        table(headers, rows),
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
    print(text)
    results.write_section(RESULTS, "shard", text)
    progress(f"wrote the sharded build's section of {RESULTS}")


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        print(f"bench: error: {error}", file=sys.stderr)
        sys.exit(1)
