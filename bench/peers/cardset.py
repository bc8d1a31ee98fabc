"""What the Python peers share: their command line, the catalog's cards, the card geometry
of CARD_SPEC.md and the encoder settings."""

import argparse
import json
import math
from pathlib import Path

import pyvips

# Every peer renders all three scales, as the benchmark's catalogs ask of cardbake.
SCALES = (1, 2, 3)
# libvips' VipsForeignPngFilter flags by name: a single filter, or libvips' adaptive choice.
PNG_FILTERS = {"none": 0x08, "sub": 0x10, "up": 0x20, "avg": 0x40, "paeth": 0x80, "all": 0xF8}


def parse_args(description):
    """The peers' common command line: catalog, output folder, geometry and PNG settings."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("catalog", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--width", type=int, required=True, help="card width W in points")
    parser.add_argument("--text-height", type=int, required=True,
                        help="text area height T in points")
    parser.add_argument("--compression", type=int, required=True, help="zlib level 0-9")
    parser.add_argument("--filter", choices=PNG_FILTERS, required=True)
    parser.add_argument("--format", choices=("png", "jpeg"), default="png", help="jpeg: at --quality and --chroma")
    parser.add_argument("--quality", type=int, default=90, help="JPEG quality 1-100")
    parser.add_argument("--chroma", choices=("full", "halved"), default="full",
                        help="JPEG chroma: full (4:4:4) or halved both ways (4:2:0)")
    parser.add_argument("--fidelity-floor", action="store_true",
                        help="JPEG picked per image as cardbake's default picks it (ignores --quality and --chroma)")
    return parser.parse_args()


def cards(catalog):
    """(id, image path, title, description) of each card of a catalog file, in order."""
    document = json.loads(catalog.read_text())
    for card in document["cards"]:
        yield card["id"], catalog.parent / card["image"], card["title"], card["description"]


def feature_height(image_path, width):
    """F in points: the image aspect-fit to the card width, from the file's header only."""
    header = pyvips.Image.new_from_file(str(image_path))
    return math.ceil(width * header.height / header.width)


# cardbake's default JPEG (FidelityFloor.swift): the first of these (quality, 4:2:0) that keeps the card within
# 38 dB PSNR of its lossless pixels and its text rows within 36 dB; from a 4:2:0 step more than 1.2 dB short,
# straight to the first 4:4:4 one; the last whatever it measures.
FLOOR_STEPS = ((85, True), (90, True), (90, False), (94, False), (97, False), (100, False))
CARD_DB, TEXT_DB, HALVED_CHROMA_REACH = 38.0, 36.0, 1.2


def jpeg_within_floor(image, text_top):
    """`image` as JPEG bytes by FLOOR_STEPS, its text being the rows from `text_top` down."""
    image = image.copy_memory()  # encoded and compared more than once: rendered once
    reference = image.cast("short")
    index = 0
    while True:
        quality, halved = FLOOR_STEPS[index]
        data = jpeg_bytes(image, quality, halved)
        if index == len(FLOOR_STEPS) - 1:
            return data
        difference = pyvips.Image.jpegload_buffer(data).cast("short") - reference
        squared = difference * difference
        head = squared.crop(0, 0, image.width, text_top).avg() if text_top else 0.0
        tail = squared.crop(0, text_top, image.width, image.height - text_top).avg()
        whole = (head * text_top + tail * (image.height - text_top)) / image.height
        shortfall = max(CARD_DB - psnr_of(whole), TEXT_DB - psnr_of(tail))
        if shortfall <= 0:
            return data
        index += 1
        if halved and shortfall > HALVED_CHROMA_REACH:
            index = next(i for i, (_, halves) in enumerate(FLOOR_STEPS) if not halves)


def jpeg_bytes(image, quality, halved_chroma):
    """`image` as JPEG at `quality`, with 4:2:0 chroma or every chroma sample: cardbake's encoder settings."""
    return image.jpegsave_buffer(Q=quality, optimize_coding=True, strip=True,
                                 subsample_mode="on" if halved_chroma else "off")


def psnr_of(mean_squared_error):
    """PSNR in dB of 8-bit samples whose squared differences average `mean_squared_error` (inf for 0)."""
    return math.inf if mean_squared_error == 0 else 10 * math.log10(255 * 255 / mean_squared_error)


def save(image, path, args, text_top=0):
    """Writes `image` to `path` in the format and with the settings on the command line; with
    --fidelity-floor, `text_top` is the first row of the card's text."""
    if args.format == "jpeg":
        path.write_bytes(jpeg_within_floor(image, text_top) if args.fidelity_floor
                         else jpeg_bytes(image, args.quality, args.chroma == "halved"))
    else:
        image.pngsave(str(path), compression=args.compression, filter=PNG_FILTERS[args.filter], strip=True)


def output_path(args, card_id, scale):
    """Where a peer writes a card's bitmap at a scale, named as cardbake names it."""
    return args.output / f"{card_id}@{scale}x.{'jpg' if args.format == 'jpeg' else 'png'}"
