#include "ctext_raster.h"

#include <pango/pangocairo.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
#include <hb-ot.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Pango, cairo's FreeType backend and fontconfig share caches between threads (fontconfig's
// configuration, cairo's font-face and scaled-font caches) that are not reliably thread-safe in
// the versions Debian 12 ships (docs/RELIABILITY.md has the runs that showed it). libvips' own
// text operation serialises Pango the same way. Every entry point here holds this lock.
static pthread_mutex_t text_lock = PTHREAD_MUTEX_INITIALIZER;

static char *copy_error(const char *message) {
    return strdup(message);
}

/// Sets how `context` draws: unhinted, at 72 dpi, and in `language` (a BCP 47 tag; NULL leaves Pango's
/// default), which picks fallback fonts and glyph forms (a Han character's Japanese or Chinese shape).
static void configure_context(PangoContext *context, const char *language) {
    if (language)
        pango_context_set_language(context, pango_language_from_string(language));
    // Unhinted outlines and metrics: the 2x and 3x cards are the 1x card drawn finer,
    // not re-fitted to the pixel grid.
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    pango_cairo_context_set_resolution(context, 72);
}

/// Sets `layout`'s font: `font` at `size` pixels. Pango asks fontconfig for the fallback fonts of
/// other scripts at the same weight and slant.
static void set_font(PangoLayout *layout, const ctext_font *font, double size) {
    PangoFontDescription *description = pango_font_description_new();
    pango_font_description_set_family(description, font->family);
    pango_font_description_set_weight(description, (PangoWeight) font->weight);
    pango_font_description_set_style(description, font->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    pango_font_description_set_absolute_size(description, size * PANGO_SCALE);
    pango_layout_set_font_description(layout, description);
    pango_font_description_free(description);
}

static void configure_layout(PangoLayout *layout, const ctext_request *request) {
    set_font(layout, &request->font, request->size);

    pango_layout_set_width(layout, request->width * PANGO_SCALE);
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
    pango_layout_set_auto_dir(layout, TRUE);
    pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT);
    if (request->single_line) {
        pango_layout_set_single_paragraph_mode(layout, TRUE);
        pango_layout_set_height(layout, 0);
    } else {
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
        pango_layout_set_justify(layout, TRUE);
        pango_layout_set_height(layout, request->height * PANGO_SCALE);
    }
    pango_layout_set_text(layout, request->text, -1);
}

/// A multi-line layout with a height ellipsizes only lines that overflow; Pango still keeps one
/// line when even that one does not fit, so drop the text entirely when its first line overflows.
static int first_line_fits(PangoLayout *layout, int height) {
    PangoRectangle logical;
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    pango_layout_iter_get_line_extents(iter, NULL, &logical);
    pango_layout_iter_free(iter);
    return PANGO_PIXELS_CEIL(logical.y + logical.height) <= height;
}

/// 1 when the layout shows every byte of `text`. Pango ellipsizes the last line that fits, but when
/// that line ends a paragraph it drops the paragraphs after it without an ellipsis.
static int shows_all_text(PangoLayout *layout, const char *text) {
    PangoLayoutLine *last = pango_layout_get_line_readonly(layout, pango_layout_get_line_count(layout) - 1);
    return last && last->start_index + last->length >= (int) strlen(text);
}

/// 1 when cairo draws `font`'s glyphs in colour: it has colour bitmaps (CBDT, sbix) or colour
/// layers (COLR), as Noto Color Emoji does.
static int is_color_font(PangoFont *font) {
    if (!font)
        return 0;
    hb_face_t *face = hb_font_get_face(pango_font_get_hb_font(font));
    return hb_ot_color_has_png(face) || hb_ot_color_has_layers(face);
}

