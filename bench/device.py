"""The device's side: what showing a card costs an app, cardbake's shipped file against a card
drawn at runtime, on one core of this machine (`make bench-device`).

Three catalogs: the demo catalog (Input/), the bench's 48 cards over 12 MP photos, and cards of
every kind of picture (textures, scans, charts, saturated graphics and noise: the sample pictures
that scikit-image ships, taken from its wheel on PyPI, and three synthetic charts). Each is built by
cardbake twice: with `--format png` (lossless, the reference) and with its default format (what it
ships). Then, in this process, pinned to one core with libvips on one thread:

- Shipped: for every card and scale, the decode of each file to pixels in memory as a device decodes
  it (JPEG with libjpeg-turbo's TurboJPEG API, bench/turbojpeg.py; other formats with libvips; the
  median of RUNS decodes; libvips' own JPEG decode beside it for comparison), its bytes, and its
  fidelity against the lossless card: PSNR over the card and over its text area (the title's frame
  on the photo and the text area below), the worst card named.
  Other candidate encodings of the same lossless pixels are measured the same way at 3x.
- Runtime: the card drawn from its photo as an app ships it (scaled to 3x the card's width, JPEG
  q85, as the scroll bench's runtime page), at 3x, four ways (runtime_card): the floor (the photo
  decoded with libjpeg-turbo, nothing else); a careful app whose GPU scales and composes (the CPU
  decodes the photo, makes the background from an eighth-size decode, blurred small, saturated and
  tinted, and lays the text out); the same app composing on the CPU (the background scaled back up,
  the feature, gradient and text composed); and the naive way of the seed tutorial (the background blurred at
  full resolution). Text layout and rasterisation (Pango, through libvips) are part of all but the
  floor and timed alone too.

usage: device.py   (BENCH_RUNS, BENCH_QUICK as for bench.py)
"""

import os

os.environ["VIPS_CONCURRENCY"] = "1"  # before libvips starts: one thread, as one core of a device

import html  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import zipfile  # noqa: E402
from pathlib import Path  # noqa: E402

import pyvips  # noqa: E402

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH / "scroll")]

import bench  # noqa: E402
import formats  # noqa: E402
import make_data  # noqa: E402
import results  # noqa: E402
import runtime_page  # noqa: E402
import turbojpeg  # noqa: E402

WORK = bench.WORK / "device"
RUNS = max(5, bench.RUNS)  # decodes per file; the median is taken
RUNTIME_RUNS = 3
BENCH_CARDS = 4 if bench.QUICK else 16
TEXT_AREA_POINTS = 300  # the style's default textAreaHeight
TITLE_FRAME_POINTS = 50  # the title's frame starts this far above the text area (CARD_SPEC.md)
FIDELITY_FLOOR_DB = 38
TEXT_FLOOR_DB = 36
DECODE_TARGET_MS = 8
CAREFUL_RATIO_TARGET = 3
# cardbake's default format, named because the bench's catalogs ask for PNG (its quality is left to cardbake).
DEFAULT_FORMAT = "jpeg"
SCIKIT_IMAGE = "scikit-image==0.26.0"
SAMPLE_PICTURES = ("astronaut", "brick", "camera", "chelsea", "chessboard_RGB", "clock_motion", "coffee",
                   "coins", "color", "grass", "gravel", "horse", "logo", "moon", "motorcycle_left", "page",
                   "text")
SECTION = "## The device's side: showing a card against drawing it at runtime"
# Candidate encodings of the lossless pixels, measured at 3x beside what cardbake shipped.
CANDIDATES = (
    ("PNG, level 2, adaptive filters", lambda image: image.pngsave_buffer(compression=2, filter=0xF8, strip=True)),
    ("JPEG q85, 4:2:0", lambda image: image.jpegsave_buffer(Q=85, optimize_coding=True, strip=True, subsample_mode="on")),
    ("JPEG q90, 4:2:0", lambda image: image.jpegsave_buffer(Q=90, optimize_coding=True, strip=True, subsample_mode="on")),
    ("JPEG q85, 4:4:4", lambda image: image.jpegsave_buffer(Q=85, optimize_coding=True, strip=True, subsample_mode="off")),
    ("JPEG q90, 4:4:4", lambda image: image.jpegsave_buffer(Q=90, optimize_coding=True, strip=True, subsample_mode="off")),
    ("JPEG q95, 4:4:4", lambda image: image.jpegsave_buffer(Q=95, optimize_coding=True, strip=True, subsample_mode="off")),
    ("WebP q85", lambda image: image.webpsave_buffer(Q=85, strip=True)),
    ("HEIC q50", lambda image: image.heifsave_buffer(Q=50, compression="hevc", bitdepth=8, effort=4, strip=True)),
    ("AVIF q65", lambda image: image.heifsave_buffer(Q=65, compression="av1", bitdepth=8, effort=4, strip=True)),
)


