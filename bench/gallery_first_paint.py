#!/usr/bin/env python3
"""How soon a cardbake gallery shows its first cards: from navigation to the first cards painted,
in Debian's headless Chromium, the page opened from file:// as a designer opens it.

usage: bench/gallery_first_paint.py OUTPUT_FOLDER [--runs N] [--size WxH]

Each run starts a fresh browser (Tests/Browser/chromium_pipe.py), loads OUTPUT_FOLDER/index.html
and reads the performance mark `cardbake-cards-painted`, which the gallery's script sets a task
after the first frame that shows cards filled in from their chunk (placeholder colour and data
URL); its time is from the navigation's start. Prints JSON: {"first_paint_ms": the median over the
runs, "runs_ms": each run's, "index_bytes": the size of index.html}.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "Browser"))

from chromium_pipe import Chromium  # noqa: E402

MARK = "cardbake-cards-painted"


def first_paint_ms(page, width, height):
    """One run: the mark's time in a fresh browser loading `page`."""
    with Chromium(width=width, height=height) as browser:
        browser.navigate(page.as_uri(), timeout=300)
        browser.wait_for(f"performance.getEntriesByName('{MARK}').length > 0", timeout=300)
        return browser.evaluate(f"performance.getEntriesByName('{MARK}')[0].startTime")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path, help="a cardbake output folder holding index.html")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", default="1280x900", help="the viewport in CSS pixels")
    arguments = parser.parse_args()
    page = (arguments.output / "index.html").resolve()
    if not page.is_file():
        sys.exit(f"gallery_first_paint: no index.html in {arguments.output}")
    width, height = (int(value) for value in arguments.size.split("x"))
    runs = [first_paint_ms(page, width, height) for _ in range(arguments.runs)]
    print(json.dumps({"first_paint_ms": round(statistics.median(runs), 1), "runs_ms": [round(run, 1) for run in runs],
                      "index_bytes": page.stat().st_size}))


if __name__ == "__main__":
    main()