/// Sets every glyph of the runs whose font is (`color` 1) or is not (0) a colour font to
/// PANGO_GLYPH_EMPTY, which Pango draws as nothing, so drawing the layout draws only the other
/// runs, each where the whole layout puts it. Returns how many runs it emptied.
static int empty_runs(PangoLayout *layout, int color) {
    int emptied = 0;
    for (GSList *lines = pango_layout_get_lines(layout); lines; lines = lines->next)
        for (GSList *runs = ((PangoLayoutLine *) lines->data)->runs; runs; runs = runs->next) {
            PangoGlyphItem *run = runs->data;
            if (is_color_font(run->item->analysis.font) != color)
                continue;
            for (int i = 0; i < run->glyphs->num_glyphs; i++)
                run->glyphs->glyphs[i].glyph = PANGO_GLYPH_EMPTY;
            emptied++;
        }
    return emptied;
}

/// A cleared image surface, or NULL with `error` set.
static cairo_surface_t *create_surface(cairo_format_t format, int width, int height, char **error) {
    cairo_surface_t *surface = cairo_image_surface_create(format, width, height);
    if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        return surface;
    *error = copy_error(cairo_status_to_string(cairo_surface_status(surface)));
    cairo_surface_destroy(surface);
    return NULL;
}

/// The colour runs of `layout` drawn alone at (x, y) into `*surface`, a new ARGB32 surface the
/// size of `mask`, and emptied from `layout`; `*surface` stays NULL when `layout` has none.
/// -1 with `error` set when the surface cannot be made.
static int draw_color_runs(PangoLayout *layout, double x, double y, const ctext_mask *mask,
                           cairo_surface_t **surface, char **error) {
    *surface = NULL;
    if (empty_runs(layout, 1) == 0)
        return 0;
    *surface = create_surface(CAIRO_FORMAT_ARGB32, mask->width, mask->height, error);
    if (!*surface)
        return -1;
    // A copy is laid out afresh from the text, so its colour runs are whole again.
    PangoLayout *color_layout = pango_layout_copy(layout);
    empty_runs(color_layout, 0);
    cairo_t *cr = cairo_create(*surface);
    cairo_move_to(cr, x, y);
    pango_cairo_show_layout(cr, color_layout);
    cairo_destroy(cr);
    g_object_unref(color_layout);
    cairo_surface_flush(*surface);
    return 0;
}

/// Copies `surface`'s rows, `row_bytes` each, into a new packed buffer (NULL when out of memory).
static void *packed_rows(cairo_surface_t *surface, size_t row_bytes, int height) {
    unsigned char *rows = malloc(row_bytes * height);
    if (!rows)
        return NULL;
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    for (int y = 0; y < height; y++)
        memcpy(rows + (size_t) y * row_bytes, data + (size_t) y * stride, row_bytes);
    return rows;
}

static int render_locked(const ctext_request *request, ctext_mask *mask, char **error) {
    memset(mask, 0, sizeof *mask);
    if (request->width <= 0 || request->height <= 0 || request->padding < 0) {
        *error = copy_error("text frame must have a positive width and height");
        return -1;
    }
    mask->width = request->width + 2 * request->padding;
    mask->height = request->height + 2 * request->padding;
    cairo_surface_t *surface = create_surface(CAIRO_FORMAT_A8, mask->width, mask->height, error);
    if (!surface)
        return -1;
    cairo_t *cr = cairo_create(surface);
    PangoLayout *layout = pango_cairo_create_layout(cr);
    configure_context(pango_layout_get_context(layout), request->font.language);
    pango_layout_context_changed(layout);
    configure_layout(layout, request);

    PangoRectangle logical;
    pango_layout_get_pixel_extents(layout, NULL, &logical);
    double top = request->padding;
    if (request->single_line)
        top += (request->height - logical.height) / 2.0;

    int draws = request->single_line || first_line_fits(layout, request->height);
    cairo_surface_t *color = NULL;
    int status = 0;
    if (draws && request->text[0] != '\0'
        && (status = draw_color_runs(layout, request->padding, top, mask, &color, error)) == 0) {
        cairo_move_to(cr, request->padding, top);
        pango_cairo_show_layout(cr, layout);
    }
    mask->truncated = pango_layout_is_ellipsized(layout) || !draws || !shows_all_text(layout, request->text);
    g_object_unref(layout);
    cairo_destroy(cr);
    cairo_surface_flush(surface);

    if (status == 0) {
        mask->pixels = packed_rows(surface, mask->width, mask->height);
        if (color)
            mask->color = packed_rows(color, (size_t) mask->width * 4, mask->height);
        if (!mask->pixels || (color && !mask->color)) {
            ctext_mask_free(mask);
            *error = copy_error("out of memory");
            status = -1;
        }
    }
    cairo_surface_destroy(surface);
    if (color)
        cairo_surface_destroy(color);
    return status;
}

