"""Peer 4: the cards as an expert would script them with pyvips, at cardbake's settings.

What someone who knows libvips writes when asked for the fastest cold build: one process per
core, each with libvips on one thread, a card per task; each photo decoded once, with
shrink-on-load, at the size the largest scale needs, the smaller scales and the background
reduced from it; the background blurred once, on an eighth-size copy, saturated and tinted there
and scaled up per scale; the feature inserted and shaded in place (no full-size layer for the
gradient); the two texts with their shadows composed over the rows they cover, and the border
blended into the edge; PNG at the
given zlib level and filters (or JPEG at a fixed quality and chroma subsampling, or picked per
image as cardbake's default picks it, `--fidelity-floor`). It writes
no cache, no manifest and no placeholder: the floor of what a build must do, done well. The
layout follows CARD_SPEC.md approximately, as peer 1's does.
"""

import os

os.environ["VIPS_CONCURRENCY"] = "1"  # before libvips starts: the parallelism is the processes'

import html  # noqa: E402
from multiprocessing import Pool  # noqa: E402

import pyvips  # noqa: E402

from cardset import SCALES, cards, feature_height, output_path, parse_args, save  # noqa: E402
from pyvips_cards import BLUR_RADIUS, BORDER_INK, SATURATION, TINT_ALPHA, TINT_GRAY, text_layers  # noqa: E402

SMALL = 8  # the background is blurred at this fraction of the largest scale


def background(photo, width, height, scale):
    """The blurred, saturated and tinted cover at 1/SMALL of `width` x `height`, in memory, from
    the decoded `photo` (reduced, not decoded again)."""
    small_width, small_height = max(1, width // SMALL), max(1, height // SMALL)
    cover = max(small_width / photo.width, small_height / photo.height)
    small = photo.resize(cover)
    small = small.crop((small.width - small_width) // 2, (small.height - small_height) // 2, small_width, small_height)
    small = small.gaussblur(BLUR_RADIUS * scale / SMALL)
    luminance = small.recomb([[0.2126, 0.7152, 0.0722]])
    small = small * SATURATION - luminance * (SATURATION - 1)
    return (small * (1 - TINT_ALPHA) + TINT_GRAY * TINT_ALPHA).cast("uchar").copy_memory()


def shade(image, feature):
    """`image` with the feature's lower half darkened to black at its bottom edge (the gradient),
    drawn in place of a full-size gradient layer."""
    half = feature // 2
    ramp = pyvips.Image.xyz(1, half)[1].linear(-1 / half, 1).resize(image.width, vscale=1, kernel="nearest")
    lower = image.crop(0, feature - half, image.width, half) * ramp
    return image.insert(lower.cast("uchar"), 0, feature - half)


def framed(image, scale):
    """`image` with the border blended into its outermost `scale` pixels, strip by strip."""
    ink, alpha = BORDER_INK[0], BORDER_INK[3] / 255
    width, height = image.width, image.height
    for x, y, w, h in ((0, 0, width, scale), (0, height - scale, width, scale),
                       (0, scale, scale, height - 2 * scale), (width - scale, scale, scale, height - 2 * scale)):
        image = image.insert(image.crop(x, y, w, h).linear(1 - alpha, ink * alpha).cast("uchar"), x, y)
    return image


def render_card(job):
    """Every scale of one card, written to the output folder."""
    card_id, path, title, description, args = job
    largest = max(SCALES)
    feature_points = feature_height(path, args.width)
    height_points = feature_points + args.text_height
    photo = pyvips.Image.thumbnail(str(path), args.width * largest, height=feature_points * largest, size="force")
    photo = (photo.flatten() if photo.hasalpha() else photo).colourspace("srgb").copy_memory()
    cover = background(photo, args.width * largest, height_points * largest, largest)
    for scale in SCALES:
        width, height, feature = args.width * scale, height_points * scale, feature_points * scale
        base = cover.resize(width / cover.width, vscale=height / cover.height, kernel="linear")
        feature_photo = photo if scale == largest else photo.resize(scale / largest)
        base = shade(base.insert(feature_photo, 0, 0), feature)
        title_shadow, title_text, title_dy = text_layers(
            title, "Lato Heavy", 30, scale, width - 40 * scale, 40 * scale, False, 2)
        text_shadow, text, text_dy = text_layers(
            description, "Lato Medium", 16, scale, width - 48 * scale, (args.text_height - 40) * scale, True, 1)
        title_x, title_y = 20 * scale, feature - 50 * scale
        text_x, text_y = 24 * scale, feature + 20 * scale
        # The texts composed over the rows they cover only, not the whole card.
        top = title_y
        rows = base.crop(0, top, width, height - top).bandjoin(255).composite(
            [title_shadow, title_text, text_shadow, text], "over",
            x=[title_x, title_x, text_x, text_x],
            y=[title_y + title_dy - top, title_y - top, text_y + text_dy - top, text_y - top])
        card = framed(base.insert(rows.flatten().cast("uchar"), 0, top), scale)
        save(card, output_path(args, card_id, scale), args, text_top=title_y)


def main():
    """Renders every card of the catalog at every scale, one process per core."""
    args = parse_args(__doc__)
    args.output.mkdir(parents=True, exist_ok=True)
    jobs = [(card_id, path, title, description, args) for card_id, path, title, description in cards(args.catalog)]
    with Pool(len(os.sched_getaffinity(0))) as pool:
        for _ in pool.imap_unordered(render_card, jobs):
            pass


if __name__ == "__main__":
    main()
