"""Makes the benchmark's data under bench/work/data: 12-megapixel photographs and catalogs.

The photographs are the 13 demo images of Input/images, each cropped, flipped and upscaled
to 4032 x 3024 in several ways and overlaid with fine colour noise, then saved as JPEG at
quality 90 so that a file weighs a few megabytes like a camera's. The catalogs hold 48,
100, 1,000 and 10,000 cards; the larger ones reuse the 48 photographs with their own ids,
titles and descriptions.

Everything is deterministic and made only once: a stamp file records DATA_VERSION, and the
data is made again only when the stamp differs.
"""

import json
import random
import shutil
import sys
from pathlib import Path

import pyvips

DATA_VERSION = "1"
PHOTO_COUNT = 48
PHOTO_WIDTH, PHOTO_HEIGHT = 4032, 3024
NOISE_SIGMA = 5.0
JPEG_QUALITY = 90
CATALOG_SIZES = (20, 48, 100, 200, 1000, 10000)
CATALOG_STYLE = {"scales": [1, 2, 3], "format": "png"}
# Small cards: the photographs reduced to SMALL_WIDTH pixels wide, SMALL_CARDS cards at 1x only.
SMALL_WIDTH, SMALL_CARDS = 800, 600
# The scale benchmark's cards (bench/scale.py): this many points wide, over this many distinct photographs.
SCALE_CARD_WIDTH, SCALE_PHOTOS = 48, 300

REPO = Path(__file__).resolve().parent.parent
DEMO_CATALOG = REPO / "Input" / "catalog.json"
DATA = REPO / "bench" / "work" / "data"
STAMP = DATA / "VERSION"


def catalog_path(size):
    """The path of the catalog of `size` cards."""
    return DATA / f"catalog-{size}.json"


def photo_name(index):
    """The path of photograph `index`, relative to the catalogs' folder."""
    return f"images/photo-{index:02d}.jpg"


def load_source(path):
    """Decodes a demo image as 3-band 8-bit sRGB, transparency laid over white."""
    image = pyvips.Image.new_from_file(str(path), access="sequential")
    if image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    return image.colourspace("srgb").cast("uchar")


def crop_box(width, height, rng):
    """A random 4:3 crop of a width x height image covering 70-100 % of its largest 4:3 area."""
    fraction = rng.uniform(0.7, 1.0)
    crop_width = min(width, height * 4 / 3) * fraction
    crop_height = crop_width * 3 / 4
    left = rng.uniform(0, width - crop_width)
    top = rng.uniform(0, height - crop_height)
    return int(left), int(top), max(1, int(crop_width)), max(1, int(crop_height))


def make_photo(source, seed, width=PHOTO_WIDTH, height=PHOTO_HEIGHT):
    """One photograph (12 megapixels by default) from a demo image: crop, maybe flip, resize, add noise."""
    rng = random.Random(seed)
    image = source.crop(*crop_box(source.width, source.height, rng))
    if rng.random() < 0.5:
        image = image.fliphor()
    image = image.resize(width / image.width, vscale=height / image.height, kernel="lanczos3")
    red, green, blue = (
        pyvips.Image.gaussnoise(width, height, sigma=NOISE_SIGMA, mean=0, seed=seed * 3 + band)
        for band in range(3)
    )
    noise = red.bandjoin([green, blue])
    return (image + noise).cast("uchar")


def demo_cards():
    """The demo catalog's cards, each text in the catalog's source locale (a text may be an object by locale)."""
    demo = json.loads(DEMO_CATALOG.read_text())
    source = demo.get("sourceLocale") or (demo.get("locales") or [None])[0]

    def text(value):
        return value[source] if isinstance(value, dict) else value

    return [{**card, "title": text(card["title"]), "description": text(card["description"])} for card in demo["cards"]]


