// Non-variadic wrappers over the libvips calls cardbake uses, and the libjpeg decode and encode it makes itself.
//
// Swift cannot call C variadic functions such as vips_gaussblur(in, &out, sigma, NULL), so each
// wrapper here fixes the optional arguments cardbake needs and exposes them as plain
// parameters. Every function returns 0 on success and -1 on failure, with the reason in
// libvips' error buffer, exactly like the call it wraps (cvips_jpeg_decode_rgb and
// cvips_jpeg_encode_rgb, which are not libvips, give theirs in a buffer of their own). Outputs
// are new references the caller must g_object_unref.
#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <vips/vips.h>

/// Starts libvips once per process: VIPS_INIT, the operation cache off (it does not cap memory and can
/// serve a stale image after a file changes under the same path), the loaders that are not fuzzed
/// for hostile input blocked (and the text matrix loader), and libvips' warnings kept off stderr (failures still reach the error buffer).
int cvips_start(const char *argv0);

/// Called with each piece of a file a source reads, in order.
typedef void (*cvips_read_observer)(void *context, const void *bytes, size_t length);

/// A source over the open file `descriptor`, read from its start with `pread` (the descriptor's offset
/// is left alone), each byte once and in order, every piece handed to `observe` with `context`. It cannot
/// seek: a loader that looks back is served from libvips' own copy of the header it read, and a loader
/// that needs the whole file (TIFF, HEIF) has libvips read all of it into memory. So the bytes decoded are
/// exactly the bytes observed. `context` must outlive the source.
VipsSource *cvips_source_new_observed(int descriptor, cvips_read_observer observe, void *context);

/// Reads, and observes, what is left of an observed source's file. 0, or -1 with errno set.
int cvips_source_observe_rest(VipsSource *source);

/// Opens only the header of an encoded image, without decoding pixels; the source stays readable from
/// its start. Used to check the pixel count before any pixel is decoded.
int cvips_open_header(VipsSource *source, VipsImage **out);

/// Decodes with EXIF auto-rotation to at most `width` pixels wide (never upscales), with shrink-on-load
/// except for CMYK; fails on truncation and errors. An image with an embedded ICC profile is converted
/// through it to sRGB (relative colorimetric); CMYK without one through libvips' fallback CMYK profile.
/// A profile libvips cannot use (corrupt, or for another colour space) is ignored.
/// Decoding is lazy and reads `source` as the pixels are computed: keep it until then (copied to memory).
int cvips_thumbnail(VipsSource *source, VipsImage **out, int width);

/// For a JPEG in RGB: what cvips_thumbnail does before its resize (shrink on load, sRGB processing space),
/// and the horizontal and vertical shrinks it would resize by (1 / scale). Returns 0 with the image,
/// 1 for any other source (use cvips_thumbnail), -1 on failure.
int cvips_thumbnail_open(VipsSource *source, int width, VipsImage **out, double *hshrink, double *vshrink);

/// What cvips_thumbnail does after its resize of `opened` (from cvips_thumbnail_open) into `resized`:
/// from an embedded profile libvips can use to sRGB, then upright by the EXIF orientation; `resized`
/// itself (a new reference) when there is neither.
int cvips_thumbnail_close(VipsImage *resized, VipsImage *opened, VipsImage **out);

/// The loader libvips would pick for `buffer`, judged by the loaders' own sniffers of its first bytes:
/// one that is not blocked if any recognises them, else the blocked one of highest priority; NULL if none.
/// libvips 8.14 reports a blocked loader only as "operation is blocked" and an unknown format as "not in a
/// known format"; this lets cardbake say which it was, and that blocked means untrusted. `description`
/// and the returned nickname belong to libvips. Reads only class data, so any thread may call it.
const char *cvips_find_loader(const void *buffer, size_t length, const char **description, int *blocked);

/// An image over `data` (allocated with g_malloc), which it takes: freed when the image closes, or here on
/// failure. Labelled `interpretation`, or as libvips guesses from its bands and format when that is negative.
int cvips_image_new_from_owned_memory(void *data, size_t size, int width, int height, int bands,
                                      VipsBandFormat format, int interpretation, VipsImage **out);

/// Fills `height` rows from `top` of a generated image, `width` pixels from `left`, at `memory`, whose
/// rows are `row_bytes` apart. May be called from several threads at once, for different rows.
typedef void (*cvips_fill_rows)(void *context, int left, int top, int width, int height, void *memory,
                                size_t row_bytes);

/// An 8-bit sRGB image of `width × height` pixels of `bands` samples whose pixels `fill` computes when they
/// are asked for, a strip at a time; nothing is held in memory. `release` is called with `context` once when
/// the image closes, or here on failure.
int cvips_image_new_generated(int width, int height, int bands, cvips_fill_rows fill, void *context,
                              void (*release)(void *context), VipsImage **out);

