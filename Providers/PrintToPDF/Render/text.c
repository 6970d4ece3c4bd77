/* Text: decoded to UTF-8, laid out with pango (wrapping, tabs, bidi, fontconfig fallback
 * for CJK and emoji) one paragraph at a time and cut into pages line by line. A file is
 * read a megabyte at a time, in both passes: memory grows neither with the page count
 * nor with the file.
 *
 * Laying out is most of the time a text takes, and paragraphs are laid out independently:
 * a round of them is shared among one thread per processor (up to PRINT_TEXT_THREADS),
 * each with pango objects of its own (a font map, a context, layouts: no pango object is
 * used by two threads at once), and the calling thread then puts their lines on pages in
 * order. In the second pass it draws one round while the threads lay out the next, on a
 * second set of font maps. */
#include "printtopdf.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A round's paragraphs: enough to keep the threads busy, few enough that the layouts
 * kept for drawing stay small (a few pages). */
#define TEXT_ROUND_MEASURED 4096
#define TEXT_ROUND_DRAWN 512
/* A round that is not full and has fewer bytes is laid out by the calling thread alone:
 * a short text is not worth a thread, nor the fonts a thread's font map loads. */
#define TEXT_ROUND_SHARED (16u << 10)
/* Slots: the calling thread's, then PRINT_TEXT_THREADS for each of the two rounds that
 * can be under way at once. */
#define TEXT_SLOTS (1 + 2 * PRINT_TEXT_THREADS)

/* Whether the text holds Han characters (for the Chinese language attribute). */
static int has_han(const char *text, size_t length) {
    const char *end = text + length;
    for (const char *p = text; p < end; p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF)) return 1;
    }
    return 0;
}

/* A piece of text to lay out: a paragraph (no newline in it), a page break, or both. */
typedef struct text_unit {
    const char *start;
    size_t size;
    int paragraph, page_break;
} text_unit;

/* One thread's pango objects and its share of a round: for each paragraph, a laid-out
 * layout (second pass; reused round after round) or the heights of its lines (first
 * pass: `lines[i]` heights for the i-th). */
typedef struct text_slot {
    PangoContext *context, *rtl_context; /* the second rounds positions (right to left) */
    PangoLayout *layout, *rtl_layout;
    int drawing;
    const text_unit *units;
    size_t count;
    PangoLayout **layouts;
    size_t layout_count;
    size_t *lines;
    double *heights;
    size_t height_count, height_capacity;
    int failed;
    /* For measuring a short line of printable ASCII without laying it out (see
     * `one_line_height`): each character's advance, the height of one line, both in
     * this slot's context; `measured` once they are known. */
    int advances[0x7F - 0x20];
    double line_height;
    int measured;
} text_slot;

/* A round of units and the slots laying it out. */
typedef struct text_round {
    text_unit *units;
    size_t count;
    int first_slot, used;
    GThread *threads[PRINT_TEXT_THREADS];
} text_round;

/* One text item being laid out: where the next line goes, its slots (made when first
 * needed) and, in the second pass, the round being laid out while another is drawn. */
typedef struct text_layout {
    document *d;
    double top, bottom, y;
    int language_set, monospace;
    text_slot slots[TEXT_SLOTS];
    text_round rounds[2];
    int under_way; /* 1 + the index of the round being laid out by the threads, or 0 */
} text_layout;

/* Gives a context the settings every text layout uses: 72 dpi, unhinted metrics and
 * positions as the font gives them (`rounded`: to whole points). */
static void configure_context(PangoContext *context, int rounded) {
    /* Without a device, pango measures in points at 72 dpi, as the PDF surface does. */
    pango_cairo_context_set_resolution(context, 72);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    /* Rounded to whole points (pango's default), nearly every glyph needs its own
     * correction in the PDF, which doubles its size. Right-to-left text is rounded all
     * the same: cairo writes its glyphs from right to left, and unrounded gaps between
     * them make PDF readers (pdftotext, copy and paste) cut words with spaces. */
    pango_context_set_round_glyph_positions(context, rounded);
}