void ctext_mask_free(ctext_mask *mask) {
    free(mask->pixels);
    free(mask->color);
    mask->pixels = NULL;
    mask->color = NULL;
}

void ctext_error_free(char *error) {
    free(error);
}

/// CSS's weight of a fontconfig pattern's face.
static int css_weight(FcPattern *face) {
    double weight = FC_WEIGHT_REGULAR;
    FcPatternGetDouble(face, FC_WEIGHT, 0, &weight);
    return (int) (FcWeightToOpenTypeDouble(weight) + 0.5);
}

static int is_italic(FcPattern *face) {
    int slant = FC_SLANT_ROMAN;
    FcPatternGetInteger(face, FC_SLANT, 0, &slant);
    return slant != FC_SLANT_ROMAN;
}

/// The longest of the family names `face` lists: fonts list their typographic family (e.g. "Lato")
/// and the specific one (e.g. "Lato Heavy"), in no reliable order.
static const char *specific_family(FcPattern *face) {
    FcChar8 *name = NULL;
    const char *longest = NULL;
    for (int i = 0; FcPatternGetString(face, FC_FAMILY, i, &name) == FcResultMatch; i++)
        if (!longest || strlen((const char *) name) > strlen(longest))
            longest = (const char *) name;
    return longest;
}

static double width_of(FcPattern *face) {
    double width = FC_WIDTH_NORMAL;
    FcPatternGetDouble(face, FC_WIDTH, 0, &width);
    return width;
}

/// The face fontconfig picks for `family`, as Pango's lookup does; `weight` 0 asks none. NULL when
/// there is none.
static FcPattern *best_match(const char *family, int weight, int italic) {
    FcPattern *request = FcPatternCreate();
    FcPatternAddString(request, FC_FAMILY, (const FcChar8 *) family);
    if (weight)
        FcPatternAddDouble(request, FC_WEIGHT, FcWeightFromOpenTypeDouble(weight));
    if (italic)
        FcPatternAddInteger(request, FC_SLANT, FC_SLANT_ITALIC);
    FcConfigSubstitute(NULL, request, FcMatchPattern);
    FcDefaultSubstitute(request);
    FcResult result;
    FcPattern *match = FcFontMatch(NULL, request, &result);
    FcPatternDestroy(request);
    return match;
}

/// The widest family of the face `named` whose faces vary in weight and slant only: the shortest of
/// its names that, asked at the face's own weight and slant, gives a face of its width and weight
/// ("Lato" for Lato Heavy, but "DejaVu Sans Condensed" for DejaVu Sans Condensed, as "DejaVu Sans" at
/// its weight gives the normal width). The longest name when none does.
static const char *typographic_family(FcPattern *named) {
    const char *best = NULL;
    FcChar8 *name = NULL;
    for (int i = 0; FcPatternGetString(named, FC_FAMILY, i, &name) == FcResultMatch; i++) {
        if (best && strlen((const char *) name) >= strlen(best))
            continue;
        FcPattern *match = best_match((const char *) name, css_weight(named), is_italic(named));
        if (match && width_of(match) == width_of(named) && css_weight(match) == css_weight(named))
            best = (const char *) name;
        if (match)
            FcPatternDestroy(match);
    }
    return best ? best : specific_family(named);
}

