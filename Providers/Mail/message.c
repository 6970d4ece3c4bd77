/* The message: RFC 5322 headers and a MIME body (RFC 2045-2049) from the items. */
#include "io.h"
#include "mail.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* HTML is text that starts with <html or <!DOCTYPE html, in any case (after blanks). */
static int is_html(const char *text) {
    while (isspace((unsigned char)*text)) text++;
    return strncasecmp(text, "<html", 5) == 0 || strncasecmp(text, "<!doctype html", 14) == 0;
}

/* Appends code point `c` as UTF-8. */
static void append_utf8(buffer *out, unsigned long c) {
    char bytes[4];
    size_t n;
    if (c < 0x80) { bytes[0] = (char)c; n = 1; }
    else if (c < 0x800) { bytes[0] = (char)(0xC0 | c >> 6); bytes[1] = (char)(0x80 | (c & 0x3F)); n = 2; }
    else if (c < 0x10000) { bytes[0] = (char)(0xE0 | c >> 12); bytes[1] = (char)(0x80 | ((c >> 6) & 0x3F)); bytes[2] = (char)(0x80 | (c & 0x3F)); n = 3; }
    else { bytes[0] = (char)(0xF0 | c >> 18); bytes[1] = (char)(0x80 | ((c >> 12) & 0x3F)); bytes[2] = (char)(0x80 | ((c >> 6) & 0x3F)); bytes[3] = (char)(0x80 | (c & 0x3F)); n = 4; }
    buffer_append(out, bytes, n);
}

/* Decodes the entity at `p` (`&name;`, `&#233;`, `&#xE9;`) into `out`; its length, or 0
 * when it is not one this knows (then `&` is kept as it is). */
static size_t decode_entity(buffer *out, const char *p) {
    const char *semicolon = memchr(p, ';', strnlen(p, 12));
    if (!semicolon) return 0;
    size_t length = (size_t)(semicolon - p) + 1;
    if (p[1] == '#') {
        int hex = p[2] == 'x' || p[2] == 'X';
        char *end;
        unsigned long c = strtoul(p + 2 + hex, &end, hex ? 16 : 10);
        if (end != semicolon || c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
        append_utf8(out, c);
        return length;
    }
    /* HTML's common named entities: markup, Latin-1 letters and typography. */
    static const struct { const char *name; unsigned long c; } named[] = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", 0xA0}, {"copy", 0xA9}, {"reg", 0xAE},
        {"deg", 0xB0}, {"times", 0xD7}, {"divide", 0xF7}, {"euro", 0x20AC}, {"pound", 0xA3}, {"yen", 0xA5}, {"sect", 0xA7},
        {"hellip", 0x2026}, {"mdash", 0x2014}, {"ndash", 0x2013}, {"lsquo", 0x2018}, {"rsquo", 0x2019}, {"ldquo", 0x201C},
        {"rdquo", 0x201D}, {"laquo", 0xAB}, {"raquo", 0xBB}, {"bull", 0x2022}, {"middot", 0xB7}, {"szlig", 0xDF},
        {"aacute", 0xE1}, {"agrave", 0xE0}, {"acirc", 0xE2}, {"auml", 0xE4}, {"atilde", 0xE3}, {"aring", 0xE5}, {"aelig", 0xE6},
        {"ccedil", 0xE7}, {"eacute", 0xE9}, {"egrave", 0xE8}, {"ecirc", 0xEA}, {"euml", 0xEB}, {"iacute", 0xED}, {"igrave", 0xEC},
        {"icirc", 0xEE}, {"iuml", 0xEF}, {"ntilde", 0xF1}, {"oacute", 0xF3}, {"ograve", 0xF2}, {"ocirc", 0xF4}, {"ouml", 0xF6},
        {"otilde", 0xF5}, {"oslash", 0xF8}, {"uacute", 0xFA}, {"ugrave", 0xF9}, {"ucirc", 0xFB}, {"uuml", 0xFC}, {"yacute", 0xFD},
        {"Aacute", 0xC1}, {"Agrave", 0xC0}, {"Auml", 0xC4}, {"Ccedil", 0xC7}, {"Eacute", 0xC9}, {"Egrave", 0xC8}, {"Ntilde", 0xD1},
        {"Ouml", 0xD6}, {"Uuml", 0xDC}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t n = strlen(named[i].name);
        if (n == length - 2 && strncmp(p + 1, named[i].name, n) == 0) {
            append_utf8(out, named[i].c == 0xA0 ? ' ' : named[i].c);
            return length;
        }
    }
    return 0;
}

