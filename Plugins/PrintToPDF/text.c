/* Text: decoded to UTF-8, laid out with pango (wrapping, tabs, bidi, fontconfig fallback
 * for CJK and emoji) one paragraph at a time and cut into pages line by line. A file is
 * read a megabyte at a time, in both passes: memory grows neither with the page count
 * nor with the file. */
#include "printtopdf.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether the text holds Han characters (for the Chinese language attribute). */
static int has_han(const char *text, size_t length) {
    const char *end = text + length;
    for (const char *p = text; p < end; p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF)) return 1;
    }
    return 0;
}

/* One text item being laid out: pango's context and layout, and where the next line goes. */
typedef struct text_layout {
    document *d;
    PangoContext *context;
    PangoLayout *layout;
    double top, bottom, y;
    int language_set;
} text_layout;

static void layout_begin(text_layout *t, document *d, const char *name, int monospace) {
    memset(t, 0, sizeof *t);
    t->d = d;
    t->context = pango_font_map_create_context(pango_cairo_font_map_get_default());
    /* Without a device, pango measures in points at 72 dpi, as the PDF surface does. */
    pango_cairo_context_set_resolution(t->context, 72);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(t->context, options);
    cairo_font_options_destroy(options);
    t->layout = pango_layout_new(t->context);
    PangoFontDescription *font = pango_font_description_from_string(
        monospace ? "DejaVu Sans Mono, Noto Sans Mono CJK SC 9" : "DejaVu Sans, Noto Sans CJK SC 10.5");
    pango_layout_set_font_description(t->layout, font);
    pango_font_description_free(font);
    double width = d->paper.width - 2 * d->margin;
    pango_layout_set_width(t->layout, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(t->layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_auto_dir(t->layout, TRUE);
    if (!monospace) pango_layout_set_spacing(t->layout, (int)(2 * PANGO_SCALE));
    /* A word or URL broken across lines keeps its characters: pango would add a hyphen,
     * and a printed URL would be wrong. */
    PangoAttrList *attributes = pango_attr_list_new();
    pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(FALSE));
    pango_layout_set_attributes(t->layout, attributes);
    pango_attr_list_unref(attributes);
    t->top = d->margin;
    t->bottom = d->paper.height - d->margin;
    t->y = t->top;
    d->item_name = name;
    document_bookmark(d, name);
    document_begin_page(d, d->paper.width, d->paper.height, 1);
}

/* Han text reads as Simplified Chinese unless the locale says otherwise: judged on the
 * first text seen (up to 64 KiB), before any of it is laid out. */
static void layout_language(text_layout *t, const char *text, size_t length) {
    if (t->language_set) return;
    t->language_set = 1;
    if (has_han(text, length > 65536 ? 65536 : length)) {
        pango_context_set_language(t->context, pango_language_from_string("zh-cn"));
        pango_layout_context_changed(t->layout);
    }
}

/* Lays out one paragraph (no newline in it), cutting pages line by line. */
static void layout_paragraph(text_layout *t, const char *paragraph, size_t size) {
    document *d = t->d;
    if (d->failed) return;
    if (size && paragraph[size - 1] == '\r') size--;
    pango_layout_set_text(t->layout, paragraph, (int)size);
    PangoLayoutIter *lines = pango_layout_get_iter(t->layout);
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(lines, NULL, &logical);
        double height = (double)logical.height / PANGO_SCALE;
        if (t->y + height > t->bottom && t->y > t->top) {
            document_end_page(d);
            if (d->failed) break;
            document_begin_page(d, d->paper.width, d->paper.height, 1);
            t->y = t->top;
        }
        if (d->drawing) {
            double baseline = (double)pango_layout_iter_get_baseline(lines) / PANGO_SCALE - (double)logical.y / PANGO_SCALE;
            cairo_move_to(d->cr, d->margin + (double)logical.x / PANGO_SCALE, t->y + baseline);
            pango_cairo_show_layout_line(d->cr, pango_layout_iter_get_line_readonly(lines));
        }
        t->y += height;
    } while (pango_layout_iter_next_line(lines));
    pango_layout_iter_free(lines);
}

