"""What each locale costs: the cold build of a catalog in one locale against the same catalog in 5
and in 10, by CPU time, and so what each extra locale costs as a share of a one-locale card.

    bench/.venv/bin/python bench/locales.py [--cards 48]

The catalog is the benchmark's (its photographs and English texts) in the default format (JPEG),
every card translated into every locale: Arabic and Japanese take a demo card's translations (card
j the demo catalog's card j mod 13), the other locales the card's English text marked with their
tag, so that every locale's bitmaps differ. The issue's aim: each extra locale at most 60 % of a one-locale card.
Replaces its own section of RESULTS.md (bench/work/RESULTS-quick.md with BENCH_QUICK=1). Medians of
BENCH_RUNS runs.
"""

import json
import os

import make_data
from bench import RUNS, WORK, CatalogBuild, median_usage, progress, publish_section, remove, run_script, table, usage_row

SECTION = "## Every locale in one build"
LOCALES = ["en", "ar", "ja", "de", "pt-BR", "fr", "es", "zh-Hans", "ko", "hi"]
COUNTS = (1, 5, 10)
AIM = 0.60


def localized_catalog(cards, count, folder):
    """The benchmark's catalog of `cards` cards in the first `count` of LOCALES, in the default format."""
    catalog = json.loads(make_data.catalog_path(cards).read_text())
    demo = json.loads(make_data.DEMO_CATALOG.read_text())["cards"]
    catalog["style"] = {key: value for key, value in catalog["style"].items() if key != "format"}
    for card in catalog["cards"]:
        card["image"] = str(make_data.DATA / card["image"])
    if count > 1:
        catalog["locales"] = LOCALES[:count]
        for index, card in enumerate(catalog["cards"]):
            source = demo[index % len(demo)]
            for field in ("title", "description"):
                texts = {"en": card[field]}
                for locale in LOCALES[1:count]:
                    own = source[field].get(locale) if isinstance(source[field], dict) else None
                    texts[locale] = f"{own} {index + 1}" if own else f"[{locale}] {card[field]}"
                card[field] = texts
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"catalog-{cards}-{count}-locales.json"
    path.write_text(json.dumps(catalog, ensure_ascii=False, indent=1))
    return path


def measure(binary, cards):
    """The median usage of a cold build in each count of locales."""
    root = WORK / "locales" / str(cards)
    measured = {}
    for count in COUNTS:
        build = CatalogBuild(binary, localized_catalog(cards, count, root), root / f"{count}", cards)
        progress(f"locales: cold build of {cards} cards in {count} locale(s), {RUNS} run(s)")
        measured[count] = median_usage(RUNS, build.command, f"locales-{count}-{cards}",
                                       prepare=lambda build=build: remove(build.folder),
                                       check=lambda build=build: build.expect("rendered"))
    return measured


def section(cards, measured):
    one = measured[1].cpu
    rows = [usage_row(f"{count} locale(s), {cards} cards", usage, cards) for count, usage in measured.items()]
    shares = {count: (measured[count].cpu - one) / (count - 1) / one for count in COUNTS if count > 1}
    verdict = "met" if all(share <= AIM for share in shares.values()) else "**not met**"
    return "\n\n".join([
        f"{SECTION}: a cold build of {cards} cards of 12 MP photos × 3 scales (JPEG, the default) in 1, 5 and 10 locales",
        table(["build", "wall s", "CPU s", "CPU/wall", "peak RSS MB", "cards/s rendered"], rows),
        "Each extra locale costs "
        + ", ".join(f"**{share * 100:.0f} %** of a one-locale card's CPU at {count} locales" for count, share in shares.items())
        + f" (aim: at most {AIM * 100:.0f} %, {verdict}): the photo is decoded and its background blurred once per card, "
        f"and each locale lays out, paints and encodes its own bitmaps. Medians of {RUNS} run(s); "
        f"`bench/.venv/bin/python bench/locales.py --cards {cards}`"
        + (f" with `CARDBAKE={os.environ['CARDBAKE']}`." if "CARDBAKE" in os.environ else ".")
        + f" Load average when it ended: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
    ])


def main():
    publish_section(__doc__, "locales", 48, lambda binary, cards: section(cards, measure(binary, cards)))


if __name__ == "__main__":
    run_script(main)