/* A plain rendering of HTML for multipart/alternative: tags dropped (block elements
 * become line breaks), the head (title included), script and style skipped, entities
 * decoded (numeric ones, and HTML's common named ones). */
static void render_html(buffer *out, const char *html) {
    const char *p = html;
    int blank = 1;
    while (*p) {
        if (*p == '<') {
            const char *end = strchr(p, '>');
            if (!end) break;
            char tag[16] = {0};
            size_t n = 0;
            const char *q = p + 1;
            if (*q == '/') q++;
            while (n < sizeof tag - 1 && isalnum((unsigned char)*q)) tag[n++] = (char)tolower((unsigned char)*q++);
            if (p[1] != '/' && (strcmp(tag, "script") == 0 || strcmp(tag, "style") == 0 || strcmp(tag, "head") == 0 ||
                                strcmp(tag, "title") == 0)) {
                char closing[24];
                snprintf(closing, sizeof closing, "</%s", tag);
                const char *close = strcasestr(end, closing);
                end = close ? strchr(close, '>') : NULL;
                if (!end) break;
            } else if (strcmp(tag, "br") == 0 || strcmp(tag, "p") == 0 || strcmp(tag, "div") == 0 || strcmp(tag, "li") == 0 ||
                       strcmp(tag, "tr") == 0 || (tag[0] == 'h' && isdigit((unsigned char)tag[1]))) {
                if (!blank) buffer_append_string(out, "\n");
                blank = 1;
            }
            p = end + 1;
            continue;
        }
        if (*p == '&') {
            size_t length = decode_entity(out, p);
            if (length) {
                p += length;
                blank = 0;
                continue;
            }
        }
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            if (!blank) buffer_append_string(out, " ");
        } else {
            buffer_append(out, p, 1);
            blank = 0;
        }
        p++;
    }
    if (!blank) buffer_append_string(out, "\n");
}

/* A text part: UTF-8, 7bit when it can be, else quoted-printable, or base64 when most
 * of it is not ASCII (Chinese), so no line passes 998 octets. */
static void text_part(buffer *out, const char *subtype, const char *given) {
    /* Line ends as the rest of the message has them: CRLF becomes LF. */
    buffer normal = {0};
    for (const char *p = given; *p; p++) {
        if (p[0] == '\r' && p[1] == '\n') continue;
        buffer_append(&normal, p, 1);
    }
    buffer_append(&normal, "", 1);
    const char *text = normal.bytes;
    size_t length = strlen(text), high = 0, line = 0, longest = 0;
    int bare_cr = 0, hazardous = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x80) high++;
        if (c == '\r') bare_cr = 1;
        if ((i == 0 || text[i - 1] == '\n') && starts_hazardous_line((const unsigned char *)text + i, length - i)) hazardous = 1;
        line = c == '\n' ? 0 : line + 1;
        if (line > longest) longest = line;
    }
    buffer_append_format(out, "Content-Type: text/%s; charset=utf-8\n", subtype);
    /* 7bit only when no line could be changed on the way ("From ", ">From ", "."). */
    if (high == 0 && longest <= 76 && !bare_cr && !hazardous) {
        buffer_append_string(out, "Content-Transfer-Encoding: 7bit\n\n");
        buffer_append_string(out, text);
        if (length == 0 || text[length - 1] != '\n') buffer_append_string(out, "\n");
    } else if (high * 3 > length) {
        buffer_append_string(out, "Content-Transfer-Encoding: base64\n\n");
        encode_base64(out, (const unsigned char *)text, length);
    } else {
        buffer_append_string(out, "Content-Transfer-Encoding: quoted-printable\n\n");
        encode_quoted_printable(out, (const unsigned char *)text, length);
        if (length == 0 || text[length - 1] != '\n') buffer_append_string(out, "\n");
    }
    buffer_free(&normal);
}

