#include "cvips_shim.h"

static void cvips_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
}

int cvips_start(const char *argv0) {
    if (VIPS_INIT(argv0))
        return -1;
    vips_cache_set_max(0);
    vips_block_untrusted_set(TRUE);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, cvips_ignore_log, NULL);
    return 0;
}

static void cvips_free_buffer(VipsImage *image, gpointer buffer) {
    g_free(buffer);
}

int cvips_open_header(const void *buffer, size_t length, VipsImage **out) {
    *out = vips_image_new_from_buffer(buffer, length, "", NULL);
    return *out ? 0 : -1;
}

int cvips_thumbnail(const void *buffer, size_t length, VipsImage **out, int width) {
    void *copy = g_memdup2(buffer, length);
    if (vips_thumbnail_buffer(copy, length, out, width,
            "height", VIPS_MAX_COORD,
            "size", VIPS_SIZE_DOWN,
            // thumbnail's own fail_on does not reach the loader in 8.14: pass it as a loader option.
            "option_string", "fail_on=error",
            NULL)) {
        g_free(copy);
        return -1;
    }
    g_signal_connect(*out, "postclose", G_CALLBACK(cvips_free_buffer), copy);
    return 0;
}

int cvips_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}

int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

int cvips_gaussblur(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, "precision", VIPS_PRECISION_FLOAT, NULL);
}

int cvips_embed_extend(VipsImage *in, VipsImage **out, int x, int y, int width, int height) {
    return vips_embed(in, out, x, y, width, height, "extend", VIPS_EXTEND_COPY, NULL);
}

int cvips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count) {
    return vips_extract_band(in, out, first, "n", count, NULL);
}

int cvips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
    return vips_cast(in, out, format, NULL);
}

int cvips_rint(VipsImage *in, VipsImage **out) {
    return vips_round(in, out, VIPS_OPERATION_ROUND_RINT, NULL);
}

int cvips_copy_interpretation(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_copy(in, out, "interpretation", space, NULL);
}

int cvips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

int cvips_flatten(VipsImage *in, VipsImage **out, const double *background, int count) {
    VipsArrayDouble *array = vips_array_double_new(background, count);
    int result = vips_flatten(in, out, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

int cvips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int count) {
    return vips_linear(in, out, (double *) a, (double *) b, count, NULL);
}

int cvips_replicate(VipsImage *in, VipsImage **out, int across, int down) {
    return vips_replicate(in, out, across, down, NULL);
}

int cvips_composite_over(VipsImage **layers, int count, const int *x, const int *y, VipsImage **out) {
    int modes[count > 1 ? count - 1 : 1];
    for (int i = 0; i < count - 1; i++)
        modes[i] = VIPS_BLEND_MODE_OVER;
    VipsArrayInt *xs = vips_array_int_new(x, count - 1);
    VipsArrayInt *ys = vips_array_int_new(y, count - 1);
    int result = vips_composite(layers, out, count, modes, "x", xs, "y", ys, NULL);
    vips_area_unref(VIPS_AREA(xs));
    vips_area_unref(VIPS_AREA(ys));
    return result;
}

int cvips_pngsave(VipsImage *in, void **buffer, size_t *length, int compression, int filter) {
    return vips_pngsave_buffer(in, buffer, length,
        "compression", compression, "filter", filter, "strip", TRUE, NULL);
}

int cvips_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length,
        "Q", quality, "optimize_coding", TRUE, "strip", TRUE, NULL);
}

int cvips_webpsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_webpsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}
