/* The document: pages of one paper size, a header with the item's name, a footer
 * `n / N`, and a bookmark per item. */
#include "printtopdf.h"

#include <cairo-pdf.h>
#include <stdio.h>

void document_bookmark(document *d, const char *name) {
    if (!d->drawing) return;
    char link[32];
    snprintf(link, sizeof link, "page=%d", d->page + 1);
    cairo_pdf_surface_add_outline(d->surface, CAIRO_PDF_OUTLINE_ROOT, name, link, 0);
}

/* Header and footer sit FURNITURE_GAP from the text, in the margin (which is at least
 * PRINT_MINIMUM_MARGIN, so they stay well inside the page edge too). */
#define FURNITURE_GAP (2.5 * 72 / 25.4)

/* Shows `text` centred, its top at `top` (or its bottom at `bottom` when top < 0). */
static void show_furniture(document *d, const char *text, double top, double bottom) {
    pango_layout_set_text(d->furniture, text, -1);
    int width, height;
    pango_layout_get_pixel_size(d->furniture, &width, &height);
    cairo_move_to(d->cr, (d->paper.width - width) / 2, top >= 0 ? top : bottom - height);
    pango_cairo_show_layout(d->cr, d->furniture);
}

void document_begin_page(document *d, double width, double height, int furniture) {
    d->page++;
    if (!d->drawing) return;
    cairo_pdf_surface_set_size(d->surface, width, height);
    if (!furniture) return;
    cairo_save(d->cr);
    cairo_set_source_rgb(d->cr, 0.35, 0.35, 0.35);
    /* The header: the item's name, left, in the top margin, ellipsized to fit; laid out
     * once an item. */
    if (d->header_name != d->item_name) {
        d->header_name = d->item_name;
        pango_layout_set_width(d->header, (int)((d->paper.width - 2 * d->margin) * PANGO_SCALE));
        pango_layout_set_ellipsize(d->header, PANGO_ELLIPSIZE_MIDDLE);
        pango_layout_set_text(d->header, d->item_name ? d->item_name : "", -1);
    }
    int text_width, text_height;
    pango_layout_get_pixel_size(d->header, &text_width, &text_height);
    cairo_move_to(d->cr, d->margin, d->margin - FURNITURE_GAP - text_height);
    pango_cairo_show_layout(d->cr, d->header);
    /* The footer: n / N, centred in the bottom margin. */
    char footer[64];
    snprintf(footer, sizeof footer, "%d / %d", d->page, d->total);
    show_furniture(d, footer, d->paper.height - d->margin + FURNITURE_GAP, 0);
    cairo_restore(d->cr);
}

void document_end_page(document *d) {
    if (!d->drawing) return;
    cairo_show_page(d->cr);
    /* Each page goes out as it ends: after a failed write, the rest is not drawn. */
    if (cairo_surface_status(d->surface) != CAIRO_STATUS_SUCCESS || cairo_status(d->cr) != CAIRO_STATUS_SUCCESS
        || (d->write_failed && *d->write_failed)) {
        d->failed = 1;
    }
}

void document_release(document *d) {
    for (int k = 0; k < 2 * PRINT_TEXT_THREADS; k++) {
        if (d->font_maps[k]) g_object_unref(d->font_maps[k]);
        d->font_maps[k] = NULL;
    }
}