/// Fills `face` for the face `named` (found under `name`, in `file`), or for the face of its
/// typographic family at `weight` and `italic` when either is asked (ctext_find_face). -1 when out of
/// memory or no face matches.
static int choose_face(FcPattern *named, const char *name, const char *file, int weight, int italic, ctext_face *face) {
    FcPattern *match = NULL;
    if (weight != 0 || italic) {
        name = typographic_family(named);
        weight = weight ? weight : css_weight(named);
        FcChar8 *matched = NULL;
        if (!name || !(match = best_match(name, weight, italic))
            || FcPatternGetString(match, FC_FILE, 0, &matched) != FcResultMatch) {
            if (match)
                FcPatternDestroy(match);
            return -1;
        }
        file = (const char *) matched;
    } else {
        weight = css_weight(named);
        italic = is_italic(named);
    }
    face->font.family = strdup(name);
    face->font.weight = weight;
    face->font.italic = italic;
    face->file = strdup(file);
    if (match)
        FcPatternDestroy(match);
    if (!face->font.family || !face->file) {
        ctext_face_free(face);
        return -1;
    }
    return 0;
}

static int find_face_locked(const char *family, int weight, int italic, ctext_face *face) {
    FcPattern *pattern = FcPatternCreate();
    FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *) family);
    FcObjectSet *objects = FcObjectSetBuild(FC_FAMILY, FC_FILE, NULL);
    FcFontSet *fonts = FcFontList(NULL, pattern, objects);
    FcObjectSetDestroy(objects);
    FcPatternDestroy(pattern);
    if (!fonts)
        return -1;
    int found = -1;
    if (fonts->nfont > 0) {
        // The best match, so the file is the one Pango's fontconfig lookup picks.
        FcPattern *named = best_match(family, 0, 0);
        FcChar8 *file = NULL;
        if (named && FcPatternGetString(named, FC_FILE, 0, &file) == FcResultMatch)
            found = choose_face(named, family, (const char *) file, weight, italic, face);
        if (named)
            FcPatternDestroy(named);
    }
    FcFontSetDestroy(fonts);
    return found;
}

static int register_face_locked(const char *path, int weight, int italic, ctext_face *face) {
    int count = 0;
    FcPattern *named = FcFreeTypeQuery((const FcChar8 *) path, 0, NULL, &count);
    if (!named)
        return -1;
    const char *name = specific_family(named);
    int result = -1;
    if (name && FcConfigAppFontAddFile(NULL, (const FcChar8 *) path))
        result = choose_face(named, name, path, weight, italic, face);
    FcPatternDestroy(named);
    return result;
}

void ctext_face_free(ctext_face *face) {
    free((char *) face->font.family);
    free(face->file);
    memset(face, 0, sizeof *face);
}

/// Appends `file` to `coverage`'s files unless it is there already; 0, or -1 when out of memory.
static int add_file(ctext_coverage *coverage, const char *file) {
    for (int i = 0; i < coverage->file_count; i++)
        if (strcmp(coverage->files[i], file) == 0)
            return 0;
    char **files = realloc(coverage->files, sizeof *files * (coverage->file_count + 1));
    if (!files)
        return -1;
    coverage->files = files;
    if (!(files[coverage->file_count] = strdup(file)))
        return -1;
    coverage->file_count++;
    return 0;
}

/// Appends `code_point` to `coverage`'s missing characters unless it is there already; 0, or -1 when out of memory.
static int add_missing(ctext_coverage *coverage, uint32_t code_point) {
    for (int i = 0; i < coverage->missing_count; i++)
        if (coverage->missing[i] == code_point)
            return 0;
    uint32_t *missing = realloc(coverage->missing, sizeof *missing * (coverage->missing_count + 1));
    if (!missing)
        return -1;
    coverage->missing = missing;
    coverage->missing[coverage->missing_count++] = code_point;
    return 0;
}

