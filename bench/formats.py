"""Compares output formats on cardbake's own cards: encode time, size and decode time.

Every card's bitmaps (each scale) are decoded to memory, then encoded by each candidate
encoder: PNG at several zlib levels with no row filter or libvips' adaptive choice of all
filters, JPEG and WebP as cardbake writes them, lossless WebP, and HEIC and AVIF as cardbake
writes them (8 bits, effort 4) at several qualities, where this libvips can write them. Per
card (all scales together) the result is the encode time, the encoded bytes and the decode
time of those bytes into memory, which is what an app pays to show the card. Times are the
median over runs of the mean per card. The quality figures compare each decoded bitmap with
cardbake's own (lossless PNG) bitmap: PSNR over the RGB samples, and SSIM (Wang et al. 2004:
11-pixel Gaussian window of sigma 1.5) on luma, each the mean over the bitmaps.

usage: formats.py CARDS_DIR RESULT_JSON [--runs N] [--cards N]
"""

import argparse
import json
import statistics
import time
from pathlib import Path

import math

import pyvips

from peers.cardset import PNG_FILTERS, psnr_of

PNG_LEVELS = (1, 2, 3, 6, 9)


def png(level, filter_name):
    """An encoder writing PNG as cardbake does, at a zlib level with a row-filter choice."""
    return lambda image: image.pngsave_buffer(compression=level, filter=PNG_FILTERS[filter_name],
                                              strip=True)


def encoders():
    """(format, settings, encode function) of every candidate, in the table's order."""
    candidates = [("png", f"level {level}, filter {filter_name}", png(level, filter_name))
                  for level in PNG_LEVELS for filter_name in ("none", "all")]
    candidates += [
        ("jpeg", f"q{quality}", lambda image, q=quality: image.jpegsave_buffer(
            Q=q, optimize_coding=True, strip=True)) for quality in (85, 90)]
    candidates += [
        ("webp", f"lossy q{quality}", lambda image, q=quality: image.webpsave_buffer(
            Q=q, strip=True)) for quality in (80, 90)]
    candidates.append(("webp", "lossless", lambda image: image.webpsave_buffer(
        lossless=True, strip=True)))
    candidates += [
        (name, f"q{quality}", lambda image, c=compression, q=quality: image.heifsave_buffer(
            compression=c, Q=q, bitdepth=8, effort=4, strip=True))
        for name, compression in (("heic", "hevc"), ("avif", "av1")) for quality in (50, 65, 80)]
    return candidates


def available(encode):
    """Whether this libvips can encode, and decode again, with an encoder."""
    try:
        decode(encode(pyvips.Image.black(16, 16, bands=3)))
    except pyvips.Error:
        return False
    return True


def decode(data):
    """Decodes encoded bytes into a bitmap in memory."""
    return pyvips.Image.new_from_buffer(data, "", access="sequential").copy_memory()


def timed(function, *arguments):
    """The result of calling a function, and the seconds it took."""
    start = time.perf_counter()
    result = function(*arguments)
    return result, time.perf_counter() - start


def psnr(decoded, reference):
    """Peak signal-to-noise ratio in dB of an 8-bit image against another (inf when equal)."""
    return psnr_of(((decoded.cast("float") - reference.cast("float")) ** 2).avg())


def ssim(decoded, reference):
    """Mean structural similarity of the two images' luma (1 when equal)."""
    def luma(image):
        return image.cast("float").recomb([[0.299, 0.587, 0.114]])

    def blur(image):
        return image.gaussblur(1.5, min_ampl=0.01, precision="float")

    x, y = luma(decoded), luma(reference)
    mu_x, mu_y = blur(x), blur(y)
    var_x = blur(x * x) - mu_x * mu_x
    var_y = blur(y * y) - mu_y * mu_y
    covariance = blur(x * y) - mu_x * mu_y
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    return (((2 * mu_x * mu_y + c1) * (2 * covariance + c2))
            / ((mu_x * mu_x + mu_y * mu_y + c1) * (var_x + var_y + c2))).avg()


def measure(card_files, candidates, runs):
    """Per candidate: seconds to encode and to decode, per run, bytes summed over cards, and
    the quality figures of every bitmap."""
    totals = [{"encode": [0.0] * runs, "decode": [0.0] * runs, "bytes": 0, "psnr": [], "ssim": []}
              for _ in candidates]
    for files in card_files:
        bitmaps = [decode(path.read_bytes()) for path in files]
        for (_, _, encode), total in zip(candidates, totals):
            for run in range(runs):
                for bitmap in bitmaps:
                    data, encode_seconds = timed(encode, bitmap)
                    decoded, decode_seconds = timed(decode, data)
                    total["encode"][run] += encode_seconds
                    total["decode"][run] += decode_seconds
                    if run == 0:
                        total["bytes"] += len(data)
                        total["psnr"].append(psnr(decoded, bitmap))
                        total["ssim"].append(ssim(decoded, bitmap))
    return totals


def table_row(candidate, total, cards):
    """A candidate's figures per card, or only its name when this libvips lacks it (total None)."""
    name, settings, _ = candidate
    row = {"format": name, "settings": settings, "available": total is not None}
    if total is not None:
        row.update(encode_ms=1000 * statistics.median(total["encode"]) / cards,
                   decode_ms=1000 * statistics.median(total["decode"]) / cards,
                   bytes=total["bytes"] / cards,
                   psnr_db=statistics.mean(total["psnr"]) if math.inf not in total["psnr"] else None,
                   ssim=statistics.mean(total["ssim"]))
    return row


def card_files(cards_dir, limit):
    """The bitmaps of each card in cards_dir (all scales), for at most `limit` cards."""
    manifest = json.loads((cards_dir / "manifest.json").read_text())
    return [[cards_dir / image["file"] for image in card["images"].values()]
            for card in manifest["cards"][:limit]]


def main():
    """Measures every available candidate and writes the rows as JSON."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cards_dir", type=Path, help="a cardbake output folder (manifest.json)")
    parser.add_argument("result", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cards", type=int, default=None, help="use only the first N cards")
    args = parser.parse_args()
    files = card_files(args.cards_dir, args.cards)
    candidates = encoders()
    usable = [candidate for candidate in candidates if available(candidate[2])]
    measured = iter(measure(files, usable, args.runs))
    rows = [table_row(candidate, next(measured) if candidate in usable else None, len(files))
            for candidate in candidates]
    args.result.write_text(json.dumps({"cards": len(files), "runs": args.runs, "rows": rows},
                                      indent=1))


if __name__ == "__main__":
    main()