/* A form feed: the text after it starts a new page (as with enscript and paps). */
static void layout_page_break(text_layout *t) {
    document *d = t->d;
    if (d->failed) return;
    document_end_page(d);
    if (d->failed) return;
    document_begin_page(d, d->paper.width, d->paper.height, 1);
    t->y = t->top;
}

static void layout_end(text_layout *t) {
    if (!t->d->failed) document_end_page(t->d);
    g_object_unref(t->layout);
    g_object_unref(t->context);
}

/* Lays out every complete paragraph at the start of `pending` and removes it; with
 * `final`, the rest too. A paragraph longer than TEXT_PARAGRAPH_LIMIT without a newline
 * is laid out in pieces of that size, cut between characters. */
#define TEXT_PARAGRAPH_LIMIT (1u << 20)
/* How much of a file is read at a time. */
#define TEXT_CHUNK (1u << 20)
static void layout_pending(text_layout *t, buffer *pending, int final) {
    size_t done = 0;
    while (done < pending->length && !t->d->failed) {
        const char *start = pending->bytes + done;
        size_t left = pending->length - done;
        const char *newline = memchr(start, '\n', left);
        const char *feed = memchr(start, '\f', newline ? (size_t)(newline - start) : left);
        size_t size;
        if (feed) {
            /* Text before a form feed is a line of its own; the rest goes on a new page. */
            size = (size_t)(feed - start);
            if (size) layout_paragraph(t, start, size);
            layout_page_break(t);
            done += size + 1;
            /* A form feed on a line of its own leaves no empty line behind it. */
            if (size == 0 && done < pending->length && pending->bytes[done] == '\n') done++;
        } else if (newline) {
            size = (size_t)(newline - start);
            layout_paragraph(t, start, size);
            done += size + 1;
        } else if (left > TEXT_PARAGRAPH_LIMIT) {
            size = TEXT_PARAGRAPH_LIMIT;
            while (size > 0 && ((unsigned char)start[size] & 0xC0) == 0x80) size--;
            layout_paragraph(t, start, size);
            done += size;
        } else {
            if (final) { /* no empty line after a final newline */
                layout_paragraph(t, start, left);
                done += left;
            }
            break;
        }
    }
    memmove(pending->bytes, pending->bytes + done, pending->length - done);
    pending->length -= done;
}

int render_text(document *d, const char *name, const char *text, size_t length, int monospace, char *error, size_t error_size) {
    (void)error;
    (void)error_size;
    text_layout t;
    layout_begin(&t, d, name, monospace);
    layout_language(&t, text, length);
    buffer pending = {0};
    buffer_append(&pending, text, length);
    layout_pending(&t, &pending, 1);
    buffer_free(&pending);
    layout_end(&t);
    return 0;
}

