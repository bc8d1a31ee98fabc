"""JPEG decoding as a device does it: libjpeg-turbo's TurboJPEG API (Debian's libturbojpeg0), the
library that Chromium and Android's Skia decode JPEG with, without libvips' pipeline around it.

Through ctypes: no Python package wraps TurboJPEG in Debian, and the three calls need none.
"""

import ctypes
import ctypes.util
import subprocess

_LIBRARY = ctypes.CDLL(ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0")
_LIBRARY.tjInitDecompress.restype = ctypes.c_void_p
_LIBRARY.tjDestroy.argtypes = [ctypes.c_void_p]
_LIBRARY.tjGetErrorStr2.argtypes = [ctypes.c_void_p]
_LIBRARY.tjGetErrorStr2.restype = ctypes.c_char_p
_LIBRARY.tjDecompressHeader3.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong] + [ctypes.POINTER(ctypes.c_int)] * 4
_LIBRARY.tjDecompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p,
                                   ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
_PIXEL_FORMAT_RGB = 0  # TJPF_RGB
_DEFAULT_FLAGS = 0  # accurate DCT and smooth ("fancy") chroma upsampling, as browsers decode


def is_jpeg(data):
    """Whether `data` starts like a JPEG file (SOI marker)."""
    return data[:2] == b"\xff\xd8"


def decode(data):
    """`data` (JPEG bytes) decoded to 8-bit RGB: (width, height, pixels as a bytearray)."""
    handle = _LIBRARY.tjInitDecompress()
    try:
        width, height, subsampling, colorspace = (ctypes.c_int() for _ in range(4))
        if _LIBRARY.tjDecompressHeader3(handle, data, len(data), ctypes.byref(width), ctypes.byref(height),
                                        ctypes.byref(subsampling), ctypes.byref(colorspace)):
            raise ValueError(_LIBRARY.tjGetErrorStr2(handle).decode())
        pixels = bytearray(width.value * height.value * 3)
        target = (ctypes.c_char * len(pixels)).from_buffer(pixels)
        if _LIBRARY.tjDecompress2(handle, data, len(data), target, width.value, 0, height.value,
                                  _PIXEL_FORMAT_RGB, _DEFAULT_FLAGS):
            raise ValueError(_LIBRARY.tjGetErrorStr2(handle).decode())
        return width.value, height.value, pixels
    finally:
        _LIBRARY.tjDestroy(handle)


def version():
    """The installed libturbojpeg0's upstream version (Debian's package version without epoch and revision)."""
    package = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libturbojpeg0"],
                             capture_output=True, text=True).stdout.strip()
    return package.split(":")[-1].rsplit("-", 1)[0] or "unknown"
