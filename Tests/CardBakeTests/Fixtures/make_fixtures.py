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

# Formats beyond JPEG and PNG, each showing the picture.
picture().save("picture.webp", lossless=True)
picture().save("picture.tiff", compression="tiff_adobe_deflate")
# An animated GIF: the picture, then a blue frame; only the first frame is shown.
picture().save("animated.gif", save_all=True, append_images=[Image.new("RGB", (W, H), BLUE)], duration=100, loop=0)
# Fully transparent, with red colour values under alpha 0 that must never show.
Image.new("RGBA", (W, H), (255, 0, 0, 0)).save("transparent.png")


# ICC profiles written by hand (Pillow's ImageCms makes only sRGB, Lab and XYZ ones), so the
# fixtures carry no third-party profile. Colorants are Bradford-adapted to the D50 PCS white.
D50 = (0.9642, 1.0, 0.8249)


def s15(value):
    return struct.pack(">i", round(value * 65536))


def xyz_tag(xyz):
    return b"XYZ \0\0\0\0" + b"".join(s15(v) for v in xyz)


def text_tag(text):
    encoded = text.encode("utf-16-be")
    return b"mluc\0\0\0\0" + struct.pack(">II2s2sII", 1, 12, b"en", b"US", len(encoded), 28) + encoded


def icc_profile(device_class, colour_space, tags):
    """An ICC v4 profile; `tags` maps signatures to data, identical data is stored once."""
    offset = 128 + 4 + 12 * len(tags)
    table, blobs, placed = b"", b"", {}
    for signature, data in tags.items():
        if data not in placed:
            placed[data] = offset + len(blobs)
            blobs += data + b"\0" * (-len(data) % 4)
        table += struct.pack(">4sII", signature, placed[data], len(data))
    size = offset + len(blobs)
    header = (struct.pack(">I4sI4s4s4s", size, b"", 0x04300000, device_class, colour_space, b"XYZ ")
              + struct.pack(">6H", 2024, 1, 1, 0, 0, 0) + b"acsp" + b"\0" * 24
              + struct.pack(">I", 0) + b"".join(s15(v) for v in D50) + b"\0" * 48)
    return header + struct.pack(">I", len(tags)) + table + blobs


def xy_to_xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


def solve3(m, v):
    """Solves m · s = v for a 3 × 3 matrix (Cramer's rule)."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    return [det([[v[r] if c == i else m[r][c] for c in range(3)] for r in range(3)]) / d for i in range(3)]


BRADFORD = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]


def mul(m, v):
    return [sum(m[r][c] * v[c] for c in range(3)) for r in range(3)]


def colorants_d50(primaries, white=(0.3127, 0.3290)):
    """Each primary's XYZ, scaled so they sum to the white, then Bradford-adapted to D50."""
    columns = [xy_to_xyz(*p) for p in primaries]
    scale = solve3([[columns[c][r] for c in range(3)] for r in range(3)], xy_to_xyz(*white))
    source_cone, d50_cone = mul(BRADFORD, xy_to_xyz(*white)), mul(BRADFORD, D50)
    def adapt(xyz):
        cone = mul(BRADFORD, xyz)
        return solve3(BRADFORD, [cone[i] * d50_cone[i] / source_cone[i] for i in range(3)])
    return [adapt([v * s for v in column]) for column, s in zip(columns, scale)]


def srgb_to_linear(v):
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


# The sRGB transfer curve as an ICC parametric curve (type 3).
SRGB_CURVE = b"para\0\0\0\0" + struct.pack(">HH", 3, 0) + b"".join(
    s15(v) for v in (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))


def matrix_profile(name, primaries):
    r, g, b = colorants_d50(primaries)
    return icc_profile(b"mntr", b"RGB ", {
        b"desc": text_tag(name), b"cprt": text_tag("No copyright, use freely"), b"wtpt": xyz_tag(D50),
        b"rXYZ": xyz_tag(r), b"gXYZ": xyz_tag(g), b"bXYZ": xyz_tag(b),
        b"rTRC": SRGB_CURVE, b"gTRC": SRGB_CURVE, b"bTRC": SRGB_CURVE})


