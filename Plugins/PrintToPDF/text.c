/* Text: decoded to UTF-8, laid out with pango (wrapping, tabs, bidi, fontconfig fallback
 * for CJK and emoji) one paragraph at a time and cut into pages line by line, so memory
 * does not grow with the page count. */
#include "printtopdf.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

int text_to_utf8(const char *bytes, size_t length, buffer *out, const char **encoding, char *error, size_t error_size) {
    const unsigned char *s = (const unsigned char *)bytes;
    const char *from = NULL;
    size_t skip = 0;
    if (length >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        skip = 3;
    } else if (length >= 2 && s[0] == 0xFF && s[1] == 0xFE) {
        from = "UTF-16LE";
        skip = 2;
    } else if (length >= 2 && s[0] == 0xFE && s[1] == 0xFF) {
        from = "UTF-16BE";
        skip = 2;
    }
    if (!from) {
        if (memchr(bytes + skip, '\0', length - skip)) {
            snprintf(error, error_size, "is binary, not text (it holds NUL bytes)");
            return -1;
        }
        if (g_utf8_validate(bytes + skip, (gssize)(length - skip), NULL)) {
            buffer_append(out, bytes + skip, length - skip);
            *encoding = "UTF-8";
            return 0;
        }
        /* Not UTF-8: the common 8-bit encoding of the West, as a guess. Windows-1252
         * when it uses 0x80-0x9F (printable there, control codes in ISO-8859-1). */
        from = "ISO-8859-1";
        for (size_t i = skip; i < length; i++) {
            if (s[i] >= 0x80 && s[i] <= 0x9F) from = "WINDOWS-1252";
        }
    }
    gsize written = 0;
    GError *failure = NULL;
    gchar *converted = g_convert(bytes + skip, (gssize)(length - skip), "UTF-8", from, NULL, &written, &failure);
    if (!converted) {
        snprintf(error, error_size, "is not text in UTF-8 or %s (%s)", from, failure ? failure->message : "cannot convert");
        if (failure) g_error_free(failure);
        return -1;
    }
    buffer_append(out, converted, written);
    g_free(converted);
    *encoding = from;
    return 0;
}

/* Whether the text holds Han characters (for the Chinese language attribute). */
static int has_han(const char *text, size_t length) {
    const char *end = text + length;
    for (const char *p = text; p < end; p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF)) return 1;
    }
    return 0;
}

int render_text(document *d, const char *name, const char *text, size_t length, int monospace, char *error, size_t error_size) {
    (void)error;
    (void)error_size;
    PangoContext *context = pango_font_map_create_context(pango_cairo_font_map_get_default());
    /* Without a device, pango measures in points at 72 dpi, as the PDF surface does. */
    pango_cairo_context_set_resolution(context, 72);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    /* Han text reads as Simplified Chinese unless the locale says otherwise. */
    if (has_han(text, length > 65536 ? 65536 : length)) pango_context_set_language(context, pango_language_from_string("zh-cn"));
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *font = pango_font_description_from_string(
        monospace ? "DejaVu Sans Mono, Noto Sans Mono CJK SC 9" : "DejaVu Sans, Noto Sans CJK SC 10.5");
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    double width = d->paper.width - 2 * d->margin;
    pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_auto_dir(layout, TRUE);
    if (!monospace) pango_layout_set_spacing(layout, (int)(2 * PANGO_SCALE));

    double top = d->margin, bottom = d->paper.height - d->margin, y = top;
    d->item_name = name;
    document_bookmark(d, name);
    document_begin_page(d, d->paper.width, d->paper.height, 1);
    const char *end = text + length;
    const char *paragraph = text;
    while (paragraph <= end) {
        const char *newline = memchr(paragraph, '\n', (size_t)(end - paragraph));
        const char *stop = newline ? newline : end;
        if (!newline && paragraph == end) break; /* no empty line after a final newline */
        size_t size = (size_t)(stop - paragraph);
        if (size && stop[-1] == '\r') size--;
        pango_layout_set_text(layout, paragraph, (int)size);
        PangoLayoutIter *lines = pango_layout_get_iter(layout);
        do {
            PangoRectangle logical;
            pango_layout_iter_get_line_extents(lines, NULL, &logical);
            double height = (double)logical.height / PANGO_SCALE;
            if (y + height > bottom && y > top) {
                document_end_page(d);
                if (d->failed) break;
                document_begin_page(d, d->paper.width, d->paper.height, 1);
                y = top;
            }
            if (d->drawing) {
                double baseline = (double)pango_layout_iter_get_baseline(lines) / PANGO_SCALE - (double)logical.y / PANGO_SCALE;
                cairo_move_to(d->cr, d->margin + (double)logical.x / PANGO_SCALE, y + baseline);
                pango_cairo_show_layout_line(d->cr, pango_layout_iter_get_line_readonly(lines));
            }
            y += height;
        } while (pango_layout_iter_next_line(lines));
        pango_layout_iter_free(lines);
        if (!newline || d->failed) break;
        paragraph = newline + 1;
    }
    document_end_page(d);
    g_object_unref(layout);
    g_object_unref(context);
    return 0;
}
