#include "cvips_shim.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>

#include <jpeglib.h>

static void cvips_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
}

int cvips_start(const char *argv0) {
    if (VIPS_INIT(argv0))
        return -1;
    vips_cache_set_max(0);
    vips_block_untrusted_set(TRUE);
    // Files are decoded through sources, which reach loaders that have no buffer form. All but one of
    // those are untrusted; the text matrix format is blocked too, so a text file never decodes as an image.
    vips_operation_block_set("VipsForeignLoadMatrix", TRUE);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, cvips_ignore_log, NULL);
    return 0;
}

static void cvips_free_buffer(VipsImage *image, gpointer buffer) {
    g_free(buffer);
}

typedef struct {
    int descriptor;
    gint64 offset;
    cvips_read_observer observe;
    void *context;
} CvipsObservedFile;

static gint64 cvips_observed_read(VipsSourceCustom *source, void *buffer, gint64 length, CvipsObservedFile *file) {
    ssize_t count;
    do
        count = pread(file->descriptor, buffer, (size_t) length, (off_t) file->offset);
    while (count < 0 && errno == EINTR);
    if (count > 0) {
        file->offset += count;
        file->observe(file->context, buffer, (size_t) count);
    }
    return count;
}

static const char *cvips_observed_file_key = "cvips-observed-file";

VipsSource *cvips_source_new_observed(int descriptor, cvips_read_observer observe, void *context) {
    CvipsObservedFile *file = g_new(CvipsObservedFile, 1);
    *file = (CvipsObservedFile) { descriptor, 0, observe, context };
    VipsSourceCustom *source = vips_source_custom_new();
    g_object_set_data_full(G_OBJECT(source), cvips_observed_file_key, file, g_free);
    g_signal_connect(source, "read", G_CALLBACK(cvips_observed_read), file);
    return VIPS_SOURCE(source);
}

int cvips_source_observe_rest(VipsSource *source) {
    CvipsObservedFile *file = g_object_get_data(G_OBJECT(source), cvips_observed_file_key);
    const gint64 size = 1 << 16;
    void *buffer = g_malloc(size);
    gint64 count;
    while ((count = cvips_observed_read(NULL, buffer, size, file)) > 0)
        ;
    int error = errno;
    g_free(buffer);
    errno = error;
    return count == 0 ? 0 : -1;
}

int cvips_open_header(VipsSource *source, VipsImage **out) {
    *out = vips_image_new_from_source(source, "", NULL);
    return *out ? 0 : -1;
}

// Whether `image` embeds an ICC profile libvips can convert it with: one that is not corrupt and
// describes the image's colour space. Others are ignored, as browsers ignore them.
static gboolean cvips_has_usable_profile(VipsImage *image) {
    const void *profile;
    size_t length;
    return vips_image_get_typeof(image, VIPS_META_ICC_NAME)
        && !vips_image_get_blob(image, VIPS_META_ICC_NAME, &profile, &length)
        && vips_icc_is_compatible_profile(image, profile, length);
}

