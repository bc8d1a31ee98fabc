"""The scroll benchmark: do prerendered cards scroll at 60 FPS where cards drawn at runtime do not?

Builds the bench's 100-card catalog with cardbake, as PNG and in the default format (JPEG picked per
image; its gallery is the prerendered page: one `<img>` per card near the viewport) and writes the runtime page
(runtime_page.py: the photo, a CSS blur and saturation, gradient and text drawn live per card).
Each page is loaded in Debian's headless Chromium, driven over the DevTools protocol
(Tests/Browser/chromium_pipe.py), at 390 x 844 CSS pixels and device scale factor 3 (a phone), and
scrolled by a script: SCROLL_PIXELS CSS pixels in SCROLL_SECONDS at a constant speed, the position
set in every requestAnimationFrame callback.
Every frame's time is the delta between callbacks; long tasks come from a PerformanceObserver.
Meanwhile a DevTools trace records what the compositor did, which requestAnimationFrame does not
see: each frame presented or dropped (its PipelineReporter event), and the CPU time that Chromium's
worker threads spent rasterising tiles (where the CSS blur is drawn) and decoding images, that
the display compositor spent drawing frames, and that the renderer's main thread spent in its tasks
(the scrolling script, the gallery's script, receiving images' bytes).
Each run also counts the cards that entered the viewport, so that the device's CPU per card shown
(raster + decode + draw + main thread, over those cards) compares pages whose cards cost differently;
and, as a check that needs no trace, the CPU time the kernel counted for all of the browser's processes
during the scroll, per card shown.
A fresh browser per run; BENCH_RUNS runs (3) of each page, alternating, in each setting (at least 5 in
the two busy-core settings, whose runs vary the most): the
phone as the machine runs; the phone with its main thread throttled 4x
(Emulation.setCPUThrottlingRate), as a slower phone; the whole browser on one core shared with a busy
process, as a phone whose other work takes half its CPU; both at once, the phone short of CPU; and a
1440 x 900 window at scale 2 and at scale 3, whose four columns of cards bring more pixels to decode
or draw per scrolled distance. For the two busy-core settings, a last table sets the default gallery
against the runtime page run by run: late frames and CPU per card shown.

Prints the table and writes it as its own section of bench/RESULTS.md (a quick run, BENCH_QUICK=1:
bench/work/RESULTS-quick.md).
"""

import json
import os
import statistics
import subprocess
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import NamedTuple

BENCH = Path(__file__).resolve().parent.parent
REPO = BENCH.parent
sys.path[:0] = [str(BENCH), str(REPO / "Tests" / "Browser")]

import bench  # noqa: E402  (the bench's helpers: binary, progress, tables, machine)
import make_data  # noqa: E402
import results  # noqa: E402
import runtime_page  # noqa: E402
from chromium_pipe import BrowserError, Chromium  # noqa: E402

CARDS = 48 if bench.QUICK else 100
RUNS = bench.RUNS
BUSY_CORE_RUNS = RUNS if bench.QUICK else max(RUNS, 5)
SCROLL_SECONDS = 6
SCROLL_PIXELS = 18_000


class Setting(NamedTuple):
    """A device the pages are scrolled on."""
    name: str
    viewport: tuple  # (width, height, device scale factor, mobile)
    throttling: int = 1  # Emulation.setCPUThrottlingRate: the main thread this many times slower
    one_busy_core: bool = False  # the whole browser on one core that a busy process shares

    @property
    def runs(self):
        """How many runs each page gets in this setting."""
        return BUSY_CORE_RUNS if self.one_busy_core else RUNS


SETTINGS = (Setting("phone 390 x 844 @3", (390, 844, 3, True)),
            Setting("phone, main thread 4x slower", (390, 844, 3, True), throttling=4),
            Setting("phone, browser on one busy core", (390, 844, 3, True), one_busy_core=True),
            Setting("phone short of CPU: one busy core, main thread 4x slower", (390, 844, 3, True), throttling=4,
                    one_busy_core=True),
            Setting("desktop 1440 x 900 @2", (1440, 900, 2, False)),
            Setting("desktop 1440 x 900 @3", (1440, 900, 3, False)))
