// Lays out plain text with Pango and rasterizes it into an 8-bit coverage mask, plus the runs set
// in a colour font (emoji), drawn in their own colours, when there are any.
//
// libvips' vips_text() cannot ellipsize to a frame, so cardbake drives Pango directly:
// the text is passed with pango_layout_set_text (never parsed as markup), and Pango's
// ellipsizing implements CARD_SPEC.md's overflow rules exactly. Every entry point holds one
// process-wide lock (Pango, cairo and fontconfig share caches that are not reliably thread-safe),
// so text is laid out one request at a time whatever the number of workers.
#ifndef CTEXT_RASTER_H
#define CTEXT_RASTER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *family;     // fontconfig family name, e.g. "Lato Heavy"
    int weight;             // CSS's weight, 1–1000 (400 regular, 700 bold); fallback fonts are asked at it too
    int italic;             // 1: italic, fallback fonts too
    const char *language;   // BCP 47 tag of the text, e.g. "ja", or NULL: picks fallback fonts and glyph forms
} ctext_font;

typedef struct {
    const char *text;       // UTF-8 plain text
    ctext_font font;
    double size;            // font size in pixels
    int width;              // frame width in pixels
    int height;             // frame height in pixels
    int single_line;        // 1: one line, ellipsized at the width, centred vertically in the frame
                            // 0: wrapped and justified, lines past the height dropped, the last ellipsized
    int padding;            // empty pixels added on every side of the frame (room for shadows and overhang)
} ctext_request;

typedef struct {
    unsigned char *pixels;  // width × height bytes, rows packed: the coverage of every glyph not in
                            // `color`; free with ctext_mask_free
    uint32_t *color;        // NULL when no run uses a colour font; else width × height pixels, rows
                            // packed, of those runs alone in cairo's ARGB32: premultiplied, alpha in
                            // the top 8 bits, blue in the low 8
    int width;              // request width + 2 × padding
    int height;             // request height + 2 × padding
    int truncated;          // 1 when an ellipsis was inserted
} ctext_mask;

/// Returns 0 and fills `mask`, or -1 with `error` set to a message (free with ctext_error_free).
int ctext_render(const ctext_request *request, ctext_mask *mask, char **error);
void ctext_mask_free(ctext_mask *mask);
void ctext_error_free(char *error);

typedef struct {
    ctext_font font;        // what to ask Pango for; `family` is owned (free with ctext_face_free)
    char *file;             // the file of the face it selects
} ctext_face;

/// The face a font is drawn in. With `weight` 0 and `italic` 0: the face `family` names, asked by that
/// name at its own weight and slant. Otherwise the face of the named face's typographic family (Lato
/// for "Lato Heavy") nearest `weight` (the named face's own weight when 0), italic when `italic` is 1.
/// 0 when fontconfig knows the family (case-insensitively, among all names a font lists) and fills
/// `face`; -1 when it does not.
int ctext_find_face(const char *family, int weight, int italic, ctext_face *face);

/// Registers a font file for this process and fills `face` as ctext_find_face does, the file's first
/// face standing for the named one and its most specific family name for the name (e.g. "Lato Heavy"):
/// a face of another weight or slant comes from the file where it holds one. -1 when the file is not
/// a usable font.
int ctext_register_face(const char *path, int weight, int italic, ctext_face *face);
void ctext_face_free(ctext_face *face);

typedef struct {
    char **files;           // the distinct font files the text's runs are drawn from, in order of first use
    int file_count;
    uint32_t *missing;      // the distinct code points no installed font draws (drawn as boxes), in order
    int missing_count;
} ctext_coverage;

/// Lays `text` out in `font` at `size` pixels, with no frame (which fonts draw a text does not depend
/// on one), and fills `coverage` with the font files Pango chose, fallbacks included, and the characters
/// it found no font for. Returns 0, or -1 with `error` set (free with ctext_error_free).
int ctext_coverage_of(const char *text, const ctext_font *font, double size, ctext_coverage *coverage, char **error);
void ctext_coverage_free(ctext_coverage *coverage);

/// The files of every font fontconfig's configuration lists (not those registered by the process),
/// in `*files` (`*count` of them; free with ctext_files_free). Returns 0, or -1 when out of memory.
int ctext_installed_font_files(char ***files, int *count);
void ctext_files_free(char **files, int count);

#endif