// vips_thumbnail_buffer in 8.14 converts CMYK to sRGB through the fallback profile even when the image
// embeds its own, and leaves an RGB image with a profile (Display P3, Adobe RGB) in that space unless asked
// to export; asked to export, it also converts images without a profile, shifting their colours, and fails
// on a profile it cannot use. So each case gets the call that is right for it.
int cvips_thumbnail(VipsSource *source, VipsImage **out, int width) {
    VipsImage *header = vips_image_new_from_source(source, "", NULL);
    if (!header)
        return -1;
    gboolean cmyk = header->Type == VIPS_INTERPRETATION_CMYK;
    gboolean profiled = cvips_has_usable_profile(header);
    g_object_unref(header);

    int result;
    if (cmyk) {
        // Decoded whole (no shrink-on-load), converted, then thumbnailed as the sRGB image it now is.
        VipsImage *decoded = vips_image_new_from_source(source, "",
            "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
        VipsImage *srgb = NULL;
        result = !decoded
            || vips_icc_transform(decoded, &srgb, "srgb", "input_profile", "cmyk", "embedded", TRUE,
                   "intent", VIPS_INTENT_RELATIVE, "depth", 8, NULL)
            || vips_thumbnail_image(srgb, out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, NULL)
            ? -1 : 0;
        if (srgb)
            g_object_unref(srgb);
        if (decoded)
            g_object_unref(decoded);
    }
    else
        // thumbnail's own fail_on does not reach the loader in 8.14: pass it as a loader option.
        result = profiled
            ? vips_thumbnail_source(source, out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
                  "option_string", "fail_on=error", "export_profile", "srgb", NULL)
            : vips_thumbnail_source(source, out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
                  "option_string", "fail_on=error", NULL);
    return result;
}

// vips_thumbnail_calculate_shrink (8.14) for a target `width` wide and VIPS_MAX_COORD high, size down,
// no crop, auto-rotated: the shrink of each axis, both that of the axis that limits.
static void cvips_thumbnail_shrink(int input_width, int input_height, int width, gboolean swap,
                                   double *hshrink, double *vshrink) {
    int target_width = swap ? VIPS_MAX_COORD : width;
    int target_height = swap ? width : VIPS_MAX_COORD;
    *hshrink = (double) input_width / target_width;
    *vshrink = (double) input_height / target_height;
    if (*hshrink < *vshrink)
        *hshrink = *vshrink;
    else
        *vshrink = *hshrink;
    *hshrink = VIPS_MIN(VIPS_MAX(1, *hshrink), input_width);
    *vshrink = VIPS_MIN(VIPS_MAX(1, *vshrink), input_height);
}

int cvips_thumbnail_open(VipsSource *source, int width, VipsImage **out, double *hshrink, double *vshrink) {
    *out = NULL;
    const char *loader = vips_foreign_find_load_source(source);
    if (!loader)
        return -1;
    if (!vips_isprefix("VipsForeignLoadJpeg", loader))
        return 1;
    VipsImage *header = vips_image_new_from_source(source, "fail_on=error", NULL);
    if (!header)
        return -1;
    gboolean rgb = header->Type != VIPS_INTERPRETATION_CMYK && header->Bands == 3
        && header->BandFmt == VIPS_FORMAT_UCHAR && header->Coding == VIPS_CODING_NONE;
    gboolean swap = vips_image_get_orientation_swap(header);
    double h, v;
    cvips_thumbnail_shrink(header->Xsize, header->Ysize, width, swap, &h, &v);
    g_object_unref(header);
    if (!rgb)
        return 1;
    // vips_thumbnail_find_jpegshrink: shrink on load to leave at least a factor of two for the resize.
    double common = VIPS_MIN(h, v);
    int factor = common >= 16 ? 8 : common >= 8 ? 4 : common >= 4 ? 2 : 1;
    VipsImage *loaded = vips_image_new_from_source(source, "fail_on=error",
        "access", VIPS_ACCESS_SEQUENTIAL, "shrink", factor, NULL);
    if (!loaded)
        return -1;
    int result = vips_colourspace(loaded, out, VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(loaded);
    if (result)
        return -1;
    cvips_thumbnail_shrink((*out)->Xsize, vips_image_get_page_height(*out), width, swap, hshrink, vshrink);
    return 0;
}

int cvips_thumbnail_close(VipsImage *resized, VipsImage *opened, VipsImage **out) {
    const void *profile;
    size_t length;
    gboolean profiled = cvips_has_usable_profile(opened)
        && !vips_image_get_blob(opened, VIPS_META_ICC_NAME, &profile, &length);
    int orientation = vips_image_get_orientation(opened);
    *out = resized;
    g_object_ref(resized);
    if (!profiled && orientation == 1)
        return 0;
    // The steps read what the resize did not keep: the profile and the orientation.
    VipsImage *next;
    if (vips_copy(*out, &next, NULL))
        goto failed;
    g_object_unref(*out);
    *out = next;
    if (profiled)
        vips_image_set_blob_copy(*out, VIPS_META_ICC_NAME, profile, length);
    vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
    if (profiled) {
        if (vips_icc_transform(*out, &next, "srgb", "intent", VIPS_INTENT_RELATIVE, "embedded", TRUE, NULL))
            goto failed;
        g_object_unref(*out);
        *out = next;
    }
    if (orientation != 1) {
        // As vips_thumbnail does: in memory first, as turning it reads out of order.
        if (!(next = vips_image_copy_memory(*out)))
            goto failed;
        g_object_unref(*out);
        *out = next;
        if (vips_autorot(*out, &next, NULL))
            goto failed;
        g_object_unref(*out);
        *out = next;
    }
    return 0;
failed:
    g_object_unref(*out);
    *out = NULL;
    return -1;
}

int cvips_image_new_from_owned_memory(void *data, size_t size, int width, int height, int bands,
                                      VipsBandFormat format, int interpretation, VipsImage **out) {
    *out = vips_image_new_from_memory(data, size, width, height, bands, format);
    if (!*out) {
        g_free(data);
        return -1;
    }
    if (interpretation >= 0)
        (*out)->Type = (VipsInterpretation) interpretation;
    g_signal_connect(*out, "postclose", G_CALLBACK(cvips_free_buffer), data);
    return 0;
}

typedef struct {
    cvips_fill_rows fill;
    void *context;
    void (*release)(void *context);
} CvipsGenerator;

static int cvips_generate_rows(VipsRegion *out, void *sequence, void *a, void *b, gboolean *stop) {
    CvipsGenerator *generator = a;
    VipsRect *rect = &out->valid;
    generator->fill(generator->context, rect->left, rect->top, rect->width, rect->height,
                    VIPS_REGION_ADDR(out, rect->left, rect->top), VIPS_REGION_LSKIP(out));
    return 0;
}

static void cvips_release_generator(VipsImage *image, gpointer data) {
    CvipsGenerator *generator = data;
    generator->release(generator->context);
    g_free(generator);
}

int cvips_image_new_generated(int width, int height, int bands, cvips_fill_rows fill, void *context,
                              void (*release)(void *context), VipsImage **out) {
    VipsImage *image = vips_image_new();
    vips_image_init_fields(image, width, height, bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    CvipsGenerator *generator = g_new(CvipsGenerator, 1);
    *generator = (CvipsGenerator) { fill, context, release };
    g_signal_connect(image, "postclose", G_CALLBACK(cvips_release_generator), generator);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, NULL)
        || vips_image_generate(image, NULL, cvips_generate_rows, NULL, generator, NULL)) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

typedef struct {
    const void *buffer;
    size_t length;
    VipsForeignClass *found;
    gboolean blocked;
} CvipsLoaderSearch;

// Keeps the best loader whose sniffer accepts the bytes: unblocked over blocked, then higher priority.
static void *cvips_consider_loader(VipsForeignLoadClass *class, CvipsLoaderSearch *search) {
    if (!class->is_a_buffer || !class->is_a_buffer(search->buffer, search->length))
        return NULL;
    VipsForeignClass *foreign = VIPS_FOREIGN_CLASS(class);
    gboolean blocked = (VIPS_OPERATION_CLASS(class)->flags & VIPS_OPERATION_BLOCKED) != 0;
    if (!search->found
        || (search->blocked && !blocked)
        || (search->blocked == blocked && foreign->priority > search->found->priority)) {
        search->found = foreign;
        search->blocked = blocked;
    }
    return NULL;
}

const char *cvips_find_loader(const void *buffer, size_t length, const char **description, int *blocked) {
    CvipsLoaderSearch search = { buffer, length, NULL, FALSE };
    vips_class_map_all(g_type_from_name("VipsForeignLoad"), (VipsClassMapFn) cvips_consider_loader, &search);
    if (!search.found)
        return NULL;
    *description = VIPS_OBJECT_CLASS(search.found)->description;
    *blocked = search.blocked;
    return VIPS_OBJECT_CLASS(search.found)->nickname;
}

int cvips_write_to_memory(VipsImage *in, void *memory, size_t size) {
    // As vips_image_write_to_memory does, into memory it allocates itself.
    VipsImage *target = vips_image_new_from_memory(memory, size, in->Xsize, in->Ysize, in->Bands, in->BandFmt);
    if (!target)
        return -1;
    int result = vips_image_write(in, target);
    g_object_unref(target);
    return result;
}

int cvips_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}

const void *cvips_image_data(VipsImage *in) {
    return vips_image_get_data(in);
}

int cvips_image_in_memory(VipsImage *in) {
    return in->dtype == VIPS_IMAGE_SETBUF || in->dtype == VIPS_IMAGE_SETBUF_FOREIGN
        || in->dtype == VIPS_IMAGE_MMAPIN || in->dtype == VIPS_IMAGE_MMAPINRW;
}

int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale, double gap) {
    return vips_resize(in, out, hscale, "vscale", vscale, "gap", gap, NULL);
}