def cpu_ms(runs, function, *arguments):
    """The median over `runs` calls of the process's CPU milliseconds in `function(*arguments)`:
    CPU time, not wall time, so that other work on the machine does not count."""
    def once():
        start = time.process_time()
        function(*arguments)
        return 1000 * (time.process_time() - start)
    return statistics.median(once() for _ in range(runs))


def decode_ms(data):
    """The median over RUNS of the CPU milliseconds to decode `data` into pixels in memory as a device
    does: JPEG with libjpeg-turbo's own API, other formats with libvips (libpng, libwebp, libheif)."""
    return cpu_ms(RUNS, turbojpeg.decode if turbojpeg.is_jpeg(data) else formats.decode, data)


def libvips_decode_ms(data):
    """`decode_ms` with libvips for every format: its pipeline around libjpeg-turbo, for comparison."""
    return cpu_ms(RUNS, formats.decode, data)


def decoded_photo(photo):
    """JPEG bytes decoded as a device decodes them (libjpeg-turbo), as a libvips image of those pixels."""
    width, height, pixels = turbojpeg.decode(photo)
    return pyvips.Image.new_from_memory(pixels, width, height, 3, "uchar")


def text_area(image, scale, height_points):
    """The rows of a card image where text is drawn: the title's frame and the text area."""
    top = round((height_points - TEXT_AREA_POINTS - TITLE_FRAME_POINTS) * scale)
    return image.crop(0, top, image.width, image.height - top)


def fidelity(decoded, reference, scale, height_points):
    """PSNR in dB of a decoded card against the lossless one, over the card and over its text."""
    return (formats.psnr(decoded, reference),
            formats.psnr(text_area(decoded, scale, height_points), text_area(reference, scale, height_points)))


def sample_pictures(folder):
    """scikit-image's sample pictures and three synthetic charts in `folder`, made once; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    missing = [name for name in SAMPLE_PICTURES if not (folder / f"{name}.png").exists()]
    if missing:
        wheels = WORK / "wheels"
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "-d", wheels, SCIKIT_IMAGE], check=True)
        with zipfile.ZipFile(next(wheels.glob("scikit_image-*.whl"))) as wheel:
            for name in missing:
                (folder / f"{name}.png").write_bytes(wheel.read(f"skimage/data/{name}.png"))
    charts = {
        "noise": lambda: pyvips.Image.gaussnoise(1200, 900, sigma=60, mean=128).bandjoin(
            [pyvips.Image.gaussnoise(1200, 900, sigma=60, mean=128) for _ in range(2)]).cast("uchar"),
        "fractal": lambda: pyvips.Image.fractsurf(1024, 1024, 2.5).bandjoin(
            [pyvips.Image.fractsurf(1024, 1024, 2.5), pyvips.Image.fractsurf(1024, 1024, 2.8)]).linear(80, 128).cast("uchar"),
        "zone-plate": lambda: pyvips.Image.zone(1200, 900).linear(127.5, 127.5).cast("uchar").bandjoin(
            [pyvips.Image.zone(1200, 900).linear(-127.5, 127.5).cast("uchar"), pyvips.Image.zone(1200, 900).linear(127.5, 127.5).cast("uchar")]),
    }
    for name, make in charts.items():
        if not (folder / f"{name}.png").exists():
            make().pngsave(str(folder / f"{name}.png"))
    return sorted(folder.glob("*.png"))


def kinds_catalog():
    """A catalog of one card per sample picture and chart, each with a title and two sentences."""
    folder = WORK / "kinds"
    pictures = sample_pictures(folder / "images")
    text = ("A description long enough to fill the text area with justified lines over the blurred "
            "background, as every card of a real catalog has. ")
    cards = [{"id": picture.stem.replace("_", "-").lower(), "image": f"images/{picture.name}",
              "title": f"{picture.stem.replace('_', ' ').title()}", "description": text * 3} for picture in pictures]
    path = folder / "catalog.json"
    path.write_text(json.dumps({"version": 1, "cards": cards}, indent=1))
    return path


def build(binary, catalog, name, format_arguments):
    """Builds `catalog` into WORK/<name>; returns the output folder's manifest."""
    output = WORK / name
    bench.run([binary, "build", catalog, "--output", output, "--cache-dir", WORK / "cache", "--quiet",
               *format_arguments], f"device-build-{name}")
    return json.loads((output / "manifest.json").read_text()), output


