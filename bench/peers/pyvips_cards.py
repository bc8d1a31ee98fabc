"""Peer 1: the cards as a user would script them with pyvips, one card and scale after another.

Each card at each scale: the photo aspect-filled and blurred, saturated and tinted as the
background; the photo aspect-fit as the feature image; a black gradient over its lower half;
the title and the justified description in Lato with soft shadows; a faint border. Text goes
through Pango markup, escaped. The layout follows CARD_SPEC.md approximately: the same sizes
and the same layers, without cardbake's ellipsizing.
"""

import html

import pyvips

from cardset import SCALES, cards, feature_height, output_path, parse_args, save

BLUR_RADIUS = 30
SATURATION = 1.8
TINT_GRAY, TINT_ALPHA = 128, 0.3
BORDER_INK = [217, 217, 217, 51]


def opaque(image):
    """An image as 3-band sRGB, any transparency laid over black."""
    return image.colourspace("srgb").flatten() if image.hasalpha() else image.colourspace("srgb")


def with_alpha(image):
    """An image as sRGB with an alpha band."""
    image = image.colourspace("srgb")
    return image if image.hasalpha() else image.bandjoin(255)


def background(path, width, height, scale):
    """The blurred, saturated and tinted cover of the card."""
    image = pyvips.Image.thumbnail(str(path), width, height=height, crop="centre")
    image = opaque(image).gaussblur(BLUR_RADIUS * scale)
    luminance = image.recomb([[0.2126, 0.7152, 0.0722]])
    image = image * SATURATION - luminance * (SATURATION - 1)
    image = image * (1 - TINT_ALPHA) + TINT_GRAY * TINT_ALPHA
    return image.cast("uchar").bandjoin(255)


def gradient(width, height):
    """Black, transparent down to the middle, opaque at the bottom."""
    half = height / 2
    alpha = ((pyvips.Image.xyz(width, height)[1] - half) * (255 / half)).cast("uchar")
    return pyvips.Image.black(width, height, bands=3).bandjoin(alpha).copy(interpretation="srgb")


def coloured(mask, ink, opacity=1.0):
    """A layer of one colour whose alpha is a text mask."""
    return (mask.new_from_image(ink).bandjoin(mask * opacity).cast("uchar")
            .copy(interpretation="srgb"))


def text_layers(text, font, size, scale, width, height, justify, shadow_offset):
    """The shadow and the white text of one label, cropped to its frame, and the shadow's offset."""
    markup = html.escape(text, quote=False)
    mask = pyvips.Image.text(markup, font=f"{font} {size}", dpi=72 * scale, width=width,
                             justify=justify)
    mask = mask.crop(0, 0, min(mask.width, width), min(mask.height, height))
    shadow = mask.embed(0, 0, mask.width, mask.height + 4 * scale).gaussblur(1.5 * scale)
    return coloured(shadow, [0, 0, 0], 0.3), coloured(mask, [255, 255, 255]), shadow_offset * scale


def border(width, height, scale):
    """A frame of BORDER_INK, `scale` pixels wide, inside the card's edge."""
    inner = pyvips.Image.black(width - 2 * scale, height - 2 * scale, bands=4)
    return inner.embed(scale, scale, width, height, extend="background",
                       background=BORDER_INK).copy(interpretation="srgb")


def render(path, title, description, args, feature_points, scale):
    """One card at one scale, as an opaque sRGB image; the feature image is F points high."""
    width = args.width * scale
    feature = feature_points * scale
    height = (feature_points + args.text_height) * scale
    photo = with_alpha(pyvips.Image.thumbnail(str(path), width, height=feature, size="force"))
    title_shadow, title_text, title_dy = text_layers(
        title, "Lato Heavy", 30, scale, width - 40 * scale, 40 * scale, False, 2)
    text_shadow, text, text_dy = text_layers(
        description, "Lato Medium", 16, scale, width - 48 * scale,
        (args.text_height - 40) * scale, True, 1)
    title_x, title_y = 20 * scale, feature - 50 * scale
    text_x, text_y = 24 * scale, feature + 20 * scale
    layers = [photo, gradient(width, feature), title_shadow, title_text, text_shadow, text,
              border(width, height, scale)]
    card = background(path, width, height, scale).composite(
        layers, "over",
        x=[0, 0, title_x, title_x, text_x, text_x, 0],
        y=[0, 0, title_y + title_dy, title_y, text_y + text_dy, text_y, 0])
    return card.flatten().cast("uchar")


def main():
    """Renders every card of the catalog at every scale into the output folder."""
    args = parse_args(__doc__)
    args.output.mkdir(parents=True, exist_ok=True)
    for card_id, path, title, description in cards(args.catalog):
        feature_points = feature_height(path, args.width)
        for scale in SCALES:
            save(render(path, title, description, args, feature_points, scale), output_path(args, card_id, scale), args)


if __name__ == "__main__":
    main()