int cvips_reducev(VipsImage *in, VipsImage **out, double vshrink, double gap) {
    return vips_reducev(in, out, vshrink, "kernel", VIPS_KERNEL_LANCZOS3, "gap", gap, NULL);
}

int cvips_shrinkh(VipsImage *in, VipsImage **out, int factor) {
    return vips_shrinkh(in, out, factor, "ceil", TRUE, NULL);
}

int cvips_shrinkv(VipsImage *in, VipsImage **out, int factor) {
    return vips_shrinkv(in, out, factor, "ceil", TRUE, NULL);
}

int cvips_gaussblur(VipsImage *in, VipsImage **out, double sigma, VipsPrecision precision) {
    return vips_gaussblur(in, out, sigma, "precision", precision, NULL);
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

int cvips_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality, int halved_chroma) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "optimize_coding", TRUE,
        "subsample_mode", halved_chroma ? VIPS_FOREIGN_SUBSAMPLE_ON : VIPS_FOREIGN_SUBSAMPLE_OFF, "strip", TRUE, NULL);
}

int cvips_webpsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_webpsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

static _Thread_local int cvips_thread_error_mode;

int cvips_error_mode(void) {
    return cvips_thread_error_mode;
}

void cvips_set_error_mode(int mode) {
    cvips_thread_error_mode = mode;
}