def shipped_rows(name, reference, shipped, limit):
    """Per card and scale: the shipped file's bytes, decode ms and fidelity, and the PNG's bytes and
    decode ms; and per candidate encoding, the same at 3x."""
    (reference_manifest, reference_folder), (shipped_manifest, shipped_folder) = reference, shipped
    measured = []
    for lossless, card in list(zip(reference_manifest["cards"], shipped_manifest["cards"]))[:limit]:
        height = card["size"]["height"]
        for scale_name, image in sorted(card["images"].items()):
            scale = int(scale_name.rstrip("x"))
            png = (reference_folder / lossless["images"][scale_name]["file"]).read_bytes()
            pixels = formats.decode(png)
            data = (shipped_folder / image["file"]).read_bytes()
            psnr, text_psnr = fidelity(formats.decode(data), pixels, scale, height)
            row = {"catalog": name, "card": card["id"], "scale": scale, "bytes": len(data), "decode_ms": decode_ms(data),
                   "libvips_decode_ms": libvips_decode_ms(data),
                   "psnr": psnr, "text_psnr": text_psnr, "png_bytes": len(png), "png_decode_ms": decode_ms(png)}
            if scale == 3:
                row["candidates"] = {}
                for candidate, encode in CANDIDATES:
                    try:
                        encoded = encode(pixels)
                    except pyvips.Error:
                        continue
                    row["candidates"][candidate] = [len(encoded), decode_ms(encoded),
                                                    *fidelity(formats.decode(encoded), pixels, scale, height)]
            measured.append(row)
    return measured


def title_markup(text, size, weight, scale):
    """Pango markup of a text in Lato at `size` points and `scale`."""
    return f'<span font_family="Lato" font_weight="{weight}" size="{round(size * scale * 1024)}">{html.escape(text)}</span>'


def text_layers(card, scale):
    """The title and description laid out and rasterised by Pango, as an app lays them out."""
    width = round(card["size"]["width"] * scale)
    title = pyvips.Image.text(title_markup(card["title"], 30, "heavy", scale), width=width - round(40 * scale), dpi=72)
    description = pyvips.Image.text(title_markup(card["description"], 16, "medium", scale), width=width - round(48 * scale),
                                    justify=True, dpi=72, spacing=round(4 * scale))
    return title.copy_memory(), description.copy_memory()


# The ways of drawing a card at runtime, cheapest first (runtime_card).
RUNTIME_WAYS = ("floor", "gpu", "careful", "naive")


