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


def save(image, path, args):
    """Writes `image` to `path` in the format and with the settings on the command line."""
    if args.format == "jpeg":
        image.jpegsave(str(path), Q=args.quality, optimize_coding=True, strip=True,
                       subsample_mode="off" if args.chroma == "full" else "on")
    else:
        image.pngsave(str(path), compression=args.compression, filter=PNG_FILTERS[args.filter], strip=True)


def output_path(args, card_id, scale):
    """Where a peer writes a card's bitmap at a scale, named as cardbake names it."""
    return args.output / f"{card_id}@{scale}x.{'jpg' if args.format == 'jpeg' else 'png'}"