BUSY_CORE = 0
FRAME_BUDGET_MS = 1000 / 60
# A frame on time is 16.7 ms give or take the timer's jitter; one that missed a vsync is 33 ms.
LATE_MS = FRAME_BUDGET_MS + 2
SECTION = "## Scroll: prerendered cards against cards drawn at runtime, in headless Chromium"
WORK = bench.WORK / "scroll"
# The trace categories of the events that compositor_work reads.
TRACE_CATEGORIES = ("benchmark", "cc", "viz", "disabled-by-default-devtools.timeline",
                    "disabled-by-default-devtools.timeline.frame")
# Complete trace events whose thread CPU time compositor_work sums, by what they measure.
WORK_EVENTS = {"raster": "RasterTask", "decode": "SoftwareImageDecodeCache::DecodeImageInTask",
               "draw": "Display::DrawAndSwap"}
# A task the renderer's main thread runs (disabled-by-default-devtools.timeline).
MAIN_TASK_EVENT = "RunTask"

# Runs in the page: scrolls at a constant speed, one position per frame, and returns every
# frame's time and the long tasks meanwhile.
SCROLL_SCRIPT = """
new Promise((resolve) => {
  const frames = [], longTasks = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: "longtask" });
  const scroller = document.scrollingElement;
  const distance = Math.min(%(pixels)d, scroller.scrollHeight - innerHeight);
  let start = null, last = null;
  const step = (now) => {
    if (start === null) start = now; else frames.push(now - last);
    last = now;
    const progress = Math.min(1, (now - start) / %(milliseconds)d);
    scroller.scrollTop = distance * progress;
    if (progress < 1) requestAnimationFrame(step);
    else setTimeout(() => {
      observer.disconnect();
      // The gallery holds only the cards near the viewport in the DOM, and counts from its layout.
      const gallery = window.cardbakeGallery;
      const cardsShown = gallery ? gallery.cardsMeeting(0, distance + innerHeight)
        : [...document.querySelectorAll(".card")].filter((card) => {
          const top = card.getBoundingClientRect().top + scroller.scrollTop;
          return top < distance + innerHeight && top + card.offsetHeight > 0;
        }).length;
      resolve({ frames, longTasks, distance, cardsShown });
    }, 200);
  };
  requestAnimationFrame(step);
})
""" % {"pixels": SCROLL_PIXELS, "milliseconds": SCROLL_SECONDS * 1000}

# The first screen is ready: its cards are there, its images have loaded (and, in the gallery, whose
# cards are figures, faded in), and the fonts.
READY = """(() => {
  const onFirstScreen = (element) => element.getBoundingClientRect().top < innerHeight;
  return document.fonts.status === "loaded" && [...document.querySelectorAll(".card")].some(onFirstScreen)
    && [...document.images].filter(onFirstScreen).every((i) => i.complete)
    && [...document.querySelectorAll("figure.card")].filter(onFirstScreen).every((c) => c.classList.contains("shown"));
})()"""


def build_gallery(binary, format):
    """Builds the CARDS-card catalog in `format`, its quality left to cardbake; returns its output
    folder (the gallery is its index.html)."""
    output = WORK / f"output-{CARDS}-{format}"
    bench.run([binary, "build", make_data.catalog_path(CARDS), "--output", output, "--format", format,
               "--cache-dir", WORK / "cache", "--quiet"], f"scroll-build-{CARDS}-{format}")
    return output


