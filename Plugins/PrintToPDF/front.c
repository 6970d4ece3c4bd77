/*
 * Print to PDF's front: the provider's library, which actshare loads for can-perform at
 * every `actshare list` and share sheet. It links nothing but libc; the renderer (cairo,
 * pango, poppler, gdk-pixbuf: Render/, libprinttopdf-render.so beside this library) is
 * loaded only to print, or to ask gdk-pixbuf whether it reads an image type. Loading
 * those libraries took 8 ms of a 13 ms `actshare list` (docs/PACKAGING.md, start-up).
 */
#define _GNU_SOURCE
#include <actshare/provider.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

ACTSHARE_EXPORT int32_t print_to_pdf(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t print_to_pdf_can_perform(const actshare_request *request);

/* The renderer's library beside this one, opened once; NULL with `error` set if it
 * cannot be. */
static void *renderer(char *error, size_t error_size) {
    static void *handle;
    if (handle) return handle;
    Dl_info self;
    char path[PATH_MAX];
    if (!dladdr((void *)print_to_pdf_can_perform, &self) || !self.dli_fname) {
        snprintf(error, error_size, "cannot find where Print to PDF's library is");
        return NULL;
    }
    const char *slash = strrchr(self.dli_fname, '/');
    int length = slash ? (int)(slash - self.dli_fname) : 1;
    snprintf(path, sizeof path, "%.*s/libprinttopdf-render.so", length, slash ? self.dli_fname : ".");
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) snprintf(error, error_size, "cannot load Print to PDF's renderer: %s", dlerror());
    return handle;
}

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
    void *handle = renderer(error, sizeof error);
    int32_t (*check)(const actshare_request *) = handle ? (int32_t (*)(const actshare_request *))dlsym(handle, "print_to_pdf_render_can_perform") : NULL;
    if (!check) {
        actshare_decline(request, handle ? "Print to PDF's renderer is incomplete" : error);
        return 0;
    }
    return check(request);
}

int32_t print_to_pdf(const actshare_request *request, actshare_session *session) {
    char error[512];
    void *handle = renderer(error, sizeof error);
    int32_t (*render)(const actshare_request *, actshare_session *) =
        handle ? (int32_t (*)(const actshare_request *, actshare_session *))dlsym(handle, "print_to_pdf_render") : NULL;
    if (!render) {
        session->set_error(session, handle ? "Print to PDF's renderer is incomplete" : error);
        return ACTSHARE_STATUS_FAILED;
    }
    return render(request, session);
}
