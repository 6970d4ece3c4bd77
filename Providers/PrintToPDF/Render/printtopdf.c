/*
 * Print to PDF: every item in one PDF, each from a new page with a bookmark — text laid
 * out with pango, images scaled to fit, PDFs appended as vector pages — what GTK's
 * "Print to File" does with cairo's PDF surface. The PDF is written to a temporary file
 * beside its destination and linked into place only when whole, under a name that
 * replaces nothing (`-1`, `-2` are added). See docs/PRINT-TO-PDF.md.
 */
#include "io.h"
#include "printtopdf.h"

#include <cairo-pdf.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Called by the provider's front library (Providers/PrintToPDF/front.c), which loads this
 * one only when there is something to render or an image type to check. */
ACTSHARE_EXPORT int32_t print_to_pdf_render(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t print_to_pdf_render_can_perform(const actshare_request *request);

static const paper papers[] = {
    {"a4", 595.276, 841.89}, {"letter", 612, 792}, {"legal", 612, 1008}, {"a5", 419.528, 595.276}};

/* /etc/papersize (Debian's libpaper), else the locale's country: letter in the Americas
 * that use it, A4 elsewhere. */
static const char *default_paper(void) {
    static char name[32];
    FILE *file = fopen("/etc/papersize", "re");
    if (file) {
        char line[128];
        while (fgets(line, sizeof line, file)) {
            if (line[0] == '#' || sscanf(line, "%31s", name) != 1) continue;
            for (char *p = name; *p; p++) *p = (char)tolower((unsigned char)*p);
            fclose(file);
            return name;
        }
        fclose(file);
    }
    const char *locale = getenv("LC_ALL");
    if (!locale || !*locale) locale = getenv("LC_PAPER");
    if (!locale || !*locale) locale = getenv("LANG");
    const char *underscore = locale ? strchr(locale, '_') : NULL;
    static const char *letter_countries[] = {"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "SV", "NI", "PA", "DO", "PR"};
    for (size_t i = 0; underscore && i < sizeof letter_countries / sizeof *letter_countries; i++) {
        if (strncmp(underscore + 1, letter_countries[i], 2) == 0) return "letter";
    }
    return "a4";
}

/* "15mm", "1.5cm", "0.5in", "36pt" or a bare number of millimetres, in points. */
static int parse_length(const char *text, double *points) {
    char *end;
    double value = strtod(text, &end);
    if (end == text || value < 0) return -1;
    if (*end == '\0' || strcmp(end, "mm") == 0) *points = value * 72 / 25.4;
    else if (strcmp(end, "cm") == 0) *points = value * 72 / 2.54;
    else if (strcmp(end, "in") == 0) *points = value * 72;
    else if (strcmp(end, "pt") == 0) *points = value;
    else return -1;
    return 0;
}

/* What an item is to this provider. */
typedef enum { ITEM_TEXT, ITEM_CODE, ITEM_IMAGE, ITEM_PDF } item_kind;

typedef struct prepared {
    item_kind kind;
    const char *name;  /* the file's name as bytes: the PDF's name comes from it */
    char *label;       /* the same as UTF-8, for headers, bookmarks and the title */
    const char *path;
    const char *type;
    buffer text;          /* UTF-8, for text given as text */
    const char *encoding; /* for a text file: how to read it, */
    size_t skip;          /* after a byte order mark this long */
} prepared;

static item_kind kind_of(const actshare_item *item) {
    if (item->kind == ACTSHARE_ITEM_TEXT) return ITEM_TEXT;
    const char *type = item->content_type;
    if (strncmp(type, "image/", 6) == 0) return ITEM_IMAGE;
    if (strcmp(type, "application/pdf") == 0) return ITEM_PDF;
    /* Prose in a readable face; everything else textual (source, data) in monospace. */
    if (strcmp(type, "text/plain") == 0 || strcmp(type, "text/markdown") == 0 || strcmp(type, "text/x-markdown") == 0) return ITEM_TEXT;
    return ITEM_CODE;
}

/* Offered when every image among the items has a loader here: the manifest's image types
 * also match formats nothing installed can read (WebP without webp-pixbuf-loader). */
int32_t print_to_pdf_render_can_perform(const actshare_request *request) {
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_FILE && kind_of(item) == ITEM_IMAGE && !image_type_readable(item->content_type)) return 0;
    }
    return 1;
}