@contextmanager
def busy(core):
    """A process spinning on `core` for as long as the block runs."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"],
                               preexec_fn=lambda: os.sched_setaffinity(0, {core}))
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def measure(page, setting):
    """One run: a fresh browser loads `page`, waits for the first screen, scrolls; returns the result."""
    width, height, scale, mobile = setting.viewport
    cpus = {BUSY_CORE} if setting.one_busy_core else None
    with busy(BUSY_CORE) if setting.one_busy_core else nullcontext(), \
            Chromium(width=width, height=height, scale=scale, mobile=mobile, cpus=cpus) as browser:
        browser.navigate(page.as_uri())
        browser.wait_for(READY)
        browser.wait_for("new Promise((r) => setTimeout(() => r(true), 1000))")
        browser.page("Emulation.setCPUThrottlingRate", {"rate": setting.throttling})
        browser.start_trace(TRACE_CATEGORIES)
        cpu_before = process_tree_cpu_ms(browser.process.pid)
        result = browser.evaluate(SCROLL_SCRIPT, timeout=SCROLL_SECONDS * 20)
        result["browserCpu"] = process_tree_cpu_ms(browser.process.pid) - cpu_before
        result["compositor"] = compositor_work(browser.end_trace())
        result["load"] = os.getloadavg()[0]
        return result


def process_tree_cpu_ms(root):
    """The user and system CPU ms the kernel has counted for process `root` and its descendants alive now."""
    parents, ticks = {}, {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        parents[int(entry)], ticks[int(entry)] = int(fields[1]), int(fields[11]) + int(fields[12])
    tree, added = {root}, {root}
    while added:
        added = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= added
    return sum(ticks.get(pid, 0) for pid in tree) * 1000 / os.sysconf("SC_CLK_TCK")


def compositor_work(events):
    """From a trace's events: how many frames the compositor presented (all of it or without the
    main thread's update), dropped, or had nothing to show; the CPU ms of each WORK_EVENTS; and the
    CPU ms of the renderer's main thread (its outermost tasks), where the scrolling script, the
    gallery's script and the page's loading run."""
    states = [event["args"]["frame_reporter"]["state"] for event in events
              if event["name"] == "PipelineReporter" and event.get("ph") == "b"]
    work = {kind: sum(event.get("tdur", 0) for event in events if event["name"] == name) / 1000
            for kind, name in WORK_EVENTS.items()}
    return {"presented": states.count("STATE_PRESENTED_ALL"), "partial": states.count("STATE_PRESENTED_PARTIAL"),
            "dropped": states.count("STATE_DROPPED"), **work, "main": main_thread_work(events)}


def main_thread_work(events):
    """The CPU ms of the renderer main thread's tasks in a trace, a task run inside another counted once."""
    main = {(event["pid"], event["tid"]) for event in events
            if event.get("ph") == "M" and event["name"] == "thread_name" and event["args"]["name"] == "CrRendererMain"}
    tasks = sorted((event["ts"], event["ts"] + event["dur"], event.get("tdur", 0)) for event in events
                   if event["name"] == MAIN_TASK_EVENT and event.get("ph") == "X" and (event["pid"], event["tid"]) in main)
    total, end = 0, -1
    for start, finish, cpu in tasks:
        if start >= end:
            total, end = total + cpu, finish
    return total / 1000


def percentile(values, share):
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def late_share(frames):
    """The share of `frames` (ms) that missed at least one vsync."""
    return sum(frame > LATE_MS for frame in frames) / len(frames)


def cpu_per_card(run):
    """Device CPU ms (raster + decode + draw + main thread) per card that entered the viewport in `run`."""
    return sum(run["compositor"][key] for key in (*WORK_EVENTS, "main")) / run["cardsShown"]


def browser_cpu_per_card(run):
    """The CPU ms of all the browser's processes during the scroll per card that entered the viewport in `run`."""
    return run["browserCpu"] / run["cardsShown"]