int text_file_encoding(const char *path, size_t limit, const char **encoding, size_t *skip, char *error, size_t error_size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || (size_t)info.st_size > limit) {
        int code = fd < 0 ? errno : !S_ISREG(info.st_mode) ? ESPIPE : (size_t)info.st_size > limit ? EFBIG : errno;
        if (fd >= 0) close(fd);
        errno = code;
        return -1;
    }
    unsigned char *chunk = malloc(TEXT_CHUNK);
    if (!chunk) {
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    unsigned char carry[4];
    size_t carried = 0, total = 0;
    int utf8 = 1, c1 = 0, first = 1;
    *encoding = "UTF-8";
    *skip = 0;
    for (;;) {
        memcpy(chunk, carry, carried);
        ssize_t count = read(fd, chunk + carried, TEXT_CHUNK - carried);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            int code = errno;
            close(fd);
            free(chunk);
            errno = code;
            return -1;
        }
        size_t length = carried + (size_t)count;
        total += (size_t)count;
        if (total > limit) {
            close(fd);
            free(chunk);
            errno = EFBIG;
            return -1;
        }
        size_t from = 0;
        if (first) {
            first = 0;
            if (length >= 3 && chunk[0] == 0xEF && chunk[1] == 0xBB && chunk[2] == 0xBF) {
                *skip = from = 3;
            } else if (length >= 2 && ((chunk[0] == 0xFF && chunk[1] == 0xFE) || (chunk[0] == 0xFE && chunk[1] == 0xFF))) {
                *encoding = chunk[0] == 0xFF ? "UTF-16LE" : "UTF-16BE";
                *skip = 2;
                close(fd);
                free(chunk);
                return 0; /* checked as it is converted */
            }
        }
        if (memchr(chunk + from, '\0', length - from)) {
            close(fd);
            free(chunk);
            snprintf(error, error_size, "is binary, not text (it holds NUL bytes)");
            errno = 0;
            return -2;
        }
        for (size_t i = from; i < length; i++) {
            if (chunk[i] >= 0x80 && chunk[i] <= 0x9F) c1 = 1;
        }
        /* Valid UTF-8 so far? An incomplete sequence at the end is carried over. */
        carried = 0;
        if (utf8) {
            const gchar *end;
            if (!g_utf8_validate((const gchar *)chunk + from, (gssize)(length - from), &end)) {
                size_t rest = length - (size_t)((const unsigned char *)end - chunk);
                if (count > 0 && rest < 4 && g_utf8_get_char_validated(end, (gssize)rest) == (gunichar)-2) {
                    carried = rest;
                    memcpy(carry, end, rest);
                } else {
                    utf8 = 0;
                }
            }
        }
        if (count == 0) break;
    }
    close(fd);
    free(chunk);
    /* Not UTF-8: the common 8-bit encoding of the West, as a guess. Windows-1252 when it
     * uses 0x80-0x9F (printable there, control codes in ISO-8859-1). */
    if (!utf8) *encoding = c1 ? "WINDOWS-1252" : "ISO-8859-1";
    return 0;
}

int render_text_file(document *d, const char *name, const char *path, const char *encoding, size_t skip, int monospace,
                     char *error, size_t error_size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        snprintf(error, error_size, "cannot be read: %s", strerror(errno));
        return -1;
    }
    GIConv converter = strcmp(encoding, "UTF-8") == 0 ? (GIConv)-1 : g_iconv_open("UTF-8", encoding);
    int converting = converter != (GIConv)-1;
    text_layout t;
    layout_begin(&t, d, name, monospace);
    char *chunk = malloc(TEXT_CHUNK), *converted = malloc(3 * TEXT_CHUNK);
    size_t carried = 0;
    buffer pending = {0};
    int result = 0, at_start = 1;
    for (;;) {
        ssize_t count = chunk && converted ? read(fd, chunk + carried, TEXT_CHUNK - carried) : -1;
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            snprintf(error, error_size, "cannot be read: %s", chunk && converted ? strerror(errno) : "out of memory");
            result = -1;
            break;
        }
        size_t length = carried + (size_t)count;
        size_t from = at_start ? (skip < length ? skip : length) : 0;
        at_start = 0;
        carried = 0;
        if (!converting) {
            buffer_append(&pending, chunk + from, length - from);
        } else {
            gchar *in = chunk + from;
            gsize in_left = length - from;
            while (in_left > 0) {
                gchar *out = converted;
                gsize out_left = 3 * TEXT_CHUNK;
                gsize done = g_iconv(converter, &in, &in_left, &out, &out_left);
                buffer_append(&pending, converted, (size_t)(out - converted));
                if (done != (gsize)-1) break;
                if (errno == E2BIG) continue;
                if (errno == EINVAL && count > 0) { /* an incomplete sequence: the next read completes it */
                    memmove(chunk, in, in_left);
                    carried = in_left;
                    break;
                }
                snprintf(error, error_size, "is not text in UTF-8 or %s", encoding);
                result = -1;
                break;
            }
            if (result != 0) break;
        }
        if (pending.length) layout_language(&t, pending.bytes, pending.length);
        layout_pending(&t, &pending, count == 0);
        if (count == 0 || d->failed) break;
    }
    close(fd);
    free(chunk);
    free(converted);
    if (converting) g_iconv_close(converter);
    buffer_free(&pending);
    layout_end(&t);
    return result;
}