/// Computes the image into `memory` (`size` bytes: width × height × bands samples of its format, interleaved).
int cvips_write_to_memory(VipsImage *in, void *memory, size_t size);

/// Computes the image into memory, so it can be read any number of times (decoders are sequential).
int cvips_copy_memory(VipsImage *in, VipsImage **out);

/// The image's samples in memory, interleaved, row by row: an image not yet in memory is computed into
/// memory in place first (vips_image_get_data). NULL on failure.
const void *cvips_image_data(VipsImage *in);

/// Whether the image's samples are in memory already (vips_image_get_data would compute nothing).
int cvips_image_in_memory(VipsImage *in);

/// Resizes by independent horizontal and vertical factors with the default (lanczos3) kernel; `gap` is
/// vips_resize's (2 by default: a box shrink first for the part of a reduction past twice that; 0: none).
int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale, double gap);

/// vips_reducev with the lanczos3 kernel and vips_resize's `gap` (what vips_resize does first when it reduces).
int cvips_reducev(VipsImage *in, VipsImage **out, double vshrink, double gap);

/// vips_shrinkh by a whole factor, the last output pixel averaging what remains (`ceil`), as vips_reduceh's
/// box shrink does.
int cvips_shrinkh(VipsImage *in, VipsImage **out, int factor);

/// vips_shrinkv likewise, as vips_reducev's box shrink does.
int cvips_shrinkv(VipsImage *in, VipsImage **out, int factor);

/// Gaussian blur at the given precision (float, or integer for 8-bit images).
int cvips_gaussblur(VipsImage *in, VipsImage **out, double sigma, VipsPrecision precision);

/// Enlarges to width × height with `in` at (x, y), repeating edge pixels outwards.
int cvips_embed_extend(VipsImage *in, VipsImage **out, int x, int y, int width, int height);

int cvips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count);
int cvips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format);
int cvips_rint(VipsImage *in, VipsImage **out);
/// Relabels the interpretation without touching pixels (memory images arrive with a guessed one).
int cvips_copy_interpretation(VipsImage *in, VipsImage **out, VipsInterpretation space);
int cvips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space);
/// Removes alpha by compositing over an opaque colour given as 0–255 per band.
int cvips_flatten(VipsImage *in, VipsImage **out, const double *background, int count);
/// out = in × a + b per band (count values each, or 1 for all bands).
int cvips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int count);
int cvips_replicate(VipsImage *in, VipsImage **out, int across, int down);

/// Encoders with `strip` (PNG is cardbake's own writer). libvips 8.14 still writes a WebP `EXIF` chunk;
/// VipsImage.encoded removes it. JPEG keeps every chroma sample unless `halved_chroma` is non-zero (4:2:0).
int cvips_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality, int halved_chroma);
int cvips_webpsave(VipsImage *in, void **buffer, size_t *length, int quality);
/// HEIF at 8 bits per channel through libheif: HEVC (HEIC) or, when `av1` is non-zero, AV1 (AVIF).
/// With `strip`, libvips 8.14 writes no EXIF, XMP or ICC item; an AVIF keeps the `nclx` colour box
/// that says how to turn its YCbCr into RGB.
int cvips_heifsave(VipsImage *in, void **buffer, size_t *length, int quality, int av1);

/// This thread's place in Swift's `VipsCall`: 0 outside any step, 1 in a step's shared attempt,
/// 2 in a step's run alone. Kept per thread.
int cvips_error_mode(void);
void cvips_set_error_mode(int mode);

/// Decodes the JPEG `data` straight with libjpeg-turbo, the library libvips' loader calls with the same
/// settings (so the same samples), into `samples`: `height` rows of `width` RGB pixels. No pipeline, no
/// threads, no copy: the fidelity check's decode. 0 on success; -1 with the reason in `message`
/// (JMSG_LENGTH_MAX, 200 bytes) when the data is not a JPEG of that size.
int cvips_jpeg_decode_rgb(const void *data, size_t length, unsigned char *samples, int width, int height,
                          char *message);

/// Encodes `height` rows of `width` RGB pixels from `samples` as the JPEG vips_jpegsave_buffer writes for
/// them with the same quality, optimised Huffman tables, 4:2:0 chroma or not, and stripped metadata, byte
/// for byte, straight with libjpeg-turbo. The bytes go in `*data` (`*length` of them), which the caller
/// frees; -1 with the reason in `message` (JMSG_LENGTH_MAX) on failure.
int cvips_jpeg_encode_rgb(const unsigned char *samples, int width, int height, int quality, int halved_chroma,
                          unsigned char **data, unsigned long *length, char *message);

/// The version of the libjpeg-turbo headers the two functions above are compiled against (jconfig.h's
/// LIBJPEG_TURBO_VERSION), e.g. "2.1.5": the library reports none at run time.
const char *cvips_libjpeg_turbo_version(void);

#endif