int cvips_heifsave(VipsImage *in, void **buffer, size_t *length, int quality, int av1) {
    return vips_heifsave_buffer(in, buffer, length, "Q", quality, "bitdepth", 8, "effort", 4,
        "compression", av1 ? VIPS_FOREIGN_HEIF_COMPRESSION_AV1 : VIPS_FOREIGN_HEIF_COMPRESSION_HEVC,
        "strip", TRUE, NULL);
}

/// libjpeg's error manager, which leaves a failed decode by longjmp instead of exiting the process.
struct cvips_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
};

static void cvips_jpeg_escape(j_common_ptr info) {
    longjmp(((struct cvips_jpeg_error *)info->err)->escape, 1);
}

/// A warning (corrupt or truncated data, which libjpeg would fill in) fails the decode too; trace messages are dropped.
static void cvips_jpeg_message(j_common_ptr info, int level) {
    if (level < 0)
        cvips_jpeg_escape(info);
}

int cvips_jpeg_decode_rgb(const void *data, size_t length, unsigned char *samples, int width, int height,
                          char *message) {
    struct jpeg_decompress_struct info;
    struct cvips_jpeg_error error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cvips_jpeg_escape;
    error.manager.emit_message = cvips_jpeg_message;
    if (setjmp(error.escape)) {
        error.manager.format_message((j_common_ptr)&info, message);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, length);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    if (info.output_width != (JDIMENSION)width || info.output_height != (JDIMENSION)height) {
        snprintf(message, JMSG_LENGTH_MAX, "a %ux%u JPEG, not %dx%d", info.output_width, info.output_height,
                 width, height);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = samples + (size_t)info.output_scanline * width * 3;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}

int cvips_jpeg_encode_rgb(const unsigned char *samples, int width, int height, int quality, int halved_chroma,
                          unsigned char **data, unsigned long *length, char *message) {
    struct jpeg_compress_struct info;
    struct cvips_jpeg_error error;
    *data = NULL;
    *length = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cvips_jpeg_escape;
    if (setjmp(error.escape)) {
        error.manager.format_message((j_common_ptr)&info, message);
        jpeg_destroy_compress(&info);
        free(*data);
        *data = NULL;
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, data, length);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    // vips_jpegsave_buffer's settings (vips2jpeg.c, 8.14) with Q, optimize_coding, subsample_mode and strip.
    jpeg_set_defaults(&info);
    info.optimize_coding = TRUE;
    jpeg_set_quality(&info, quality, TRUE);
    if (!halved_chroma)
        for (int band = 0; band < 3; band++)
            info.comp_info[band].h_samp_factor = info.comp_info[band].v_samp_factor = 1;
    info.write_JFIF_header = FALSE;
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(samples + (size_t)info.next_scanline * width * 3);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}


#define CVIPS_TEXT(token) #token
#define CVIPS_EXPANDED_TEXT(token) CVIPS_TEXT(token)

const char *cvips_libjpeg_turbo_version(void) {
    return CVIPS_EXPANDED_TEXT(LIBJPEG_TURBO_VERSION);
}