/* A layout for the text of a page `width` points wide. */
static PangoLayout *text_layout_new(PangoContext *context, double width, int monospace) {
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *font = pango_font_description_from_string(
        monospace ? "DejaVu Sans Mono 9" : "DejaVu Sans 10.5");
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_auto_dir(layout, TRUE);
    if (!monospace) pango_layout_set_spacing(layout, (int)(2 * PANGO_SCALE));
    /* A word or URL broken across lines keeps its characters: pango would add a hyphen,
     * and a printed URL would be wrong. */
    PangoAttrList *attributes = pango_attr_list_new();
    pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(FALSE));
    pango_layout_set_attributes(layout, attributes);
    pango_attr_list_unref(attributes);
    return layout;
}

/* The processors this process may run on, at most PRINT_TEXT_THREADS. */
static int processors(void) {
    cpu_set_t set;
    int count = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return count < 1 ? 1 : count > PRINT_TEXT_THREADS ? PRINT_TEXT_THREADS : count;
}

/* Slot `k`, its context and layout made when first used: the calling thread's (0) from
 * the default font map, the others each from a font map of the document's. */
static text_slot *slot(text_layout *t, int k) {
    text_slot *slot = &t->slots[k];
    if (slot->context) return slot;
    document *d = t->d;
    PangoFontMap *font_map = pango_cairo_font_map_get_default();
    if (k > 0) {
        if (!d->font_maps[k - 1]) d->font_maps[k - 1] = pango_cairo_font_map_new();
        font_map = d->font_maps[k - 1];
    }
    slot->context = pango_font_map_create_context(font_map);
    slot->rtl_context = pango_font_map_create_context(font_map);
    configure_context(slot->context, FALSE);
    configure_context(slot->rtl_context, TRUE);
    if (k > 0) {
        PangoLanguage *language = pango_context_get_language(t->slots[0].context);
        pango_context_set_language(slot->context, language);
        pango_context_set_language(slot->rtl_context, language);
    }
    slot->layout = text_layout_new(slot->context, d->paper.width - 2 * d->margin, t->monospace);
    slot->rtl_layout = text_layout_new(slot->rtl_context, d->paper.width - 2 * d->margin, t->monospace);
    return slot;
}

static void layout_begin(text_layout *t, document *d, const char *name, int monospace) {
    memset(t, 0, sizeof *t);
    t->d = d;
    t->monospace = monospace;
    slot(t, 0);
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
        PangoLanguage *chinese = pango_language_from_string("zh-cn");
        pango_context_set_language(t->slots[0].context, chinese);
        pango_context_set_language(t->slots[0].rtl_context, chinese);
        pango_layout_context_changed(t->slots[0].layout);
        pango_layout_context_changed(t->slots[0].rtl_layout);
    }
}

/* Puts a line `height` tall below the last, on a new page when it does not fit there;
 * returns its top. Both passes place every line through here. */
static double place_line(text_layout *t, double height) {
    document *d = t->d;
    if (t->y + height > t->bottom && t->y > t->top) {
        document_end_page(d);
        if (!d->failed) document_begin_page(d, d->paper.width, d->paper.height, 1);
        t->y = t->top;
    }
    double top = t->y;
    t->y += height;
    return top;
}

/* Puts a laid-out paragraph's lines on pages and, in the second pass, draws them. */
static void place_layout(text_layout *t, PangoLayout *layout) {
    document *d = t->d;
    PangoLayoutIter *lines = pango_layout_get_iter(layout);
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(lines, NULL, &logical);
        double top = place_line(t, (double)logical.height / PANGO_SCALE);
        if (d->failed) break;
        if (d->drawing) {
            double baseline = (double)pango_layout_iter_get_baseline(lines) / PANGO_SCALE - (double)logical.y / PANGO_SCALE;
            cairo_move_to(d->cr, d->margin + (double)logical.x / PANGO_SCALE, top + baseline);
            pango_cairo_show_layout_line(d->cr, pango_layout_iter_get_line_readonly(lines));
        }
    } while (pango_layout_iter_next_line(lines));
    pango_layout_iter_free(lines);
}

