/* The Print to PDF provider's parts: the document (pages, header, footer, outline) and
 * what goes on its pages (text, images, PDF pages). */
#ifndef ACTSHARE_PRINTTOPDF_H
#define ACTSHARE_PRINTTOPDF_H

#include "buffer.h"

#include <actshare/provider.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include <stddef.h>

/* The largest text file laid out (about 19,000 pages) and image read: far beyond what
 * anyone prints, and a bound on what a 10 GB file could cost. */
#define PRINT_TEXT_LIMIT (64 << 20)
/* The narrowest margin: room for the header and footer (about 3.5 mm tall, 2.5 mm from
 * the text), which then stay 6 mm inside the page edge, where printers still print. */
#define PRINT_MINIMUM_MARGIN (12 * 72 / 25.4)
#define PRINT_IMAGE_LIMIT (256 << 20)
/* The most threads laying out text at once. */
#define PRINT_TEXT_THREADS 4

/* Paper sizes in points. */
typedef struct paper {
    const char *name;
    double width, height;
} paper;

/* The PDF being written. Every page goes through document_begin_page/end_page, in two
 * passes: the first (`drawing` 0) only counts pages, so that the footer can say `n / N`;
 * the second draws them. Both take the same decisions, so they agree page for page. */
typedef struct document {
    int drawing;
    cairo_surface_t *surface; /* the PDF surface (second pass) */
    cairo_t *cr;
    PangoLayout *header;      /* the header: the item's name */
    const char *header_name;  /* the name the header holds */
    PangoLayout *furniture;   /* the footer */
    paper paper;
    double margin;
    int page;                 /* pages begun so far */
    int total;                /* pages in all (from the first pass) */
    const char *item_name;    /* for the header */
    int outline_parent;
    int failed;               /* a write failed (a full disk): draw nothing more */
    const int *write_failed;  /* the sink's errno of a failed write (second pass) */
    /* The text threads' font maps (two sets: one lays out while the other is drawn), kept
     * for the whole document so that each loads its fonts once. */
    PangoFontMap *font_maps[2 * PRINT_TEXT_THREADS];
} document;

/* Where cairo writes the PDF (sink.c): the file, and what is held back to be repaired. */
typedef struct sink {
    int fd;
    int failed; /* errno of the write that failed */
    buffer held;
} sink;

/* cairo's write function for a sink. */
cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int length);
/* Writes what the sink still holds (after cairo_surface_finish) and frees it. */
void sink_finish(sink *s);

/* Starts a page of the paper's size (or width x height for a PDF page, no furniture). */
void document_begin_page(document *d, double width, double height, int furniture);
void document_end_page(document *d);
/* Frees what the document keeps between items (the text threads' font maps). */
void document_release(document *d);
/* Adds a bookmark named `name` to the page about to begin (the item's first page). */
void document_bookmark(document *d, const char *name);

/* Each renders one item; 0, or -1 with `error` naming the file. `name` is for the
 * header and the bookmark. */
int render_text(document *d, const char *name, const char *text, size_t length, int monospace, char *error, size_t error_size);
/* A text file, read as it is laid out, in `encoding` (after `skip` bytes of BOM). */
int render_text_file(document *d, const char *name, const char *path, const char *encoding, size_t skip, int monospace,
                     char *error, size_t error_size);
/* Finds a text file's encoding in one pass over it (a BOM, else UTF-8 if it is valid,
 * else Windows-1252 or ISO-8859-1): 0; -1 with errno (ESPIPE not a regular file, EFBIG
 * larger than `limit`); -2 with `error` when it is binary. */
int text_file_encoding(const char *path, size_t limit, const char **encoding, size_t *skip, char *error, size_t error_size);
/* Whether an installed image loader (gdk-pixbuf's, or cairo's for PNG) reads `type`. */
int image_type_readable(const char *type);
/* The names of the image formats that can be read, comma-separated, into `list`. */
void image_formats(char *list, size_t size);
int render_image(document *d, const char *name, const char *path, const char *type, char *error, size_t error_size);
int render_pdf(document *d, const char *name, const char *path, char *error, size_t error_size);


#endif
