/* The targets a desktop expects for each kind of item (see docs/CLIPBOARD.md). */
#include "targets.h"

#include <stdlib.h>
#include <string.h>

static buffer *add(targets *t, const char *name) {
    target *added = &t->list[t->count++];
    added->name = name;
    added->is_file = 0;
    memset(&added->data, 0, sizeof added->data);
    return &added->data;
}

/* UTF-8 to ISO-8859-1 for the STRING target; what Latin-1 lacks becomes '?'. */
static void append_latin1(buffer *out, const char *text) {
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned char c = *s;
        if (c < 0x80) {
            buffer_append(out, s, 1);
            s++;
        } else if ((c & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
            unsigned code = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu);
            unsigned char byte = code < 0x100 ? (unsigned char)code : '?';
            buffer_append(out, &byte, 1);
            s += 2;
        } else {
            buffer_append(out, "?", 1);
            s++;
            while ((*s & 0xC0) == 0x80) s++;
        }
    }
}

/* UTF-8 to UTF-16LE, for text/x-moz-url. */
static void append_utf16(buffer *out, const char *text) {
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned code;
        if (*s < 0x80) { code = *s++; }
        else if ((*s & 0xE0) == 0xC0) { code = ((*s & 0x1Fu) << 6) | (s[1] & 0x3Fu); s += 2; }
        else if ((*s & 0xF0) == 0xE0) { code = ((*s & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu); s += 3; }
        else { code = ((*s & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu); s += 4; }
        unsigned units[2] = {code, 0};
        int count = 1;
        if (code >= 0x10000) {
            units[0] = 0xD800 + ((code - 0x10000) >> 10);
            units[1] = 0xDC00 + ((code - 0x10000) & 0x3FF);
            count = 2;
        }
        for (int i = 0; i < count; i++) {
            unsigned char unit[2] = {(unsigned char)(units[i] & 0xFF), (unsigned char)(units[i] >> 8)};
            buffer_append(out, unit, 2);
        }
    }
}

void targets_build(const actshare_request *request, targets *t) {
    buffer uris = {0}, copied = {0}, moz = {0};
    size_t files = 0, urls = 0;
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        const char *as_text = item->kind == ACTSHARE_ITEM_FILE ? item->path : item->kind == ACTSHARE_ITEM_URL ? item->uri : item->text;
        if (as_text) {
            if (t->text.length) buffer_append_string(&t->text, "\n");
            buffer_append_string(&t->text, as_text);
        }
        if (item->kind == ACTSHARE_ITEM_FILE || item->kind == ACTSHARE_ITEM_URL) {
            buffer_append_string(&uris, item->uri);
            buffer_append_string(&uris, "\r\n");
        }
        if (item->kind == ACTSHARE_ITEM_FILE) {
            buffer_append_string(&copied, "\n");
            buffer_append_string(&copied, item->uri);
            files++;
            if (request->item_count == 1 && strncmp(item->content_type, "image/", 6) == 0) t->image_type = item->content_type;
        }
        if (item->kind == ACTSHARE_ITEM_URL) {
            if (moz.length) append_utf16(&moz, "\n");
            append_utf16(&moz, item->uri);
            append_utf16(&moz, "\n");
            append_utf16(&moz, item->uri);
            urls++;
        }
        if (item->kind == ACTSHARE_ITEM_DATA && request->item_count == 1) {
            buffer_append(add(t, item->content_type), item->data, item->data_length);
        }
    }
    if (uris.length) buffer_append(add(t, "text/uri-list"), uris.bytes, uris.length);
    if (files) {
        /* Nautilus and Caja: "copy", then one URI per line, no final newline. */
        buffer *gnome = add(t, "x-special/gnome-copied-files");
        buffer_append_string(gnome, "copy");
        buffer_append(gnome, copied.bytes, copied.length);
        buffer *mate = add(t, "x-special/mate-copied-files");
        buffer_append(mate, gnome->bytes, gnome->length);
        buffer_append_string(add(t, "application/x-kde-cutselection"), "0");
    }
    if (urls) buffer_append(add(t, "text/x-moz-url"), moz.bytes, moz.length);
    if (t->image_type) {
        /* Offered as it is: PNG is what every application pastes, other formats are not converted. */
        buffer_append_string(add(t, t->image_type), request->items[0].path);
        t->list[t->count - 1].is_file = 1;
    }
    /* HTML, alone: also as text/html, which rich editors paste as formatted text (from
     * the text itself, or read from the file by whoever serves it, as an image is). */
    if (request->item_count == 1 && strcmp(request->items[0].content_type, "text/html") == 0) {
        const actshare_item *html = &request->items[0];
        if (html->kind == ACTSHARE_ITEM_TEXT && html->text) {
            buffer_append_string(add(t, "text/html"), html->text);
        } else if (html->kind == ACTSHARE_ITEM_FILE) {
            buffer_append_string(add(t, "text/html"), html->path);
            t->list[t->count - 1].is_file = 1;
        }
    }
    if (t->text.length) {
        buffer_append(add(t, "UTF8_STRING"), t->text.bytes, t->text.length);
        buffer_append(add(t, "text/plain;charset=utf-8"), t->text.bytes, t->text.length);
        buffer_append(add(t, "text/plain"), t->text.bytes, t->text.length);
        append_latin1(add(t, "STRING"), t->text.bytes);
    }
    free(uris.bytes);
    free(copied.bytes);
    free(moz.bytes);
}

void targets_free(targets *t) {
    for (size_t i = 0; i < t->count; i++) free(t->list[i].data.bytes);
    free(t->text.bytes);
}