static int render(document *d, prepared *items, size_t count, char *error, size_t error_size) {
    d->page = 0;
    for (size_t i = 0; i < count && !d->failed; i++) {
        prepared *p = &items[i];
        char reason[1024] = "";
        int result = p->kind == ITEM_IMAGE ? render_image(d, p->label, p->path, p->type, reason, sizeof reason)
                   : p->kind == ITEM_PDF   ? render_pdf(d, p->label, p->path, reason, sizeof reason)
                   : p->path ? render_text_file(d, p->label, p->path, p->encoding, p->skip, p->kind == ITEM_CODE, reason, sizeof reason)
                                           : render_text(d, p->label, p->text.bytes ? p->text.bytes : "", p->text.length, p->kind == ITEM_CODE, reason, sizeof reason);
        if (result != 0) {
            snprintf(error, error_size, "%s %s", p->path ? p->path : p->name, reason);
            return -1;
        }
    }
    return 0;
}

/* A layout for the header or footer, in small type. */
static PangoLayout *furniture_layout(cairo_t *cr) {
    PangoLayout *layout = pango_cairo_create_layout(cr);
    pango_context_set_round_glyph_positions(pango_layout_get_context(layout), FALSE);
    pango_layout_context_changed(layout);
    PangoFontDescription *small = pango_font_description_from_string("DejaVu Sans, Noto Sans CJK SC 8");
    pango_layout_set_font_description(layout, small);
    pango_font_description_free(small);
    return layout;
}

/* Links `temporary` (a path, or /proc/self/fd/N of an O_TMPFILE) to `wanted`, or to
 * `stem-1.pdf`, `stem-2.pdf`… when taken. */
