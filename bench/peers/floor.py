"""Peer 3, the floor: the least work any card tool must do, and nothing else.

Per card, the photo is decoded once, with shrink-on-load, to the largest feature image (the
photo aspect-fit to the card's width at the largest scale) and kept in memory. Each scale is
that image, reduced for the smaller scales, extended down to the card's height by repeating
its bottom row (a stand-in for the text area that costs next to nothing to make or compress),
and encoded with the settings given (with --fidelity-floor, by cardbake's steps and floor, the text
area being the extended rows). No blur, no text, no compositing.
"""

import pyvips

from cardset import SCALES, cards, feature_height, output_path, parse_args, save


def main():
    """Encodes one image of each card's output size for every card of the catalog."""
    args = parse_args(__doc__)
    args.output.mkdir(parents=True, exist_ok=True)
    largest = max(SCALES)
    for card_id, path, _, _ in cards(args.catalog):
        feature = feature_height(path, args.width)
        decoded = pyvips.Image.thumbnail(str(path), args.width * largest,
                                         height=feature * largest, size="force").copy_memory()
        for scale in SCALES:
            image = decoded if scale == largest else decoded.resize(scale / largest)
            image = image.embed(0, 0, args.width * scale,
                                (feature + args.text_height) * scale, extend="copy")
            save(image, output_path(args, card_id, scale), args, text_top=feature * scale)


if __name__ == "__main__":
    main()
