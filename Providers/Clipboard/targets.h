/* The Copy provider's parts: the targets it builds and the back ends that offer them. */
#ifndef ACTSHARE_CLIPBOARD_TARGETS_H
#define ACTSHARE_CLIPBOARD_TARGETS_H

#include "buffer.h"

#include <actshare/provider.h>
#include <stddef.h>

/* One selection target: its name and its bytes, or for an image file, its path (the
 * bytes are read by the X11 server once it runs, rather than copied three times). */
typedef struct target {
    const char *name;
    buffer data;
    int is_file;
} target;

#define CLIPBOARD_MAX_TARGETS 24
/* The largest file whose contents Copy puts on the clipboard itself (images). */
#define CLIPBOARD_FILE_LIMIT (256u << 20)

typedef struct targets {
    target list[CLIPBOARD_MAX_TARGETS];
    size_t count;
    buffer text;            /* the items as text, joined by newlines (for OSC 52) */
    const char *image_type; /* the MIME type of a lone image file, else NULL */
} targets;

/* Every target for the request's items, in the order a requestor should prefer them. */
void targets_build(const actshare_request *request, targets *t);
void targets_free(targets *t);

/* Which selections to set: bits of these. */
enum { SELECTION_CLIPBOARD = 1, SELECTION_PRIMARY = 2 };

/* The back ends: 0 on success; on failure -1 with the error set on the session. */
int copy_x11(const targets *t, unsigned selections, unsigned lifetime, actshare_session *session);
int copy_wayland(const targets *t, unsigned selections, actshare_session *session);
int copy_osc52(const targets *t, unsigned selections, actshare_session *session);

#endif
