/* The PDF's way into its file: written as cairo makes it, with one repair. Cairo 1.16
 * names an image in a page's /XObject dictionary once for every time it is painted there
 * (a colour emoji used twice on a page), and a dictionary with a key twice is invalid:
 * `qpdf --check` rejects it and CUPS's pdftopdf drops such pages. Each repeated entry is
 * overwritten with as many spaces, so that every offset cairo wrote into the
 * cross-reference table stays true. */
#include "printtopdf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char dictionary[] = "/XObject <<";
#define DICTIONARY_LENGTH (sizeof dictionary - 1)
/* A dictionary not closed within this many bytes is not one of cairo's: passed on as it is. */
#define DICTIONARY_LIMIT (1u << 20)

static void write_all(sink *s, const char *data, size_t length) {
    while (length > 0 && !s->failed) {
        ssize_t count = write(s->fd, data, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            s->failed = errno ? errno : EIO;
            break;
        }
        data += count;
        length -= (size_t)count;
    }
}

/* Reads `/xN N 0 R` at `p` (before `end`): its length and N, or 0. */
static size_t entry_at(const char *p, const char *end, long *number) {
    const char *start = p;
    if (end - p < 3 || p[0] != '/' || p[1] != 'x') return 0;
    char *after;
    *number = strtol(p + 2, &after, 10);
    if (after == p + 2 || after >= end) return 0;
    p = after;
    while (p < end && *p == ' ') p++;
    long object = strtol(p, &after, 10);
    if (after == p || object != *number) return 0;
    p = after;
    if (end - p < 4 || memcmp(p, " 0 R", 4) != 0) return 0;
    return (size_t)(p + 4 - start);
}

/* Blanks every entry of the dictionary between `p` and `end` that names an image again. */
static void blank_repeats(char *p, char *end) {
    long seen[64];
    size_t seen_count = 0;
    while (p < end) {
        long number;
        size_t length = entry_at(p, end, &number);
        if (!length) {
            p++;
            continue;
        }
        int repeated = 0;
        for (size_t i = 0; i < seen_count && !repeated; i++) repeated = seen[i] == number;
        if (repeated) memset(p, ' ', length);
        else if (seen_count < sizeof seen / sizeof *seen) seen[seen_count++] = number;
        p += length;
    }
}

cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int length) {
    sink *s = closure;
    buffer_append(&s->held, data, length);
    size_t done = 0;
    for (;;) {
        char *held = s->held.bytes, *rest = held + done;
        size_t left = s->held.length - done;
        char *start = memmem(rest, left, dictionary, DICTIONARY_LENGTH);
        if (!start) { /* all but what could begin the word */
            size_t keep = left < DICTIONARY_LENGTH - 1 ? left : DICTIONARY_LENGTH - 1;
            write_all(s, rest, left - keep);
            done += left - keep;
            break;
        }
        write_all(s, rest, (size_t)(start - rest));
        done = (size_t)(start - held);
        char *open = start + DICTIONARY_LENGTH;
        char *close = memmem(open, s->held.length - (size_t)(open - held), ">>", 2);
        if (!close) {
            if (s->held.length - done > DICTIONARY_LIMIT) {
                write_all(s, start, s->held.length - done);
                done = s->held.length;
            }
            break;
        }
        blank_repeats(open, close);
        write_all(s, start, (size_t)(close + 2 - start));
        done = (size_t)(close + 2 - held);
    }
    memmove(s->held.bytes, s->held.bytes + done, s->held.length - done);
    s->held.length -= done;
    /* A failed write is kept in `failed` and told by its caller, never to cairo: cairo 1.16
     * in its error state crashes in cairo_surface_finish on a file system full to its last
     * block (a NULL memcpy). What follows is dropped; the page loop stops at its end. */
    if (s->failed) s->held.length = 0;
    return CAIRO_STATUS_SUCCESS;
}

void sink_finish(sink *s) {
    write_all(s, s->held.bytes, s->held.length);
    buffer_free(&s->held);
}