/// The file of each run's font and the characters of its unknown glyphs, which Pango marks with
/// PANGO_GLYPH_UNKNOWN_FLAG and the code point they stand for.
static int collect_coverage(PangoLayout *layout, ctext_coverage *coverage) {
    for (GSList *lines = pango_layout_get_lines_readonly(layout); lines; lines = lines->next)
        for (GSList *runs = ((PangoLayoutLine *) lines->data)->runs; runs; runs = runs->next) {
            PangoGlyphItem *run = runs->data;
            PangoFont *font = run->item->analysis.font;
            FcChar8 *file = NULL;
            if (font && PANGO_IS_FC_FONT(font)
                && FcPatternGetString(pango_fc_font_get_pattern(PANGO_FC_FONT(font)), FC_FILE, 0, &file) == FcResultMatch
                && add_file(coverage, (const char *) file) != 0)
                return -1;
            for (int i = 0; i < run->glyphs->num_glyphs; i++) {
                PangoGlyph glyph = run->glyphs->glyphs[i].glyph;
                if (glyph != PANGO_GLYPH_INVALID_INPUT && (glyph & PANGO_GLYPH_UNKNOWN_FLAG)
                    && add_missing(coverage, glyph & ~PANGO_GLYPH_UNKNOWN_FLAG) != 0)
                    return -1;
            }
        }
    return 0;
}

static int coverage_locked(const char *text, const ctext_font *font, double size, ctext_coverage *coverage, char **error) {
    memset(coverage, 0, sizeof *coverage);
    PangoContext *context = pango_font_map_create_context(pango_cairo_font_map_get_default());
    configure_context(context, font->language);
    PangoLayout *layout = pango_layout_new(context);
    set_font(layout, font, size);
    pango_layout_set_auto_dir(layout, TRUE);
    pango_layout_set_text(layout, text, -1);
    int status = collect_coverage(layout, coverage);
    g_object_unref(layout);
    g_object_unref(context);
    if (status != 0) {
        ctext_coverage_free(coverage);
        *error = copy_error("out of memory");
    }
    return status;
}

void ctext_coverage_free(ctext_coverage *coverage) {
    ctext_files_free(coverage->files, coverage->file_count);
    free(coverage->missing);
    memset(coverage, 0, sizeof *coverage);
}

static int installed_font_files_locked(char ***files, int *count) {
    *files = NULL;
    *count = 0;
    FcFontSet *fonts = FcConfigGetFonts(FcConfigGetCurrent(), FcSetSystem);
    if (!fonts || fonts->nfont == 0)
        return 0;
    if (!(*files = calloc(fonts->nfont, sizeof **files)))
        return -1;
    for (int i = 0; i < fonts->nfont; i++) {
        FcChar8 *file = NULL;
        if (FcPatternGetString(fonts->fonts[i], FC_FILE, 0, &file) != FcResultMatch)
            continue;
        if (!((*files)[*count] = strdup((const char *) file))) {
            ctext_files_free(*files, *count);
            *files = NULL;
            *count = 0;
            return -1;
        }
        (*count)++;
    }
    return 0;
}

void ctext_files_free(char **files, int count) {
    for (int i = 0; i < count; i++)
        free(files[i]);
    free(files);
}

int ctext_coverage_of(const char *text, const ctext_font *font, double size, ctext_coverage *coverage, char **error) {
    pthread_mutex_lock(&text_lock);
    int result = coverage_locked(text, font, size, coverage, error);
    pthread_mutex_unlock(&text_lock);
    return result;
}

int ctext_installed_font_files(char ***files, int *count) {
    pthread_mutex_lock(&text_lock);
    FcInit();
    int result = installed_font_files_locked(files, count);
    pthread_mutex_unlock(&text_lock);
    return result;
}

int ctext_render(const ctext_request *request, ctext_mask *mask, char **error) {
    pthread_mutex_lock(&text_lock);
    int result = render_locked(request, mask, error);
    pthread_mutex_unlock(&text_lock);
    return result;
}

int ctext_find_face(const char *family, int weight, int italic, ctext_face *face) {
    pthread_mutex_lock(&text_lock);
    memset(face, 0, sizeof *face);
    int result = find_face_locked(family, weight, italic, face);
    pthread_mutex_unlock(&text_lock);
    return result;
}

int ctext_register_face(const char *path, int weight, int italic, ctext_face *face) {
    pthread_mutex_lock(&text_lock);
    memset(face, 0, sizeof *face);
    int result = register_face_locked(path, weight, italic, face);
    pthread_mutex_unlock(&text_lock);
    return result;
}