static int link_unused(const char *temporary, const char *wanted, buffer *final) {
    size_t length = strlen(wanted);
    const char *dot = length > 4 && strcasecmp(wanted + length - 4, ".pdf") == 0 ? wanted + length - 4 : wanted + length;
    for (int n = 0; n < 10000; n++) {
        final->length = 0;
        if (n == 0) buffer_append_string(final, wanted);
        else buffer_append_format(final, "%.*s-%d%s", (int)(dot - wanted), wanted, n, dot);
        if (linkat(AT_FDCWD, temporary, AT_FDCWD, final->bytes, AT_SYMLINK_FOLLOW) == 0) return 0;
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

static int32_t fail(actshare_session *session, int32_t status, const char *message) {
    session->set_error(session, message);
    return status;
}

int32_t print_to_pdf_render(const actshare_request *request, actshare_session *session) {
    char error[5000] = "";
    /* Paper and margins. */
    const char *paper_name = session->option(session, "paper");
    if (!paper_name || !*paper_name) paper_name = default_paper();
    const paper *chosen = NULL;
    for (size_t i = 0; i < sizeof papers / sizeof *papers; i++) {
        if (strcasecmp(paper_name, papers[i].name) == 0) chosen = &papers[i];
    }
    if (!chosen) {
        snprintf(error, sizeof error, "unknown paper '%s': use a4, letter, legal or a5", paper_name);
        return fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
    }
    double margin = 15 * 72 / 25.4;
    const char *margin_text = session->option(session, "margin");
    if (margin_text && *margin_text && (parse_length(margin_text, &margin) != 0 || margin * 2 >= chosen->width - 72 || margin < PRINT_MINIMUM_MARGIN - 0.01)) {
        snprintf(error, sizeof error, "bad margin '%s': give a length such as 15mm, 1cm, 0.5in or 36pt, at least 12mm (room for the header and footer) and leaving room on the page", margin_text);
        return fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
    }

    /* The items, read and decoded before anything is written. */
    prepared *items = calloc(request->item_count ? request->item_count : 1, sizeof *items);
    if (!items) return fail(session, ACTSHARE_STATUS_FAILED, "out of memory");
    int32_t status = ACTSHARE_STATUS_DONE;
    size_t count = 0;
    buffer directory = {0}, wanted = {0}, temporary = {0}, final = {0};
    int fd = -1, anonymous = 0, direct = 0;
    document d = {.drawing = 0};
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        prepared *p = &items[count];
        p->kind = kind_of(item);
        p->path = item->path;
        p->type = item->content_type;
        p->name = item->kind == ACTSHARE_ITEM_FILE ? strrchr(item->path, '/') + 1 : "Text";
        /* A name that is not UTF-8 (a Latin-1 file system) is shown as GLib shows it. */
        p->label = g_filename_display_name(p->name);
        if (item->kind == ACTSHARE_ITEM_TEXT) {
            buffer_append(&p->text, item->text, strlen(item->text));
        } else if (item->kind != ACTSHARE_ITEM_FILE) {
            snprintf(error, sizeof error, "only files and text can be printed");
            status = fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
            goto done;
        } else if (p->kind == ITEM_TEXT || p->kind == ITEM_CODE) {
            /* Its encoding, from one pass over it; the text itself is read as it is laid out. */
            char reason[1024];
            int found = text_file_encoding(item->path, PRINT_TEXT_LIMIT, &p->encoding, &p->skip, reason, sizeof reason);
            if (found != 0) {
                if (found == -2) {
                    snprintf(error, sizeof error, "%s %s", item->path, reason);
                } else if (errno == EFBIG) {
                    snprintf(error, sizeof error, "%s is larger than %d MiB, the most text Print to PDF lays out (about %d pages)",
                             item->path, PRINT_TEXT_LIMIT >> 20, (PRINT_TEXT_LIMIT >> 20) * 300);
                } else {
                    snprintf(error, sizeof error, "cannot read %s: %s", item->path, io_error(errno));
                }
                count++;
                status = fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
                goto done;
            }
        } else if (p->kind == ITEM_IMAGE && !image_type_readable(item->content_type)) {
            char formats[1024];
            image_formats(formats, sizeof formats);
            snprintf(error, sizeof error, "cannot print %s: no image loader for %s is installed here (the image formats it can print: %s)",
                     item->path, item->content_type, formats);
            status = fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
            goto done;
        } else if (access(item->path, R_OK) != 0) {
            snprintf(error, sizeof error, "cannot read %s: %s", item->path, strerror(errno));
            status = fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
            goto done;
        }
        count++;
    }
    if (count == 0) {
        status = fail(session, ACTSHARE_STATUS_BAD_INPUT, "nothing to print");
        goto done;
    }

    /* Pass 1: count the pages (and find bad images and PDFs) before creating anything. */
    d.paper = *chosen;
    d.margin = margin;
    if (render(&d, items, count, error, sizeof error) != 0) {
        status = fail(session, ACTSHARE_STATUS_BAD_INPUT, error);
        goto done;
    }
    d.total = d.page;

    /* Where it goes: `output`, or `output-dir` (the documents folder by default). */
    const char *output = session->option(session, "output");
    if (output && *output) {
        buffer_append_string(&wanted, output);
        const char *slash = strrchr(output, '/');
        if (slash) buffer_append(&directory, output, (size_t)(slash - output) + (slash == output));
        else buffer_append_string(&directory, ".");
    } else {
        const char *output_dir = session->option(session, "output-dir");
        if (output_dir && *output_dir) {
            buffer_append_string(&directory, output_dir);
        } else {
            user_directory("XDG_DOCUMENTS_DIR", "Documents", &directory);
            mkdir(directory.bytes, 0755); /* the default folder is made if missing */
        }
        const char *stem = items[0].kind == ITEM_TEXT && !items[0].path ? "Text" : items[0].name;
        const char *dot = strrchr(stem, '.');
        size_t stem_length = dot && dot != stem ? (size_t)(dot - stem) : strlen(stem);
        buffer_append_format(&wanted, "%s/%.*s.pdf", directory.bytes, (int)stem_length, stem);
    }
    /* An unnamed file in the folder, linked in under its name only when whole: nothing is
     * left behind, even if this process is killed. Where the file system has no
     * O_TMPFILE, a hidden named one, removed on every failure. */
    fd = open(directory.bytes, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) {
        buffer_append_format(&temporary, "/proc/self/fd/%d", fd);
        anonymous = 1;
    } else if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) {
        buffer_append_format(&temporary, "%s/.actshare-pdf-XXXXXX", directory.bytes);
        fd = mkostemp(temporary.bytes, O_CLOEXEC);
    } else if ((errno == EACCES || errno == EPERM) && output && *output) {
        /* Sandboxed, a file named in a broad folder (the home folder) is granted alone, made
         * empty by actshare: written in place, and emptied again on failure (actshare then
         * removes it). */
        int saved = errno;
        fd = open(wanted.bytes, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        struct stat status;
        if (fd >= 0 && (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size != 0)) {
            close(fd);
            fd = -1;
        }
        direct = fd >= 0;
        if (!direct) errno = saved;
    }
    if (fd < 0) {
        snprintf(error, sizeof error, "cannot write in %s: %s", directory.bytes, strerror(errno));
        temporary.length = 0;
        status = fail(session, errno == ENOSPC || errno == EIO ? ACTSHARE_STATUS_FAILED : ACTSHARE_STATUS_BAD_INPUT, error);
        goto done;
    }
    fchmod(fd, 0644 & ~umask(umask(0)));

    /* Pass 2: draw, page by page, straight into the file. */
    sink out = {.fd = fd};
    d.write_failed = &out.failed;
    d.drawing = 1;
    d.surface = cairo_pdf_surface_create_for_stream(sink_write, &out, chosen->width, chosen->height);
    char title[512];
    if (count == 1) snprintf(title, sizeof title, "%s", items[0].label);
    else snprintf(title, sizeof title, "%s and %zu more", items[0].label, count - 1);
    cairo_pdf_surface_set_metadata(d.surface, CAIRO_PDF_METADATA_TITLE, title);
    cairo_pdf_surface_set_metadata(d.surface, CAIRO_PDF_METADATA_CREATOR, "actshare Print to PDF");
    d.cr = cairo_create(d.surface);
    d.header = furniture_layout(d.cr);
    d.furniture = furniture_layout(d.cr);
    int drawn = render(&d, items, count, error, sizeof error);
    if (d.failed) drawn = 0; /* the write's error is the one to tell */
    g_object_unref(d.header);
    g_object_unref(d.furniture);
    cairo_destroy(d.cr);
    cairo_surface_finish(d.surface);
    sink_finish(&out);
    cairo_status_t surface_status = cairo_surface_status(d.surface);
    cairo_surface_destroy(d.surface);
    if (drawn != 0 || out.failed || surface_status != CAIRO_STATUS_SUCCESS || fsync(fd) != 0) {
        const char *slash = strrchr(wanted.bytes, '/');
        if (drawn == 0 && (out.failed == ENOSPC || out.failed == EDQUOT)) {
            snprintf(error, sizeof error, "no space left on %s to write %s", directory.bytes, slash ? slash + 1 : wanted.bytes);
        } else if (drawn == 0) {
            snprintf(error, sizeof error, "cannot write %s: %s", wanted.bytes,
                     out.failed ? strerror(out.failed) : cairo_status_to_string(surface_status));
        }
        status = fail(session, ACTSHARE_STATUS_FAILED, error);
        goto done;
    }
    if (session->is_cancelled(session)) {
        status = ACTSHARE_STATUS_CANCELLED;
        goto done;
    }
    if (direct) {
        buffer_append_string(&final, wanted.bytes);
    } else if (link_unused(temporary.bytes, wanted.bytes, &final) != 0) {
        snprintf(error, sizeof error, "cannot write %s: %s", wanted.bytes, strerror(errno));
        status = fail(session, errno == EACCES || errno == ENOENT || errno == ENOTDIR ? ACTSHARE_STATUS_BAD_INPUT : ACTSHARE_STATUS_FAILED, error);
        goto done;
    }
    session->return_item(session, ACTSHARE_ITEM_FILE, final.bytes, "application/pdf");

done:
    document_release(&d);
    if (direct && status != ACTSHARE_STATUS_DONE && ftruncate(fd, 0) != 0) {
        /* Nothing more can be done: actshare removes it only when empty. */
    }
    if (fd >= 0) close(fd);
    if (temporary.length && !anonymous) unlink(temporary.bytes);
    for (size_t i = 0; i < request->item_count; i++) {
        buffer_free(&items[i].text);
        g_free(items[i].label);
    }
    free(items);
    buffer_free(&directory);
    buffer_free(&wanted);
    buffer_free(&temporary);
    buffer_free(&final);
    return status;
}
