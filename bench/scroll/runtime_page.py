"""Writes the scroll benchmark's runtime page: the cards of a cardbake build drawn live by the
browser, as a web page without cardbake would draw them.

Each card follows CARD_SPEC.md's layers with CSS: the photo as a background with `filter:
blur(30px) saturate(1.8)` under a 30 % gray tint, the photo again as the feature image, the
gradient over it, the title and the justified description in Lato with their shadows, and the
hairline border. It is written as a careful web developer would: photos scaled to the largest
size the page shows (3x the card width, JPEG), `loading="lazy"` and `decoding="async"` on every
image, card sizes known up front so nothing reflows. Its page layout is the gallery's.
"""

import html
import json
from pathlib import Path

import pyvips

BLUR_RADIUS = 30
SATURATION = 1.8
PHOTO_QUALITY = 85

STYLE = f"""
*{{box-sizing:border-box}}
body{{margin:0;background:#ececee;color:#1d1d1f;font:14px/1.45 system-ui,sans-serif}}
header{{max-width:1480px;margin:0 auto;padding:36px 32px 4px}}
h1{{margin:0;font-size:20px;font-weight:650}}
main{{max-width:1480px;margin:0 auto;padding:28px 32px 72px;display:flex;flex-wrap:wrap;
justify-content:center;align-items:flex-start;gap:40px 32px}}
.card{{position:relative;flex:none;overflow:hidden;background:#808080;color:#fff;
box-shadow:0 1px 2px rgb(0 0 0/.10),0 10px 30px rgb(0 0 0/.12)}}
.card img{{position:absolute;display:block;object-fit:cover}}
.backdrop{{inset:-{2 * BLUR_RADIUS}px;width:calc(100% + {4 * BLUR_RADIUS}px);height:calc(100% + {4 * BLUR_RADIUS}px);
filter:blur({BLUR_RADIUS}px) saturate({SATURATION})}}
.tint{{position:absolute;inset:0;background:rgb(128 128 128/.3)}}
.feature{{left:0;top:0;width:100%;height:var(--feature)}}
.shade{{position:absolute;left:0;top:0;width:100%;height:var(--feature);
background:linear-gradient(rgb(0 0 0/0) 50%,#000)}}
.card h2{{position:absolute;left:20px;top:calc(var(--feature) - 50px);width:calc(100% - 40px);height:40px;margin:0;
font:800 30px/40px Lato,sans-serif;text-shadow:0 2px 3px rgb(0 0 0/.3);white-space:nowrap;overflow:hidden;
text-overflow:ellipsis}}
.card p{{position:absolute;left:24px;top:calc(var(--feature) + 20px);width:calc(100% - 48px);
max-height:calc(100% - var(--feature) - 40px);margin:0;font:500 16px/1.25 Lato,sans-serif;text-align:justify;
text-shadow:0 1px 3px rgb(0 0 0/.3);overflow:hidden}}
.edge{{position:absolute;inset:0;border:1px solid rgb(217 217 217/.2)}}
"""


def scaled_photos(catalog_path, cards, folder, width):
    """Each card's photo, scaled to `width` pixels wide as JPEG into `folder`, made once; returns
    the path of each card's photo relative to the page, by card id."""
    catalog = json.loads(catalog_path.read_text())
    images = {card["id"]: catalog_path.parent / card["image"] for card in catalog["cards"]}
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for card in cards:
        source = images[card["id"]]
        target = folder / (source.stem + ".jpg")
        if not target.exists():
            pyvips.Image.thumbnail(str(source), width, height=100_000).jpegsave(
                str(target), Q=PHOTO_QUALITY, strip=True)
        paths[card["id"]] = f"{folder.name}/{target.name}"
    return paths


def card_markup(card, photo, text_height):
    """One card drawn by the browser, in CARD_SPEC.md's paint order."""
    width, height = card["size"]["width"], card["size"]["height"]
    feature = height - text_height
    photo = html.escape(photo)
    return (f'<article class="card" style="width:{width:g}px;height:{height:g}px;--feature:{feature:g}px">'
            f'<img class="backdrop" src="{photo}" alt="" loading="lazy" decoding="async">'
            f'<div class="tint"></div>'
            f'<img class="feature" src="{photo}" alt="" loading="lazy" decoding="async">'
            f'<div class="shade"></div>'
            f'<h2>{html.escape(card["title"])}</h2><p>{html.escape(card["description"])}</p>'
            f'<div class="edge"></div></article>')


def write(folder, manifest_path, catalog_path, text_height=300, photo_width=960):
    """Writes `index.html` and its photos into `folder`, with the cards of the manifest at
    `manifest_path` (built from the catalog at `catalog_path`); returns the page's path."""
    manifest = json.loads(manifest_path.read_text())
    photos = scaled_photos(catalog_path, manifest["cards"], folder / "photos", photo_width)
    cards = "\n".join(card_markup(card, photos[card["id"]], text_height) for card in manifest["cards"])
    page = folder / "index.html"
    page.write_text(f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{len(manifest["cards"])} cards drawn at runtime</title><style>{STYLE}</style></head>
<body><header><h1>{len(manifest["cards"])} cards drawn at runtime</h1></header>
<main>
{cards}
</main></body></html>
""")
    return page
