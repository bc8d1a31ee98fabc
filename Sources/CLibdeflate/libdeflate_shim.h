// libdeflate: whole-buffer DEFLATE, zlib and gzip compression, several times faster than zlib at the
// same ratio, and CRC-32. Used for PNG output (Sources/Vips/PNGWriter.swift).
#ifndef CARDBAKE_LIBDEFLATE_SHIM_H
#define CARDBAKE_LIBDEFLATE_SHIM_H

#include <libdeflate.h>

#endif