def row(setting, name, runs):
    """A table row from the runs of one page in one setting."""
    frames = [frame for run in runs for frame in run["frames"]]
    long_tasks = [task for run in runs for task in run["longTasks"]]
    compositor = [run["compositor"] for run in runs]

    def per_run(key, format="{:.0f}"):
        """The median over the runs of a compositor figure, and each run's in brackets."""
        values = [run[key] for run in compositor]
        return f"{format.format(statistics.median(values))} ({', '.join(format.format(value) for value in values)})"

    def per_card_shown(figure):
        values = [figure(run) for run in runs]
        return f"{statistics.median(values):.1f} ({', '.join(f'{value:.1f}' for value in values)})"

    return [setting, name,
            f"{len(frames)} ({', '.join(str(len(run['frames'])) for run in runs)})",
            f"{statistics.median(frames):.1f}", f"{percentile(frames, 0.95):.1f}",
            f"{100 * late_share(frames):.1f} %",
            f"{len(long_tasks)} ({sum(long_tasks):.0f} ms)",
            per_run("presented"), per_run("partial"), per_run("dropped"),
            per_run("raster"), per_run("decode"), per_run("draw"), per_run("main"),
            f"{statistics.median(run['cardsShown'] for run in runs):.0f}", per_card_shown(cpu_per_card),
            per_card_shown(browser_cpu_per_card),
            ", ".join(f"{run['load']:.1f}" for run in runs)]


def short_of_cpu_rows(raw, gallery, runtime):
    """Per busy-core setting and run: the default gallery's late frames and CPU per card shown against
    the runtime page's, and whether the gallery had fewer late frames and less CPU per card in every run."""
    rows = []
    for setting in (setting for setting in SETTINGS if setting.one_busy_core):
        pairs = list(zip(raw[setting.name][gallery], raw[setting.name][runtime]))
        figures = [(late_share(ours["frames"]), late_share(theirs["frames"]), cpu_per_card(ours), cpu_per_card(theirs))
                   for ours, theirs in pairs]
        browser = [(browser_cpu_per_card(ours), browser_cpu_per_card(theirs)) for ours, theirs in pairs]
        rows.append([setting.name,
                     ", ".join(f"{100 * ours:.1f} / {100 * theirs:.1f} %" for ours, theirs, _, _ in figures),
                     ", ".join(f"{ours:.1f} / {theirs:.1f}" for _, _, ours, theirs in figures),
                     ", ".join(f"{ours:.0f} / {theirs:.0f}" for ours, theirs in browser),
                     "yes" if all(late < runtime_late and cpu < runtime_cpu for late, runtime_late, cpu, runtime_cpu in figures)
                     else "no"])
    return bench.table(["setting", "late frames per run: gallery / runtime", "CPU ms per card shown per run: gallery / runtime",
                        "browser CPU ms per card shown per run: gallery / runtime",
                        "gallery fewer late frames and less CPU per card shown in every run"], rows)


