/*
 * Print to PDF's front: the provider's library, which actshare loads for can-perform at
 * every `actshare list` and share sheet. It links nothing but libc; the renderer (cairo,
 * pango, poppler, gdk-pixbuf: Render/, libprinttopdf-render.so beside this library) is
 * loaded only to print, or to ask gdk-pixbuf whether it reads an image type. Loading
 * those libraries took 8 ms of a 13 ms `actshare list` (docs/PACKAGING.md, start-up).
 */
#define _GNU_SOURCE
#include <actshare/provider.h>

#include "sibling.h"

#include <string.h>

ACTSHARE_EXPORT int32_t print_to_pdf(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t print_to_pdf_can_perform(const actshare_request *request);

#define RENDERER "libprinttopdf-render.so"

/* Offered unless an image among the items has no loader here; only then is the renderer
 * (gdk-pixbuf) asked. PNG is read by cairo itself; text and PDFs need no check. */
int32_t print_to_pdf_can_perform(const actshare_request *request) {
    int asks = 0;
    for (size_t i = 0; i < request->item_count && !asks; i++) {
        const actshare_item *item = &request->items[i];
        const char *type = item->content_type ? item->content_type : "";
        asks = item->kind == ACTSHARE_ITEM_FILE && strncmp(type, "image/", 6) == 0 && strcmp(type, "image/png") != 0;
    }
    if (!asks) return 1;
    char error[512];
    int32_t (*check)(const actshare_request *) =
        (int32_t (*)(const actshare_request *))sibling_symbol((const void *)print_to_pdf_can_perform, RENDERER, "print_to_pdf_render_can_perform", error, sizeof error);
    if (!check) {
        actshare_decline(request, error);
        return 0;
    }
    return check(request);
}

int32_t print_to_pdf(const actshare_request *request, actshare_session *session) {
    char error[512];
    int32_t (*render)(const actshare_request *, actshare_session *) = (int32_t (*)(const actshare_request *, actshare_session *))sibling_symbol(
        (const void *)print_to_pdf_can_perform, RENDERER, "print_to_pdf_render", error, sizeof error);
    if (!render) {
        session->set_error(session, error);
        return ACTSHARE_STATUS_FAILED;
    }
    return render(request, session);
}