static void boundary(char *out, size_t size, const char *seed, int level) {
    snprintf(out, size, "=_actshare_%d_%s", level, seed);
}

void message_default_subject(const actshare_request *request, buffer *out) {
    if (request->item_count == 0) return;
    const actshare_item *item = &request->items[0];
    const char *source = item->kind == ACTSHARE_ITEM_FILE ? strrchr(item->path, '/') + 1
                       : item->kind == ACTSHARE_ITEM_URL  ? item->uri
                       : item->kind == ACTSHARE_ITEM_TEXT ? item->text
                                                          : "Shared data";
    if (item->kind == ACTSHARE_ITEM_TEXT && is_html(source)) {
        buffer plain = {0};
        render_html(&plain, source);
        const char *start = plain.bytes ? plain.bytes : "";
        while (isspace((unsigned char)*start)) start++;
        size_t length = strcspn(start, "\n");
        buffer_append(out, start, length);
        buffer_free(&plain);
    } else {
        while (isspace((unsigned char)*source)) source++;
        buffer_append(out, source, strcspn(source, "\r\n"));
    }
    /* At most 78 bytes, cut at a character boundary, with an ellipsis. */
    if (out->length > 78) {
        size_t cut = 75;
        while (cut > 0 && ((unsigned char)out->bytes[cut] & 0xC0) == 0x80) cut--;
        out->length = cut;
        buffer_append_string(out, "…");
    }
}

const char *message_body(const actshare_request *request, buffer *body) {
    const char *html = NULL;
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_TEXT) {
            if (!html && is_html(item->text)) {
                html = item->text;
                continue;
            }
            if (body->length) buffer_append_string(body, "\n");
            buffer_append_string(body, item->text);
            if (!body->length || body->bytes[body->length - 1] != '\n') buffer_append_string(body, "\n");
        }
    }
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_URL) {
            buffer_append_string(body, item->uri);
            buffer_append_string(body, "\n");
        }
    }
    return html;
}

void message_plain_body(const actshare_request *request, buffer *out) {
    const char *html = message_body(request, out);
    if (html) {
        if (out->length) buffer_append_string(out, "\n");
        render_html(out, html);
    }
}