def main():
    binary = bench.cardbake_binary()
    make_data.main()
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    bench.progress(f"scroll: building {CARDS} cards")
    png, default = build_gallery(binary, "png"), build_gallery(binary, "jpeg")
    gallery, runtime = "prerendered: cardbake gallery, JPEG (the default)", "runtime: CSS blur, gradient, text"
    pages = {"prerendered: cardbake gallery, PNG": png / "index.html",
             gallery: default / "index.html",
             runtime: runtime_page.write(
                 WORK / f"runtime-{CARDS}", png / "manifest.json", make_data.catalog_path(CARDS))}
    chromium = subprocess.run([os.environ.get("CHROMIUM", "/usr/bin/chromium"), "--version"],
                              capture_output=True, text=True).stdout.strip()
    rows, raw, retries = [], {}, []
    load_before = os.getloadavg()[0]
    for setting in SETTINGS:
        runs = {name: [] for name in pages}
        for index in range(setting.runs):
            for name, page in pages.items():
                bench.progress(f"scroll: {setting.name}: {name}, run {index + 1}/{setting.runs}")
                try:
                    runs[name].append(measure(page, setting))
                except BrowserError as error:
                    bench.progress(f"scroll: {error}; once more with a fresh browser")
                    retries.append(f"{setting.name}, {name}, run {index + 1}: {error}")
                    runs[name].append(measure(page, setting))
        rows += [row(setting.name, name, results) for name, results in runs.items()]
        raw[setting.name] = runs
    (WORK / f"runs-{CARDS}.json").write_text(json.dumps(raw))
    load = f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    section = "\n".join([
        SECTION,
        "",
        "Command: `make bench-scroll` (bench/scroll/scroll.py; also run by `make bench`).",
        *(["", "**Quick development run (BENCH_QUICK=1). Not a result.**"] if bench.QUICK else []),
        "",
        *bench.host(),
        f"- {chromium}, headless, software rendering (no GPU); {version}.",
        f"- {CARDS} cards of the bench's catalog (12 MP photos), 1x/2x/3x, as PNG (`--format png`) and in cardbake's default format "
        f"(`--format jpeg`: JPEG picked per image, q85 with 4:2:0 chroma first, more where the fidelity floor needs it). Each page scrolled {SCROLL_PIXELS:,} CSS px in {SCROLL_SECONDS} s at a "
        f"constant speed, the position set in each requestAnimationFrame; {RUNS} run(s) of each ({BUSY_CORE_RUNS} in the busy-core settings), a fresh browser "
        f"each; frames of all runs pooled (raw: bench/work/scroll/runs-{CARDS}.json). One-minute load average: {load}.",
        "- Frame time: the delta between requestAnimationFrame callbacks. Late: over 16.7 ms by more than "
        "the timer's jitter (> 18.7 ms), i.e. at least one vsync missed. Long tasks: PerformanceObserver "
        "'longtask' entries (main-thread tasks over 50 ms), count and total.",
        "- Compositor columns, from a DevTools trace of each scroll (median over the runs, each run in brackets): "
        "frames presented whole, presented without the main thread's update (partial), and dropped, "
        "by Chromium's PipelineReporter; and the CPU ms (thread time, so other work on the machine "
        "inflates it little) of rasterising tiles (RasterTask: where the CSS blur, gradient and text are "
        "drawn), decoding images (SoftwareImageDecodeCache::DecodeImageInTask) and drawing frames in the "
        "display compositor (Display::DrawAndSwap); and the CPU ms of the renderer's main thread (its RunTask events), "
        "where the scrolling script, the gallery's script and the loading of images run, and which the "
        "throttled setting slows 4x. Cards shown: the cards that entered the viewport during the scroll (median "
        "over the runs); CPU per card shown: the four CPU columns' sum over them, the device's cost of showing a card. "
        f"The busy-core settings run the whole browser on core {BUSY_CORE} with a process spinning on it, as a phone "
        "whose other work takes half its CPU; the one short of CPU also slows the main thread 4x, as a slower phone. "
        "Browser CPU per card shown: the user and system CPU time the kernel counted for all of the browser's "
        "processes from the scroll's start to its end (/proc), over the cards shown: a check on the traced "
        "figure that counts whatever the trace's events leave out. Load: the one-minute load average after each run.",
        *[f"- Run again after a failure: {retry}." for retry in retries],
        "",
        bench.table(["setting", "page", "frames (per run)", "median ms", "p95 ms", "late frames",
                     "long tasks", "presented", "partial", "dropped", "raster CPU ms", "decode CPU ms",
                     "draw CPU ms", "main thread CPU ms", "cards shown", "CPU ms per card shown",
                     "browser CPU ms per card shown", "load per run"], rows),
        "",
        "### Short of CPU: the default gallery against the runtime page, run by run",
        "",
        short_of_cpu_rows(raw, gallery, runtime),
    ])
    results.publish(bench.RESULTS, "scroll", section)


if __name__ == "__main__":
    try:
        main()
    except bench.BenchError as error:
        sys.exit(f"bench: error: {error}")