def make_photos(demo_cards):
    """Writes the PHOTO_COUNT photographs, cycling through the demo catalog's images."""
    (DATA / "images").mkdir(parents=True)
    for index in range(PHOTO_COUNT):
        card = demo_cards[index % len(demo_cards)]
        source = load_source(DEMO_CATALOG.parent / card["image"])
        make_photo(source, seed=index).jpegsave(str(DATA / photo_name(index)),
                                                Q=JPEG_QUALITY, strip=True)
        print(f"bench: photo {index + 1}/{PHOTO_COUNT}", file=sys.stderr, flush=True)


def catalog(size, demo_cards, photo_count=PHOTO_COUNT):
    """A catalog of `size` cards over the photographs, each with a distinct id, title and text.

    Card j shows photograph j mod `photo_count` and borrows the text of that photograph's demo
    card, numbered so that no two cards share a title or description.
    """
    cards = []
    for index in range(size):
        photo = index % photo_count
        demo = demo_cards[photo % len(demo_cards)]
        cards.append({
            "id": f"card-{index:05d}",
            "image": photo_name(photo),
            "title": f"{demo['title']} {index + 1}",
            "description": f"{demo['description']} Card {index + 1} of {size}.",
        })
    return {"version": 1, "style": CATALOG_STYLE, "cards": cards}


def small_catalog():
    """The path of the small cards' catalog, made (from the photographs) unless it is there: every
    paint is small, so the build is bound by per-card costs rather than by pixels."""
    path = DATA / "small" / f"catalog-{SMALL_CARDS}-1x.json"
    if path.exists():
        return path
    main()
    (DATA / "small" / "images").mkdir(parents=True, exist_ok=True)
    for index in range(PHOTO_COUNT):
        pyvips.Image.thumbnail(str(DATA / photo_name(index)), SMALL_WIDTH).jpegsave(
            str(DATA / "small" / photo_name(index)), Q=JPEG_QUALITY, strip=True)
    document = catalog(SMALL_CARDS, demo_cards())
    document["style"] = {**CATALOG_STYLE, "scales": [1]}
    # Written last: its presence says the photographs are complete.
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1))
    return path


def scale_catalog(size):
    """The path of the scale benchmark's catalog of `size` small cards (SCALE_CARD_WIDTH points wide,
    1x, PNG) over SCALE_PHOTOS photographs of SMALL_WIDTH pixels made straight from the demo images,
    made unless it is there. Needs none of the 12-megapixel photographs."""
    folder = DATA / "scale"
    path = folder / f"catalog-{size}.json"
    if path.exists():
        return path
    demo = demo_cards()
    if not (folder / photo_name(SCALE_PHOTOS - 1)).exists():
        (folder / "images").mkdir(parents=True, exist_ok=True)
        sources = {}
        for index in range(SCALE_PHOTOS):
            image = demo[index % len(demo)]["image"]
            if image not in sources:
                sources[image] = load_source(DEMO_CATALOG.parent / image).copy_memory()
            make_photo(sources[image], seed=index, width=SMALL_WIDTH, height=SMALL_WIDTH * 3 // 4).jpegsave(
                str(folder / photo_name(index)), Q=JPEG_QUALITY, strip=True)
    document = catalog(size, demo, SCALE_PHOTOS)
    document["style"] = {**CATALOG_STYLE, "scales": [1], "cardWidth": SCALE_CARD_WIDTH}
    # Written last: its presence says the photographs are complete.
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1))
    return path


def main():
    """Makes the data unless the stamp says it is already there."""
    if STAMP.exists() and STAMP.read_text().strip() == DATA_VERSION:
        return
    shutil.rmtree(DATA, ignore_errors=True)
    demo = demo_cards()
    make_photos(demo)
    for size in CATALOG_SIZES:
        catalog_path(size).write_text(json.dumps(catalog(size, demo), ensure_ascii=False,
                                                 indent=1))
    STAMP.write_text(DATA_VERSION + "\n")


if __name__ == "__main__":
    main()