int message_compose(const actshare_request *request, const message_fields *fields, buffer *out, char *message_id,
                    size_t message_id_size, char *error, size_t error_size) {
    /* Identity: time, pid and 64 random bits, at the sender's domain. */
    unsigned long long random_bits = 0;
    if (getrandom(&random_bits, sizeof random_bits, 0) != sizeof random_bits) random_bits = (unsigned long long)clock();
    const char *domain = fields->from.count ? strrchr(fields->from.list[0].mailbox, '@') + 1 : "localhost";
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(message_id, message_id_size, "%lld.%ld.%d.%016llx@%s", (long long)now.tv_sec, now.tv_nsec / 1000, getpid(), random_bits, domain);
    char seed[40];
    snprintf(seed, sizeof seed, "%016llx", random_bits);

    /* Gather the body text (texts, then URLs) and the attachments. */
    buffer body = {0};
    const char *html = message_body(request, &body);
    size_t attachments = 0;
    for (size_t i = 0; i < request->item_count; i++) {
        int kind = request->items[i].kind;
        if (kind == ACTSHARE_ITEM_FILE || kind == ACTSHARE_ITEM_DATA) attachments++;
    }

    /* Headers. */
    address_header(out, "From", &fields->from);
    if (fields->to.count) address_header(out, "To", &fields->to);
    if (fields->cc.count) address_header(out, "Cc", &fields->cc);
    if (fields->include_bcc && fields->bcc.count) address_header(out, "Bcc", &fields->bcc);
    encode_header(out, "Subject", fields->subject ? fields->subject : "");
    char date[64];
    struct tm local;
    localtime_r(&now.tv_sec, &local);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S %z", &local);
    buffer_append_format(out, "Date: %s\nMessage-ID: <%s>\nMIME-Version: 1.0\nUser-Agent: actshare\n", date, message_id);

    char mixed[64], alternative[64];
    boundary(mixed, sizeof mixed, seed, 1);
    boundary(alternative, sizeof alternative, seed, 2);
    if (attachments) {
        buffer_append_format(out, "Content-Type: multipart/mixed;\n boundary=\"%s\"\n\nThis is a message in MIME format.\n\n--%s\n", mixed, mixed);
    }
    if (html) {
        buffer_append_format(out, "Content-Type: multipart/alternative;\n boundary=\"%s\"\n\n--%s\n", alternative, alternative);
        buffer plain = {0};
        buffer_append(&plain, body.bytes ? body.bytes : "", body.length);
        if (plain.length) buffer_append_string(&plain, "\n");
        render_html(&plain, html);
        text_part(out, "plain", plain.bytes ? plain.bytes : "");
        buffer_free(&plain);
        buffer_append_format(out, "\n--%s\n", alternative);
        text_part(out, "html", html);
        buffer_append_format(out, "\n--%s--\n", alternative);
    } else {
        text_part(out, "plain", body.bytes ? body.bytes : "");
    }
    buffer_free(&body);

    int failed = 0;
    for (size_t i = 0; i < request->item_count && !failed; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind != ACTSHARE_ITEM_FILE && item->kind != ACTSHARE_ITEM_DATA) continue;
        buffer bytes = {0};
        const unsigned char *data = item->data;
        size_t length = item->data_length;
        const char *name = "attachment";
        if (item->kind == ACTSHARE_ITEM_FILE) {
            if (read_file(item->path, &bytes, MAIL_ATTACHMENT_LIMIT) != 0) {
                if (errno == EFBIG) {
                    snprintf(error, error_size, "cannot attach %s: it is larger than %d MiB, the most Mail attaches", item->path, MAIL_ATTACHMENT_LIMIT >> 20);
                } else {
                    snprintf(error, error_size, "cannot attach %s: %s", item->path, io_error(errno));
                }
                failed = 1;
                break;
            }
            data = (const unsigned char *)bytes.bytes;
            length = bytes.length;
            name = strrchr(item->path, '/') + 1;
        }
        /* A text part says its charset, or a reader takes it for ASCII; text that is not
         * UTF-8 goes as what it then is to a reader, bytes. */
        const char *type = item->content_type;
        const char *charset = "";
        if (strncmp(type, "text/", 5) == 0) {
            if (is_ascii((const char *)data, length)) charset = "; charset=us-ascii";
            else if (is_utf8((const char *)data, length)) charset = "; charset=utf-8";
            else type = "application/octet-stream";
        }
        buffer_append_format(out, "\n--%s\nContent-Type: %s%s", mixed, type, charset);
        encode_parameter(out, "name", name);
        buffer_append_string(out, "\nContent-Disposition: attachment");
        encode_parameter(out, "filename", name);
        buffer_append_string(out, "\nContent-Transfer-Encoding: base64\n\n");
        encode_base64(out, data ? data : (const unsigned char *)"", length);
        buffer_free(&bytes);
    }
    if (failed) return -1;
    if (attachments) buffer_append_format(out, "\n--%s--\n", mixed);
    return 0;
}
