#!/usr/bin/env bash
# Peer 2: the cards as a shell script with ImageMagick's convert, one card and scale after another.
#
# usage: imagemagick_cards.sh CATALOG OUTPUT WIDTH TEXT_HEIGHT COMPRESSION FILTER
#   WIDTH, TEXT_HEIGHT: W and T in points; COMPRESSION: zlib level 0-9; FILTER: none | all.
#
# The layers of CARD_SPEC.md, approximately: the photo aspect-filled, blurred (-blur), saturated
# (-modulate) and tinted (-colorize) as the background; the photo aspect-fit as the feature
# image; a black gradient over its lower half; the title (label:) and the description
# (pango:, wrapped and justified, as plain text) in Lato with -shadow; a faint border. caption:
# is not used: it refuses a text whose single line would be wider than ImageMagick's 16K-pixel
# limit, as a long description is at 3x. Debian's ImageMagick 6 is called by its full path,
# /usr/bin/convert, so that no other convert on the PATH stands in for it.
set -euo pipefail

CONVERT=/usr/bin/convert
IDENTIFY=/usr/bin/identify
FONTS=/usr/share/fonts/truetype/lato
SCALES=(1 2 3)

catalog=$1 output=$2 width=$3 text_height=$4 compression=$5
case $6 in
  none) png_filter=0 ;;
  all) png_filter=5 ;;  # libpng's adaptive choice among all filters
  *) echo "imagemagick_cards.sh: FILTER must be none or all, not $6" >&2; exit 2 ;;
esac
mkdir -p "$output"

# One card at one scale: render_card SOURCE TITLE DESCRIPTION FEATURE_POINTS SCALE OUT
render_card() {
  local source=$1 title=$2 description=$3 feature_points=$4 s=$5 out=$6
  local w=$((width * s)) f=$((feature_points * s)) h=$(((feature_points + text_height) * s))
  local half=$((f / 2))
  # convert expands % escapes in label: and pango: text; %% is a literal %. pango: sets type at
  # 96 dpi, where 12 pt is 16 px: the spec's 16 pt at 1x; it aligns text by -gravity, which
  # +gravity resets to the left.
  title=${title//%/%%} description=${description//%/%%}
  "$CONVERT" -define jpeg:size="${w}x${h}" "$source" \
    -resize "${w}x${h}^" -gravity center -extent "${w}x${h}" \
    -blur "0x$((30 * s))" -modulate 100,180 -fill gray50 -colorize 30% \
    -gravity northwest \
    \( -define jpeg:size="${w}x${f}" "$source" -resize "${w}x${f}!" \) \
    -geometry +0+0 -composite \
    \( -size "${w}x$((f - half))" gradient:none-black \) -geometry "+0+${half}" -composite \
    \( -background none -fill white -font "$FONTS/Lato-Heavy.ttf" -pointsize $((30 * s)) \
       label:"$title" -crop "$((w - 40 * s))x$((40 * s))+0+0" +repage \
       \( +clone -background black -shadow "30x$((3 * s / 2))+0+$((2 * s))" \) \
       +swap -background none -layers merge +repage \) \
    -geometry "+$((20 * s))+$((f - 50 * s))" -composite \
    \( +gravity -background none -fill white -font "Lato Medium" -pointsize $((12 * s)) \
       -define pango:justify=true -define pango:markup=false \
       -size "$((w - 48 * s))x" pango:"$description" \
       -crop "$((w - 48 * s))x$((text_height * s - 40 * s))+0+0" +repage \
       \( +clone -background black -shadow "30x$((3 * s / 2))+0+$((1 * s))" \) \
       +swap -background none -layers merge +repage \) \
    -gravity northwest -geometry "+$((24 * s))+$((f + 20 * s))" -composite \
    -fill none -stroke "rgba(217,217,217,0.2)" -strokewidth "$s" \
    -draw "rectangle $((s / 2)),$((s / 2)) $((w - 1 - s / 2)),$((h - 1 - s / 2))" \
    -alpha off -strip \
    -define png:compression-level="$compression" -define png:compression-filter="$png_filter" \
    PNG24:"$out"
}

# The catalog's cards as NUL-separated id, image path, title and description.
list_cards() {
  python3 -c '
import json, pathlib, sys
catalog = pathlib.Path(sys.argv[1])
for card in json.loads(catalog.read_text())["cards"]:
    for field in (card["id"], str(catalog.parent / card["image"]), card["title"], card["description"]):
        sys.stdout.write(field + "\0")
' "$catalog"
}

while IFS= read -r -d '' id && IFS= read -r -d '' source && IFS= read -r -d '' title \
    && IFS= read -r -d '' description; do
  read -r source_width source_height <<<"$("$IDENTIFY" -ping -format '%w %h' "$source")"
  feature_points=$(((width * source_height + source_width - 1) / source_width))
  for s in "${SCALES[@]}"; do
    render_card "$source" "$title" "$description" "$feature_points" "$s" "$output/$id@${s}x.png"
  done
done < <(list_cards)
