/* Images: one per page, scaled to fit inside the margins with the aspect kept. PNG
 * through cairo; JPEG embedded as JPEG (cairo's MIME data: the PDF holds the file's own
 * DCT stream, not a re-encoding); other formats through gdk-pixbuf. The first pass proves
 * each image whole; only the second builds what is drawn. */
#include "io.h"
#include "printtopdf.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cairo image surface from a pixbuf's pixels (RGB or RGBA, to premultiplied ARGB). */
static cairo_surface_t *surface_from_pixbuf(GdkPixbuf *pixbuf) {
    int width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf);
    int channels = gdk_pixbuf_get_n_channels(pixbuf), stride = gdk_pixbuf_get_rowstride(pixbuf);
    const guchar *pixels = gdk_pixbuf_read_pixels(pixbuf);
    cairo_surface_t *surface = cairo_image_surface_create(channels == 4 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) return surface;
    cairo_surface_flush(surface);
    unsigned char *target = cairo_image_surface_get_data(surface);
    int target_stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < height; y++) {
        const guchar *from = pixels + (size_t)y * (size_t)stride;
        uint32_t *to = (uint32_t *)(target + (size_t)y * (size_t)target_stride);
        for (int x = 0; x < width; x++, from += channels) {
            unsigned alpha = channels == 4 ? from[3] : 255;
            unsigned r = from[0] * alpha / 255, g = from[1] * alpha / 255, b = from[2] * alpha / 255;
            to[x] = alpha << 24 | r << 16 | g << 8 | b;
        }
    }
    cairo_surface_mark_dirty(surface);
    return surface;
}

int image_type_readable(const char *type) {
    if (strcmp(type, "image/png") == 0) return 1; /* cairo reads PNG itself */
    GSList *formats = gdk_pixbuf_get_formats();
    int found = 0;
    for (GSList *f = formats; f && !found; f = f->next) {
        if (gdk_pixbuf_format_is_disabled(f->data)) continue;
        gchar **types = gdk_pixbuf_format_get_mime_types(f->data);
        for (gchar **t = types; t && *t && !found; t++) found = g_ascii_strcasecmp(*t, type) == 0;
        g_strfreev(types);
    }
    g_slist_free(formats);
    return found;
}

void image_formats(char *list, size_t size) {
    GSList *formats = gdk_pixbuf_get_formats();
    size_t used = 0;
    list[0] = '\0';
    for (GSList *f = formats; f; f = f->next) {
        if (gdk_pixbuf_format_is_disabled(f->data)) continue;
        gchar *name = gdk_pixbuf_format_get_name(f->data);
        int written = snprintf(list + used, size - used, "%s%s", used ? ", " : "", name);
        g_free(name);
        if (written < 0 || (size_t)written >= size - used) break;
        used += (size_t)written;
    }
    g_slist_free(formats);
}

/* Proves the image whole (the first pass): 0, or -1 with `error` set. Nothing is kept. */
static int check_image(const char *path, const char *type, char *error, size_t error_size) {
    int width = 0, height = 0;
    if (strcmp(type, "image/png") == 0) {
        cairo_surface_t *image = cairo_image_surface_create_from_png(path);
        cairo_status_t status = cairo_surface_status(image);
        if (status == CAIRO_STATUS_SUCCESS) {
            width = cairo_image_surface_get_width(image);
            height = cairo_image_surface_get_height(image);
        }
        cairo_surface_destroy(image);
        if (status != CAIRO_STATUS_SUCCESS) {
            snprintf(error, error_size, "is not a readable PNG image (%s)", cairo_status_to_string(status));
            return -1;
        }
    } else {
        /* gdk-pixbuf decodes it, which also proves a JPEG whole before it is embedded. */
        GError *failure = NULL;
        GdkPixbuf *pixbuf = gdk_pixbuf_new_from_file(path, &failure);
        if (!pixbuf) {
            snprintf(error, error_size, "is not a readable image (%s)", failure ? failure->message : "unknown format");
            if (failure) g_error_free(failure);
            return -1;
        }
        width = gdk_pixbuf_get_width(pixbuf);
        height = gdk_pixbuf_get_height(pixbuf);
        g_object_unref(pixbuf);
    }
    if (width <= 0 || height <= 0) {
        snprintf(error, error_size, "is an empty image");
        return -1;
    }
    return 0;
}

/* The image as a cairo surface for drawing (the second pass, once it is proven whole). */
static cairo_surface_t *load_image(const char *path, const char *type) {
    if (strcmp(type, "image/png") == 0) return cairo_image_surface_create_from_png(path);
    if (strcmp(type, "image/jpeg") == 0) {
        /* The pixels are never drawn: the PDF takes the JPEG bytes themselves, so only
         * the header is read for the size. */
        int width = 0, height = 0;
        buffer *jpeg = calloc(1, sizeof *jpeg);
        if (!jpeg || !gdk_pixbuf_get_file_info(path, &width, &height) || read_file(path, jpeg, PRINT_IMAGE_LIMIT) != 0) {
            if (jpeg) buffer_free_all(jpeg);
            return cairo_image_surface_create(CAIRO_FORMAT_INVALID, 0, 0);
        }
        cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
        cairo_surface_set_mime_data(image, CAIRO_MIME_TYPE_JPEG, (unsigned char *)jpeg->bytes, jpeg->length,
                                    (cairo_destroy_func_t)buffer_free_all, jpeg);
        return image;
    }
    GdkPixbuf *pixbuf = gdk_pixbuf_new_from_file(path, NULL);
    if (!pixbuf) return cairo_image_surface_create(CAIRO_FORMAT_INVALID, 0, 0);
    cairo_surface_t *image = surface_from_pixbuf(pixbuf);
    g_object_unref(pixbuf);
    return image;
}

int render_image(document *d, const char *name, const char *path, const char *type, char *error, size_t error_size) {
    if (!d->drawing) {
        /* The first pass: one page, if the image is whole. */
        if (check_image(path, type, error, error_size) != 0) return -1;
        document_begin_page(d, d->paper.width, d->paper.height, 1);
        document_end_page(d);
        return 0;
    }
    cairo_surface_t *image = load_image(path, type);
    if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
        /* Changed since the first pass. */
        snprintf(error, error_size, "could not be read again (%s)", cairo_status_to_string(cairo_surface_status(image)));
        cairo_surface_destroy(image);
        return -1;
    }
    int width = cairo_image_surface_get_width(image), height = cairo_image_surface_get_height(image);
    d->item_name = name;
    document_bookmark(d, name);
    document_begin_page(d, d->paper.width, d->paper.height, 1);
    double box_width = d->paper.width - 2 * d->margin, box_height = d->paper.height - 2 * d->margin;
    double scale = box_width / width < box_height / height ? box_width / width : box_height / height;
    if (scale > 1) scale = 1; /* never blown up past its own size in points */
    cairo_save(d->cr);
    cairo_translate(d->cr, d->margin + (box_width - width * scale) / 2, d->margin + (box_height - height * scale) / 2);
    cairo_scale(d->cr, scale, scale);
    cairo_set_source_surface(d->cr, image, 0, 0);
    cairo_paint(d->cr);
    cairo_restore(d->cr);
    document_end_page(d);
    cairo_surface_destroy(image);
    return 0;
}
