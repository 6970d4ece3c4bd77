/* PDFs: every page appended as vector content (poppler renders it onto the cairo PDF
 * surface), at its own size and without header or footer, which would cover it. */
#include "printtopdf.h"

#include <glib.h>
#include <poppler.h>
#include <stdio.h>

int render_pdf(document *d, const char *name, const char *path, char *error, size_t error_size) {
    GError *failure = NULL;
    gchar *uri = g_filename_to_uri(path, NULL, &failure);
    PopplerDocument *source = uri ? poppler_document_new_from_file(uri, NULL, &failure) : NULL;
    g_free(uri);
    if (!source) {
        snprintf(error, error_size, "is not a readable PDF (%s)", failure ? failure->message : "unknown error");
        if (failure) g_error_free(failure);
        return -1;
    }
    int pages = poppler_document_get_n_pages(source);
    if (pages <= 0) {
        snprintf(error, error_size, "is a PDF without pages");
        g_object_unref(source);
        return -1;
    }
    d->item_name = name;
    document_bookmark(d, name);
    for (int i = 0; i < pages; i++) {
        PopplerPage *page = poppler_document_get_page(source, i);
        double width = d->paper.width, height = d->paper.height;
        if (page) poppler_page_get_size(page, &width, &height);
        document_begin_page(d, width, height, 0);
        if (d->drawing && page) {
            cairo_save(d->cr);
            poppler_page_render(page, d->cr);
            cairo_restore(d->cr);
        }
        document_end_page(d);
        if (page) g_object_unref(page);
    }
    g_object_unref(source);
    return 0;
}
