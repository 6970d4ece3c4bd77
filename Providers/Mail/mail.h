/* The Mail provider's parts: encodings, addresses, the message and the spools. */
#ifndef ACTSHARE_MAIL_H
#define ACTSHARE_MAIL_H

#include "buffer.h"

#include <actshare/provider.h>
#include <stddef.h>

/* The largest attachment: the manifest's max-total-size, for one file. */
#define MAIL_ATTACHMENT_LIMIT (100 << 20)

/* MARK: Encodings (encode.c) — RFC 2045 base64 and quoted-printable, RFC 2047 encoded
 * words, RFC 2231 parameters. Lines end in LF: spools and sendmail take local text. */

void encode_base64(buffer *out, const unsigned char *bytes, size_t length);
/* Whether text starting here would make a hazardous line: ".", "From ", ">From "… */
int starts_hazardous_line(const unsigned char *s, size_t length);
void encode_quoted_printable(buffer *out, const unsigned char *bytes, size_t length);
/* A header `Name: value`, the value as RFC 2047 encoded words when it is not ASCII,
 * folded so that no line passes 78 characters. */
void encode_header(buffer *out, const char *name, const char *value);
/* `; name="value"`, or RFC 2231 `; name*=UTF-8''percent-encoded` when it is not ASCII. */
void encode_parameter(buffer *out, const char *name, const char *value);
/* Whether the bytes are valid UTF-8. */
int is_utf8(const char *bytes, size_t length);
int is_ascii(const char *bytes, size_t length);

/* MARK: Addresses (address.c) */

typedef struct address {
    char *name;      /* display name (UTF-8), or NULL */
    char *mailbox;   /* local@domain */
} address;

typedef struct address_list {
    address *list;
    size_t count;
} address_list;

/* Parses "Name <a@b>, c@d, \"Doe, J\" <j@d>"; 0, or -1 with `error` naming the culprit. */
int address_parse(const char *text, address_list *out, char *error, size_t error_size);
/* Appends the list as a header value (display names as encoded words where needed). */
void address_header(buffer *out, const char *name, const address_list *list);
void address_list_free(address_list *list);

/* MARK: The message (message.c) */

typedef struct message_fields {
    address_list from, to, cc, bcc;
    const char *subject;
    int include_bcc; /* only for sendmail -t, which removes it */
} message_fields;

/* Composes the whole message; 0, or -1 with `error` set (an unreadable attachment). */
int message_compose(const actshare_request *request, const message_fields *fields, buffer *out, char *message_id,
                    size_t message_id_size, char *error, size_t error_size);
/* Appends the texts (but the first HTML one), then the URLs, a line each, to `body`;
 * the first HTML text, or NULL. */
const char *message_body(const actshare_request *request, buffer *body);
/* The body as plain text alone, for a mail client's compose window: the HTML text
 * rendered as text after the others. */
void message_plain_body(const actshare_request *request, buffer *out);
/* A subject from the first item: a text's first line, a file's name or a URL. */
void message_default_subject(const actshare_request *request, buffer *out);

/* MARK: Spools (maildir.c, mbox.c, sendmail.c): 0, or with `error` set either
 * SPOOL_UNUSABLE (the spool cannot be used as given: exit 2) or -1 (the delivery failed).
 * On failure nothing is left behind: no file in the Maildir, the mbox at its old length. */

enum { SPOOL_UNUSABLE = -2 };

/* The system MTA's submission program, as every MTA in Debian installs it. */
#define MAIL_SENDMAIL "/usr/sbin/sendmail"

/* SPOOL_UNUSABLE for the errors that mean a spool path is wrong (no permission, a missing
 * folder, a file where a folder must be, a folder as an mbox), else -1. */
int spool_failure(int error_number);

int deliver_maildir(const char *directory, const buffer *message, buffer *where, char *error, size_t error_size);
int deliver_mbox(const char *path, const char *sender, const buffer *message, char *error, size_t error_size);
int deliver_sendmail(const buffer *message, char *error, size_t error_size);

#endif
