#!/usr/bin/env python3
"""Writes the small decoder fixtures in this folder (needs Pillow: pip install pillow).

Every fixture shows the same picture once decoded and upright: a 64 x 48 image, red in its
top-left quadrant, blue in its top-right, green in its bottom half. The tests check colours
and orientation against that picture.
"""
import struct
import zlib

from PIL import Image, ImageOps

W, H = 64, 48
RED, BLUE, GREEN = (220, 30, 30), (30, 30, 220), (30, 200, 30)


def picture():
    image = Image.new("RGB", (W, H), GREEN)
    image.paste(RED, (0, 0, W // 2, H // 2))
    image.paste(BLUE, (W // 2, 0, W, H // 2))
    return image


# EXIF orientation n stores the picture transformed so that a viewer applying the tag shows it upright.
STORE = {
    1: lambda i: i,
    2: lambda i: i.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
    3: lambda i: i.transpose(Image.Transpose.ROTATE_180),
    4: lambda i: i.transpose(Image.Transpose.FLIP_TOP_BOTTOM),
    5: lambda i: i.transpose(Image.Transpose.TRANSPOSE),
    6: lambda i: i.transpose(Image.Transpose.ROTATE_90),
    7: lambda i: i.transpose(Image.Transpose.TRANSVERSE),
    8: lambda i: i.transpose(Image.Transpose.ROTATE_270),
}

for orientation, store in STORE.items():
    stored = store(picture())
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = f"orientation-{orientation}.jpg"
    stored.save(path, quality=95, exif=exif.tobytes())
    assert ImageOps.exif_transpose(Image.open(path)).size == (W, H), path

picture().convert("CMYK").save("cmyk.jpg", quality=95)
picture().convert("L").save("gray.png")
gray_alpha = picture().convert("LA")
gray_alpha.paste((0, 0), (0, H // 2, W, H))  # bottom half fully transparent
gray_alpha.save("gray-alpha.png")
picture().convert("P", palette=Image.Palette.ADAPTIVE, colors=4).save("palette.png")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# Pillow cannot write 16-bit RGB, so this one is written by hand: each 8-bit value v becomes v * 257.
rows = b""
for y in range(H):
    rows += b"\x00" + b"".join(struct.pack(">3H", *(v * 257 for v in picture().getpixel((x, y)))) for x in range(W))
with open("rgb16.png", "wb") as file:
    file.write(b"\x89PNG\r\n\x1a\n"
               + png_chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 2, 0, 0, 0))
               + png_chunk(b"IDAT", zlib.compress(rows, 9))
               + png_chunk(b"IEND", b""))