# Display P3: left half P3 red (outside sRGB, so clipped to sRGB red), right half P3 (200, 120, 60),
# which is about sRGB (213, 115, 42) once converted; read as sRGB it would stay (200, 120, 60).
display_p3 = Image.new("RGB", (W, H), (200, 120, 60))
display_p3.paste((255, 0, 0), (0, 0, W // 2, H))
P3_PROFILE = matrix_profile("Display P3 (cardbake test)", [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)])
display_p3.save("display-p3.png", icc_profile=P3_PROFILE)
# A grayscale JPEG carrying an RGB profile, which cannot describe it: the profile must be ignored.
picture().convert("L").save("gray-rgb-profile.jpg", quality=95, icc_profile=P3_PROFILE)
# An RGB JPEG in Display P3, stored rotated (EXIF orientation 6): decoded smaller, it is resized, then
# converted through its profile and turned upright, in libvips' thumbnail's order.
exif = Image.Exif()
exif[0x0112] = 6
STORE[6](picture()).save("display-p3-rotated.jpg", quality=95, icc_profile=P3_PROFILE, exif=exif.tobytes())

# A CMYK profile for the naive inks Pillow's convert("CMYK") writes (C = 255 - R, …, K = 0): input
# curves turn each ink into linear light, (1 - C) → linear sRGB, then a 2-point lut16 from CMYK to XYZ
# mixes them as light does: linear sRGB = (1 - C')(1 - K), … . Every step is exact whatever lcms
# interpolates, so the JPEG below shows the picture's exact colours only if its embedded profile is used.
SRGB_D50 = colorants_d50([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)])


def ink_xyz(c, m, y, k):
    linear = [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)]
    return [sum(SRGB_D50[p][i] * linear[p] for p in range(3)) for i in range(3)]


ink_curve = struct.pack(">256H", *(round((1 - srgb_to_linear(255 - i)) * 65535) for i in range(256)))
black_curve = struct.pack(">256H", *(round(i * 65535 / 255) for i in range(256)))
clut = b"".join(struct.pack(">3H", *(round(v * 32768) for v in ink_xyz(c, m, y, k)))
                for c in (0, 1) for m in (0, 1) for y in (0, 1) for k in (0, 1))
cmyk_lut = (b"mft2\0\0\0\0" + struct.pack(">BBBB", 4, 3, 2, 0) + b"".join(s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
            + struct.pack(">HH", 256, 2) + ink_curve * 3 + black_curve + clut + struct.pack(">2H", 0, 65535) * 3)
cmyk_profile = icc_profile(b"prtr", b"CMYK", {
    b"desc": text_tag("Naive CMYK (cardbake test)"), b"cprt": text_tag("No copyright, use freely"),
    b"wtpt": xyz_tag(D50), b"A2B0": cmyk_lut, b"A2B1": cmyk_lut, b"A2B2": cmyk_lut})
# Stored rotated (EXIF orientation 6), as the path that converts CMYK must still turn it upright.
exif = Image.Exif()
exif[0x0112] = 6
STORE[6](picture()).convert("CMYK").save("cmyk-profile.jpg", quality=95, icc_profile=cmyk_profile, exif=exif.tobytes())


# A decompression bomb: the header declares 100,000 x 100,000 RGB pixels (30 GB decoded); the data
# holds one row, so a decoder that gets past the pixel limit fails at the second row.
BOMB = 100_000
row = zlib.compressobj(9)
first_row = row.compress(bytes(1 + 3 * BOMB)) + row.flush(zlib.Z_SYNC_FLUSH)
with open("bomb.png", "wb") as file:
    file.write(b"\x89PNG\r\n\x1a\n"
               + png_chunk(b"IHDR", struct.pack(">IIBBBBB", BOMB, BOMB, 8, 2, 0, 0, 0))
               + png_chunk(b"IDAT", first_row)
               + png_chunk(b"IEND", b""))

# SVG: libvips reads it only with svgload, which it marks untrusted; cardbake blocks such loaders.
with open("untrusted.svg", "w") as file:
    file.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}">'
               f'<rect width="{W}" height="{H}" fill="rgb{GREEN}"/></svg>\n')