def blurred_background(photo, feature, width, height, scale, shrink):
    """The card's background from `photo` (JPEG bytes; `feature` its full decode) at 1/`shrink` of
    `width` x `height`: covered, blurred, saturated and tinted."""
    source = pyvips.Image.jpegload_buffer(photo, shrink=shrink) if shrink > 1 else feature
    small_width, small_height = max(1, width // shrink), max(1, height // shrink)
    cover = max(small_width / source.width, small_height / source.height)
    background = source.resize(cover).crop(0, 0, small_width, min(small_height, math.floor(source.height * cover)))
    background = background.embed(0, 0, small_width, small_height, extend="copy")
    background = background.gaussblur(30 * scale / shrink).colourspace("lch").linear([1, 1.8, 1], 0)
    return background.colourspace("srgb").linear(0.7, 0.3 * 128)


def runtime_card(photo, card, scale, way):
    """A card drawn at runtime from `photo` (JPEG bytes) at `scale`, `way` one of RUNTIME_WAYS:
    floor, the photo decoded and nothing else; gpu, what the CPU does when the GPU scales and
    composes (the photo decoded, the background made at an eighth of the size, the text laid out);
    careful, the same with the background scaled up and every layer composed on the CPU; naive, the
    seed tutorial's way, the background blurred at full size on the CPU."""
    feature = decoded_photo(photo)
    if way == "floor":
        return feature
    width, height = round(card["size"]["width"] * scale), round(card["size"]["height"] * scale)
    feature_height = height - round(TEXT_AREA_POINTS * scale)
    shrink = 1 if way == "naive" else 8
    background = blurred_background(photo, feature, width, height, scale, shrink)
    title, description = text_layers(card, scale)
    if way == "gpu":
        return background.copy_memory(), title, description
    if shrink > 1:
        background = background.resize(width / background.width, vscale=height / background.height, kernel="linear")
    fitted = feature.resize(width / feature.width).crop(0, 0, width, min(feature_height, math.floor(feature.height * width / feature.width)))
    canvas = background.insert(fitted, 0, 0)
    gradient = pyvips.Image.identity().cast("float").resize(feature_height / 256, vscale=1).rot90()
    # cast to uchar clips to 0-255
    shade = (gradient.crop(0, 0, 1, feature_height).resize(width, vscale=1, kernel="nearest") - 128).linear(2, 0).cast("uchar")
    canvas = canvas.insert(canvas.crop(0, 0, width, feature_height) * (1 - shade / 255), 0, 0)
    canvas = canvas.insert(canvas.crop(round(20 * scale), feature_height - round(50 * scale), title.width, title.height)
                           .ifthenelse([255, 255, 255], title, blend=True), round(20 * scale), feature_height - round(50 * scale))
    top, lines = feature_height + round(20 * scale), min(description.height, height - feature_height - round(40 * scale))
    canvas = canvas.insert(canvas.crop(round(24 * scale), top, description.width, lines)
                           .ifthenelse([255, 255, 255], description.crop(0, 0, description.width, lines), blend=True),
                           round(24 * scale), top)
    return canvas.cast("uchar").copy_memory()


def runtime_rows(name, manifest, catalog_path, limit):
    """Per card at 3x: ms of each runtime way and of text layout alone (medians of RUNTIME_RUNS)."""
    cards = manifest["cards"][:limit]
    photos = runtime_page.scaled_photos(catalog_path, cards, WORK / f"photos-{name}", 960)
    rows = []
    for card in cards:
        photo = (WORK / photos[card["id"]]).read_bytes()
        row = {"catalog": name, "card": card["id"], "photo_bytes": len(photo)}
        for way in RUNTIME_WAYS:
            row[way] = cpu_ms(RUNTIME_RUNS, runtime_card, photo, card, 3, way)
        row["text"] = cpu_ms(RUNTIME_RUNS, text_layers, card, 3)
        rows.append(row)
    return rows


def worst(rows, key):
    """The row with the least value of `key`."""
    return min(rows, key=lambda row: row[key])


def scale_table(shipped, default_name):
    """Per catalog and scale: the shipped default against PNG, medians over cards, and the worst fidelity."""
    lines = []
    for catalog in dict.fromkeys(row["catalog"] for row in shipped):
        for scale in (1, 2, 3):
            rows = [row for row in shipped if row["catalog"] == catalog and row["scale"] == scale]
            if not rows:
                continue
            low, low_text = worst(rows, "psnr"), worst(rows, "text_psnr")
            lines.append([catalog, f"{scale}x", str(len(rows)),
                          f"{statistics.median(r['bytes'] for r in rows) / 1024:.0f}",
                          f"{statistics.median(r['decode_ms'] for r in rows):.2f}",
                          f"{max(r['decode_ms'] for r in rows):.2f}",
                          f"{statistics.median(r['libvips_decode_ms'] for r in rows):.2f}",
                          f"{statistics.median(r['png_bytes'] for r in rows) / 1024:.0f}",
                          f"{statistics.median(r['png_decode_ms'] for r in rows):.2f}",
                          f"{low['psnr']:.1f} ({low['card']})", f"{low_text['text_psnr']:.1f} ({low_text['card']})"])
    return bench.table(["catalog", "scale", "cards", f"{default_name} KB (median)", "decode ms (median)", "decode ms (max)",
                        "decode ms through libvips (median)", "PNG KB", "PNG decode ms", "PSNR dB, worst card", "text PSNR dB, worst card"], lines)


def candidate_table(shipped):
    """Per candidate encoding, over every card of every catalog at 3x."""
    rows = [row for row in shipped if row["scale"] == 3]
    lines = []
    for candidate, _ in CANDIDATES:
        figures = [(row["card"], row["candidates"][candidate]) for row in rows if candidate in row["candidates"]]
        if not figures:
            lines.append([candidate, "not available in this libvips", "", "", "", "", ""])
            continue
        low = min(figures, key=lambda figure: figure[1][2])
        low_text = min(figures, key=lambda figure: figure[1][3])
        below = sum(f[2] < FIDELITY_FLOOR_DB or f[3] < TEXT_FLOOR_DB for _, f in figures)
        lines.append([candidate, f"{statistics.median(f[0] for _, f in figures) / 1024:.0f}",
                      f"{statistics.median(f[1] for _, f in figures):.2f}",
                      f"{statistics.median(f[2] for _, f in figures):.1f}" if all(math.isfinite(f[2]) for _, f in figures) else "lossless",
                      f"{low[1][2]:.1f} ({low[0]})" if math.isfinite(low[1][2]) else "lossless",
                      f"{low_text[1][3]:.1f} ({low_text[0]})" if math.isfinite(low_text[1][3]) else "lossless",
                      f"{below} of {len(figures)}"])
    return bench.table(["encoding of the lossless 3x card", "KB (median)", "decode ms (median)", "PSNR dB (median)",
                        "PSNR dB, worst card", "text PSNR dB, worst card", f"cards under {FIDELITY_FLOOR_DB} / {TEXT_FLOOR_DB} dB"], lines)


def runtime_table(runtime, shipped, default_name):
    """Per catalog at 3x: each runtime way against decoding the shipped card, medians over cards."""
    lines = []
    for catalog in dict.fromkeys(row["catalog"] for row in runtime):
        rows = [row for row in runtime if row["catalog"] == catalog]
        decode = statistics.median(row["decode_ms"] for row in shipped if row["catalog"] == catalog and row["scale"] == 3)
        lines.append([catalog, str(len(rows)), f"{decode:.2f}"] + [
            f"{statistics.median(row[way] for row in rows):.1f} ({statistics.median(row[way] for row in rows) / decode:.1f}x)"
            for way in (*RUNTIME_WAYS, "text")])
    return bench.table(["catalog", "cards", f"{default_name} 3x decode ms", "runtime floor: photo decode ms",
                        "careful, GPU scales and composes: CPU ms", "careful, all on the CPU: ms",
                        "naive (full-size blur) ms", "text layout ms (part of all three)"], lines)


def target_rows(shipped, runtime):
    """The issue's targets for the default at 3x, over every card of every catalog."""
    at3 = [row for row in shipped if row["scale"] == 3]
    decode = statistics.median(row["decode_ms"] for row in at3)
    vips_decode = statistics.median(row["libvips_decode_ms"] for row in at3)
    careful = statistics.median(row["gpu"] for row in runtime)
    on_cpu = statistics.median(row["careful"] for row in runtime)
    low, low_text = worst(shipped, "psnr"), worst(shipped, "text_psnr")
    return bench.table(["target", "measured", "goal", "met"], [
        ["3x decode, median over every card, one core (libjpeg-turbo, as a device decodes)", f"{decode:.2f} ms",
         f"<= {DECODE_TARGET_MS} ms", "pass" if decode <= DECODE_TARGET_MS else "FAIL"],
        ["the same through libvips' pipeline (not what a device runs; for comparison)", f"{vips_decode:.2f} ms",
         f"<= {DECODE_TARGET_MS} ms", "pass" if vips_decode <= DECODE_TARGET_MS else "FAIL"],
        ["careful runtime card's CPU (the GPU scaling and composing) / 3x decode (medians)", f"{careful / decode:.1f}x", f">= {CAREFUL_RATIO_TARGET}x",
         "pass" if careful / decode >= CAREFUL_RATIO_TARGET else "FAIL"],
        ["careful runtime card all on the CPU (libvips) / 3x decode (medians)", f"{on_cpu / decode:.1f}x",
         f">= {CAREFUL_RATIO_TARGET}x", "pass" if on_cpu / decode >= CAREFUL_RATIO_TARGET else "FAIL"],
        ["PSNR of every card and scale against the lossless card", f"{low['psnr']:.1f} dB ({low['card']} @{low['scale']}x)",
         f">= {FIDELITY_FLOOR_DB} dB", "pass" if low["psnr"] >= FIDELITY_FLOOR_DB else "FAIL"],
        ["PSNR of every card's text area", f"{low_text['text_psnr']:.1f} dB ({low_text['card']} @{low_text['scale']}x)",
         f">= {TEXT_FLOOR_DB} dB", "pass" if low_text["text_psnr"] >= TEXT_FLOOR_DB else "FAIL"]])


def main():
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    pyvips.cache_set_max(0)
    binary = bench.cardbake_binary()
    make_data.main()
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    catalogs = {"demo": (bench.REPO / "Input" / "catalog.json", None),
                "bench 12 MP": (make_data.catalog_path(48), BENCH_CARDS),
                "every kind": (kinds_catalog(), None)}
    shipped, runtime = [], []
    for name, (catalog, limit) in catalogs.items():
        slug = name.replace(" ", "-")
        bench.progress(f"device: building {name} as PNG and in the default format")
        reference = build(binary, catalog, f"{slug}-png", ["--format", "png"])
        default = build(binary, catalog, f"{slug}-default", ["--format", DEFAULT_FORMAT])
        bench.progress(f"device: decoding {name}'s cards")
        shipped += shipped_rows(name, reference, default, limit)
        if name != "every kind":
            bench.progress(f"device: drawing {name}'s cards at runtime")
            runtime += runtime_rows(name, default[0], catalog, limit)
    default_name = Path(default[0]["cards"][0]["images"]["3x"]["file"]).suffix.lstrip(".").upper()
    (WORK / "device.json").write_text(json.dumps({"shipped": shipped, "runtime": runtime}, indent=1))
    section = "\n".join([
        SECTION, "",
        "Command: `make bench-device` (bench/device.py; the Chromium half is the scroll section's "
        "busy-core settings). Raw figures: bench/work/device/device.json.",
        *(["", "**Quick development run (BENCH_QUICK=1). Not a result.**"] if bench.QUICK else []),
        "", *bench.host(),
        f"- {version}; decoding on one thread pinned to one core as a device decodes: JPEG with libjpeg-turbo's own "
        f"TurboJPEG API (Debian's libjpeg-turbo {turbojpeg.version()}, the library Chromium and Android decode JPEG with; "
        f"accurate DCT, smooth chroma upsampling, to RGB), the other formats with libvips {pyvips.version(0)}.{pyvips.version(1)}."
        f"{pyvips.version(2)} (libpng, libwebp, libheif). libvips' own JPEG decode, its pipeline around the same library, "
        "is shown beside for comparison. Times are the process's CPU time, each decode the median of "
        f"{RUNS}, each runtime card of {RUNTIME_RUNS}; a runtime card's photo is decoded with libjpeg-turbo too.",
        "- The default format: JPEG, the first of q85 4:2:0, q90 4:2:0, then 4:4:4 at q90, 94, 97, 100 "
        f"that keeps the image within {FIDELITY_FLOOR_DB} dB PSNR of the lossless card and its text within {TEXT_FLOOR_DB} dB.",
        f"- Catalogs: the demo's {sum(r['catalog'] == 'demo' and r['scale'] == 3 for r in shipped)} cards, "
        f"{BENCH_CARDS} of the bench's 48 (12 MP photos), and {sum(r['catalog'] == 'every kind' and r['scale'] == 3 for r in shipped)} "
        "cards of every kind of picture (scikit-image's sample pictures: textures, scans, charts, saturated "
        "graphics; and gaussian noise, a fractal and a zone plate). Text area: the title's frame and the 300 pt below it.",
        "", "### Targets (default format at 3x)", "", target_rows(shipped, runtime),
        "", f"### The shipped default ({default_name}) against PNG, per scale", "", scale_table(shipped, default_name),
        "", "### Encodings of the same lossless 3x cards (every catalog)", "", candidate_table(shipped),
        "", "### Drawing the card at runtime instead (3x, one core)", "",
        "The photo as the runtime page ships it (960 px wide, JPEG q85). Careful: the background from an "
        "eighth-size decode, blurred small; with the GPU scaling it up and composing the layers, the CPU "
        "pays the photo's decode, the small blur and the text (the target's measure, a lower bound); all "
        "on the CPU adds libvips' scale-up and composition. Naive: the background blurred at full size.",
        "", runtime_table(runtime, shipped, default_name),
    ])
    results.publish(bench.RESULTS, "device", section)


if __name__ == "__main__":
    try:
        main()
    except bench.BenchError as error:
        sys.exit(f"bench: error: {error}")