/* The length of a paragraph without the \r of a CRLF line end. */
static int paragraph_length(const text_unit *unit) {
    size_t size = unit->size;
    if (size && unit->start[size - 1] == '\r') size--;
    return (int)size;
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

/* Whether a paragraph holds right-to-left letters (Hebrew, Arabic, Syriac, Thaana, NKo,
 * Samaritan, Mandaic and their presentation forms and supplements). */
static int right_to_left(const text_unit *unit) {
    const unsigned char *p = (const unsigned char *)unit->start, *end = p + unit->size;
    for (; p < end; p++) {
        if (*p < 0xD6) continue; /* no lead byte of U+0590 or above */
        gunichar c = g_utf8_get_char_validated((const char *)p, end - p);
        if ((c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF) ||
            (c >= 0x10800 && c <= 0x10FFF) || (c >= 0x1E800 && c <= 0x1EFFF)) {
            return 1;
        }
    }
    return 0;
}

/* Room left on a line for kerning, which can widen a pair a little: a line whose advances
 * fill more than this share of the width is laid out. */
#define TEXT_ONE_LINE_SHARE 0.9

/* The height of a paragraph of printable ASCII short enough that it cannot wrap, or 0
 * when it has to be laid out to be measured. Such a line is one line in the layout's
 * own font (which has every ASCII character), so its height is that of any one-line
 * text in it; its width is at most its characters' advances plus kerning. Most lines of
 * a plain text are such lines, and the first pass then skips their shaping, which was
 * half of the time a text takes. */
static double one_line_height(text_slot *slot, const text_unit *unit) {
    int length = paragraph_length(unit);
    if (!slot->measured) {
        slot->measured = 1;
        PangoLayout *probe = pango_layout_copy(slot->layout);
        for (int c = 0x20; c < 0x7F; c++) {
            char text[1] = {(char)c};
            pango_layout_set_text(probe, text, 1);
            PangoRectangle logical;
            pango_layout_get_extents(probe, NULL, &logical);
            slot->advances[c - 0x20] = logical.width;
        }
        pango_layout_set_text(probe, "x", 1);
        PangoRectangle logical;
        pango_layout_get_extents(probe, NULL, &logical);
        slot->line_height = pango_layout_get_line_count(probe) == 1 ? (double)logical.height / PANGO_SCALE : 0;
        g_object_unref(probe);
    }
    if (slot->line_height <= 0 || length == 0) return 0;
    long long width = 0, limit = (long long)(pango_layout_get_width(slot->layout) * TEXT_ONE_LINE_SHARE);
    for (int i = 0; i < length; i++) {
        unsigned char c = (unsigned char)unit->start[i];
        if (c < 0x20 || c >= 0x7F) return 0;
        width += slot->advances[c - 0x20];
        if (width > limit) return 0;
    }
    return slot->line_height;
}

/* The slot's layout for a paragraph: the one that rounds positions for right-to-left. */
static PangoLayout *layout_for(text_slot *slot, const text_unit *unit) {
    return right_to_left(unit) ? slot->rtl_layout : slot->layout;
}

/* Lays out one unit on the calling thread, and places (and draws) it. */
static void layout_unit(text_layout *t, const text_unit *unit) {
    double height = unit->paragraph && !t->d->drawing ? one_line_height(&t->slots[0], unit) : 0;
    if (height > 0 && !t->d->failed) {
        place_line(t, height);
    } else if (unit->paragraph && !t->d->failed) {
        PangoLayout *layout = layout_for(&t->slots[0], unit);
        pango_layout_set_text(layout, unit->start, paragraph_length(unit));
        place_layout(t, layout);
    }
    if (unit->page_break) layout_page_break(t);
}

/* Makes room for one more line height in a slot; 0, or -1 out of memory. */
static int grow_heights(text_slot *slot) {
    if (slot->height_count < slot->height_capacity) return 0;
    size_t capacity = slot->height_capacity ? 2 * slot->height_capacity : 4096;
    double *grown = realloc(slot->heights, capacity * sizeof *grown);
    if (!grown) return -1;
    slot->heights = grown;
    slot->height_capacity = capacity;
    return 0;
}

/* Lays out a slot's paragraphs: keeps each layout (second pass) or the height of each
 * line (first pass). A thread's body. */
static gpointer lay_out_slot(gpointer data) {
    text_slot *slot = data;
    slot->height_count = 0;
    for (size_t i = 0; i < slot->count && !slot->failed; i++) {
        const text_unit *unit = &slot->units[i];
        slot->lines[i] = 0;
        if (!unit->paragraph) continue;
        PangoLayout *wanted = layout_for(slot, unit);
        if (slot->drawing) {
            if (i == slot->layout_count) {
                slot->layouts[slot->layout_count++] = pango_layout_copy(wanted);
            } else if (pango_layout_get_context(slot->layouts[i]) != pango_layout_get_context(wanted)) {
                g_object_unref(slot->layouts[i]);
                slot->layouts[i] = pango_layout_copy(wanted);
            }
            pango_layout_set_text(slot->layouts[i], unit->start, paragraph_length(unit));
            pango_layout_get_line_count(slot->layouts[i]); /* lays it out, here */
            continue;
        }
        double height = one_line_height(slot, unit);
        if (height > 0) {
            if (grow_heights(slot) != 0) {
                slot->failed = 1;
                break;
            }
            slot->heights[slot->height_count++] = height;
            slot->lines[i] = 1;
            continue;
        }
        pango_layout_set_text(wanted, unit->start, paragraph_length(unit));
        PangoLayoutIter *lines = pango_layout_get_iter(wanted);
        do {
            if (grow_heights(slot) != 0) {
                slot->failed = 1;
                break;
            }
            PangoRectangle logical;
            pango_layout_iter_get_line_extents(lines, NULL, &logical);
            slot->heights[slot->height_count++] = (double)logical.height / PANGO_SCALE;
            slot->lines[i]++;
        } while (pango_layout_iter_next_line(lines));
        pango_layout_iter_free(lines);
    }
    return NULL;
}

/* Starts laying out a round: its units shared among `wanted` slots from `first_slot`,
 * in slices of about equal bytes, each on a thread of its own. */
static void round_start(text_layout *t, text_round *round, int first_slot, int wanted) {
    size_t bytes = 0;
    for (size_t i = 0; i < round->count; i++) bytes += round->units[i].size + 1;
    round->first_slot = first_slot;
    round->used = 0;
    for (size_t first = 0; round->used < wanted && first < round->count; round->used++) {
        text_slot *s = slot(t, first_slot + round->used);
        size_t share = bytes / (size_t)(wanted - round->used), taken = 0, end = first;
        while (end < round->count && (taken < share || round->used == wanted - 1)) taken += round->units[end++].size + 1;
        bytes -= taken;
        s->units = round->units + first;
        s->count = end - first;
        s->drawing = t->d->drawing;
        s->failed = 0;
        size_t *lines = realloc(s->lines, s->count * sizeof *lines);
        if (lines) s->lines = lines;
        if (!lines) s->failed = 1;
        if (s->drawing && s->count > s->layout_count) {
            PangoLayout **layouts = realloc(s->layouts, s->count * sizeof *layouts);
            if (layouts) s->layouts = layouts;
            else s->failed = 1;
        }
        first = end;
    }
    for (int k = 0; k < round->used; k++) {
        text_slot *s = &t->slots[first_slot + k];
        round->threads[k] = s->failed || first_slot == 0 ? NULL : g_thread_try_new("print-to-pdf", lay_out_slot, s, NULL);
    }
}

/* Waits for a round's threads, then places (and draws) its units in order. */
static void round_finish(text_layout *t, text_round *round) {
    for (int k = 0; k < round->used; k++) {
        text_slot *s = &t->slots[round->first_slot + k];
        if (round->threads[k]) g_thread_join(round->threads[k]);
        else if (!s->failed) lay_out_slot(s); /* no thread to be had: here */
        round->threads[k] = NULL;
    }
    for (int k = 0; k < round->used; k++) {
        text_slot *s = &t->slots[round->first_slot + k];
        size_t next = 0;
        for (size_t i = 0; i < s->count; i++) {
            const text_unit *unit = &s->units[i];
            if (unit->paragraph && s->failed) {
                layout_unit(t, unit); /* out of memory: one at a time, here */
                continue;
            }
            if (unit->paragraph && s->drawing && !t->d->failed) place_layout(t, s->layouts[i]);
            if (unit->paragraph && !s->drawing) {
                for (size_t line = 0; line < s->lines[i]; line++) place_line(t, s->heights[next++]);
            }
            if (unit->page_break) layout_page_break(t);
        }
    }
    round->count = 0;
}

/* Places the round the threads are laying out, if any. */
static void finish_under_way(text_layout *t) {
    if (!t->under_way) return;
    round_finish(t, &t->rounds[t->under_way - 1]);
    t->under_way = 0;
}

/* Lays out a round of `full` units or fewer. Short ones: here and now. First pass: on
 * the threads, then placed. Second pass: the threads start on it, and the round before
 * is drawn meanwhile. */
static void lay_out_round(text_layout *t, text_round *round, size_t full) {
    size_t bytes = 0;
    for (size_t i = 0; i < round->count; i++) bytes += round->units[i].size + 1;
    int threads = processors();
    if ((bytes < TEXT_ROUND_SHARED && round->count < full) || threads == 1) {
        finish_under_way(t);
        for (size_t i = 0; i < round->count; i++) layout_unit(t, &round->units[i]);
        round->count = 0;
        return;
    }
    int index = (int)(round - t->rounds);
    round_start(t, round, 1 + index * PRINT_TEXT_THREADS, threads);
    if (!t->d->drawing) {
        round_finish(t, round);
        return;
    }
    finish_under_way(t);
    t->under_way = 1 + index;
}

static void layout_end(text_layout *t) {
    finish_under_way(t);
    if (!t->d->failed) document_end_page(t->d);
    for (int k = 0; k < TEXT_SLOTS; k++) {
        text_slot *s = &t->slots[k];
        if (!s->context) continue;
        for (size_t i = 0; i < s->layout_count; i++) g_object_unref(s->layouts[i]);
        free(s->layouts);
        g_object_unref(s->layout);
        g_object_unref(s->rtl_layout);
        g_object_unref(s->context);
        g_object_unref(s->rtl_context);
        free(s->lines);
        free(s->heights);
    }
    free(t->rounds[0].units);
    free(t->rounds[1].units);
}

/* The next unit at the start of `text`, and the bytes it takes (0: none yet, without
 * `final`). A paragraph longer than TEXT_PARAGRAPH_LIMIT without a newline is laid out
 * in pieces of that size, cut between characters. */
#define TEXT_PARAGRAPH_LIMIT (1u << 20)
/* How much of a file is read at a time. */
#define TEXT_CHUNK (1u << 20)
static size_t next_unit(const char *start, size_t left, int final, text_unit *unit) {
    const char *newline = memchr(start, '\n', left);
    const char *feed = memchr(start, '\f', newline ? (size_t)(newline - start) : left);
    unit->start = start;
    unit->paragraph = 1;
    unit->page_break = 0;
    if (feed) {
        /* Text before a form feed is a line of its own; the rest goes on a new page. */
        unit->size = (size_t)(feed - start);
        unit->paragraph = unit->size > 0;
        unit->page_break = 1;
        /* A form feed on a line of its own leaves no empty line behind it. */
        return unit->size + 1 + (unit->size == 0 && left > 1 && start[1] == '\n');
    }
    if (newline) {
        unit->size = (size_t)(newline - start);
        return unit->size + 1;
    }
    if (left > TEXT_PARAGRAPH_LIMIT) {
        size_t size = TEXT_PARAGRAPH_LIMIT;
        while (size > 0 && ((unsigned char)start[size] & 0xC0) == 0x80) size--;
        unit->size = size;
        return size;
    }
    unit->size = left;
    return final && left ? left : 0; /* no empty line after a final newline */
}

/* Lays out every complete unit at the start of `pending` and removes it; with `final`,
 * the rest too, a round at a time. The text stays where it is until all of it is
 * placed: the threads read it. */
static void layout_pending(text_layout *t, buffer *pending, int final) {
    size_t round_size = t->d->drawing ? TEXT_ROUND_DRAWN : TEXT_ROUND_MEASURED;
    for (int r = 0; r < 2; r++) {
        if (!t->rounds[r].units) t->rounds[r].units = malloc(round_size * sizeof *t->rounds[r].units);
    }
    int r = t->under_way == 1 ? 1 : 0; /* the round not under way */
    size_t done = 0;
    while (!t->d->failed) {
        text_round *round = &t->rounds[r];
        text_unit unit;
        size_t taken = done < pending->length ? next_unit(pending->bytes + done, pending->length - done, final, &unit) : 0;
        done += taken;
        if (taken && !round->units) { /* out of memory: one at a time */
            finish_under_way(t);
            layout_unit(t, &unit);
            continue;
        }
        if (taken) round->units[round->count++] = unit;
        if (taken && round->count < round_size) continue;
        if (round->count) {
            lay_out_round(t, round, round_size);
            r = t->under_way == 1 ? 1 : 0;
        }
        if (!taken) break;
    }
    finish_under_way(t);
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
