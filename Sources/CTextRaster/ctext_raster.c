#include "ctext_raster.h"

#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
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

static void configure_context(PangoContext *context) {
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

static void configure_layout(PangoLayout *layout, const ctext_request *request) {
    PangoFontDescription *font = pango_font_description_new();
    pango_font_description_set_family(font, request->family);
    pango_font_description_set_absolute_size(font, request->size * PANGO_SCALE);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);

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

static int render_locked(const ctext_request *request, ctext_mask *mask, char **error) {
    memset(mask, 0, sizeof *mask);
    if (request->width <= 0 || request->height <= 0 || request->padding < 0) {
        *error = copy_error("text frame must have a positive width and height");
        return -1;
    }
    int width = request->width + 2 * request->padding;
    int height = request->height + 2 * request->padding;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        *error = copy_error(cairo_status_to_string(cairo_surface_status(surface)));
        cairo_surface_destroy(surface);
        return -1;
    }
    cairo_t *cr = cairo_create(surface);
    PangoLayout *layout = pango_cairo_create_layout(cr);
    configure_context(pango_layout_get_context(layout));
    pango_layout_context_changed(layout);
    configure_layout(layout, request);

    PangoRectangle logical;
    pango_layout_get_pixel_extents(layout, NULL, &logical);
    double top = request->padding;
    if (request->single_line)
        top += (request->height - logical.height) / 2.0;

    int draws = request->single_line || first_line_fits(layout, request->height);
    if (draws && request->text[0] != '\0') {
        cairo_move_to(cr, request->padding, top);
        pango_cairo_show_layout(cr, layout);
    }
    mask->truncated = pango_layout_is_ellipsized(layout) || !draws;
    g_object_unref(layout);
    cairo_destroy(cr);
    cairo_surface_flush(surface);

    mask->width = width;
    mask->height = height;
    mask->pixels = malloc((size_t) width * height);
    if (!mask->pixels) {
        cairo_surface_destroy(surface);
        *error = copy_error("out of memory");
        return -1;
    }
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    for (int y = 0; y < height; y++)
        memcpy(mask->pixels + (size_t) y * width, data + (size_t) y * stride, width);
    cairo_surface_destroy(surface);
    return 0;
}

void ctext_mask_free(ctext_mask *mask) {
    free(mask->pixels);
    mask->pixels = NULL;
}

void ctext_error_free(char *error) {
    free(error);
}

static int find_family_locked(const char *family, char **file) {
    *file = NULL;
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
        // Ask for the best match too, so the file is the one Pango's fontconfig lookup picks.
        FcPattern *request = FcPatternCreate();
        FcPatternAddString(request, FC_FAMILY, (const FcChar8 *) family);
        FcConfigSubstitute(NULL, request, FcMatchPattern);
        FcDefaultSubstitute(request);
        FcResult result;
        FcPattern *match = FcFontMatch(NULL, request, &result);
        FcChar8 *path = NULL;
        if (match && FcPatternGetString(match, FC_FILE, 0, &path) == FcResultMatch) {
            *file = strdup((const char *) path);
            found = 0;
        }
        if (match)
            FcPatternDestroy(match);
        FcPatternDestroy(request);
    }
    FcFontSetDestroy(fonts);
    return found;
}

static int register_font_file_locked(const char *path, char **family) {
    *family = NULL;
    int count = 0;
    FcPattern *face = FcFreeTypeQuery((const FcChar8 *) path, 0, NULL, &count);
    if (!face)
        return -1;
    // Fonts list their typographic family first and the specific one (e.g. "Lato Heavy") after it.
    FcChar8 *name = NULL;
    FcChar8 *best = NULL;
    for (int i = 0; FcPatternGetString(face, FC_FAMILY, i, &name) == FcResultMatch; i++)
        if (!best || strlen((const char *) name) > strlen((const char *) best))
            best = name;
    int result = -1;
    if (best && FcConfigAppFontAddFile(NULL, (const FcChar8 *) path)) {
        *family = strdup((const char *) best);
        result = 0;
    }
    FcPatternDestroy(face);
    return result;
}

int ctext_render(const ctext_request *request, ctext_mask *mask, char **error) {
    pthread_mutex_lock(&text_lock);
    int result = render_locked(request, mask, error);
    pthread_mutex_unlock(&text_lock);
    return result;
}

int ctext_find_family(const char *family, char **file) {
    pthread_mutex_lock(&text_lock);
    int result = find_family_locked(family, file);
    pthread_mutex_unlock(&text_lock);
    return result;
}

int ctext_register_font_file(const char *path, char **family) {
    pthread_mutex_lock(&text_lock);
    int result = register_font_file_locked(path, family);
    pthread_mutex_unlock(&text_lock);
    return result;
}
