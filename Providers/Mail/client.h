/* What Mail's front (mail.c) calls in its GIO part, libmail-client.so beside it
 * (Client/mail-client.c), which it opens only when Mail goes to the user's mail client:
 * the `mailto` application GIO names, and its compose window opened with the draft. */
#ifndef ACTSHARE_MAIL_CLIENT_H
#define ACTSHARE_MAIL_CLIENT_H

#include <actshare/provider.h>
#include <stddef.h>

#define MAIL_CLIENT_LIBRARY "libmail-client.so"

/* A message for the client's compose window; every field may be NULL or empty. The
 * addresses are as the user gave them (already checked by address_parse). Files and data
 * items of the request become its attachments. */
typedef struct mail_draft {
    const char *to, *cc, *bcc, *from;
    const char *subject;
    const char *body; /* the texts and URLs, as plain text */
} mail_draft;

/* What mail_client_compose did. */
enum {
    MAIL_CLIENT_OPENED = 0,   /* the compose window is opening; `said` names the client */
    MAIL_CLIENT_NONE = 1,     /* no client actshare can use here; `error` says why */
    MAIL_CLIENT_FAILED = -1,  /* the client could not be started; `error` says why */
    MAIL_CLIENT_REFUSED = -2, /* the draft cannot be handed to this client; `error` says why */
};

/* Opens the compose window of the user's mail client with `draft` and the request's files
 * and data as attachments (data written to a private folder first). One of the above. */
ACTSHARE_EXPORT int mail_client_compose(const actshare_request *request, const mail_draft *draft, char *said, size_t said_size,
                                        char *error, size_t error_size);

/* Which client mail_client_compose would open, and why, in a sentence (for --explain):
 * MAIL_CLIENT_OPENED when there is one, else MAIL_CLIENT_NONE. */
ACTSHARE_EXPORT int mail_client_choose(char *said, size_t said_size);

#endif
