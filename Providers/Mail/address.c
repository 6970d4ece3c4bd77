/* Address lists as a person types them: "Name <a@b>, c@d, \"Doe, J\" <j@d>". */
#include "mail.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trimmed_copy(const char *start, const char *end) {
    while (start < end && isspace((unsigned char)*start)) start++;
    while (end > start && isspace((unsigned char)end[-1])) end--;
    char *copy = malloc((size_t)(end - start) + 1);
    if (!copy) abort();
    memcpy(copy, start, (size_t)(end - start));
    copy[end - start] = '\0';
    return copy;
}

/* RFC 5322 dot-atom local part @ a domain of letter-digit-hyphen labels (ASCII). */
static int valid_mailbox(const char *mailbox) {
    const char *at = strrchr(mailbox, '@');
    if (!at || at == mailbox || at[1] == '\0') return 0;
    static const char atext[] = "!#$%&'*+-/=?^_`{|}~";
    for (const char *p = mailbox; p < at; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '.') {
            if (p == mailbox || p + 1 == at || p[1] == '.') return 0;
        } else if (!(isalnum(c) && c < 0x80) && !strchr(atext, c)) {
            return 0;
        }
    }
    const char *label = at + 1;
    for (const char *p = at + 1;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '.' || c == '\0') {
            size_t size = (size_t)(p - label);
            if (size == 0 || size > 63 || label[0] == '-' || p[-1] == '-') return 0;
            if (c == '\0') break;
            label = p + 1;
        } else if (!((isalnum(c) && c < 0x80) || c == '-')) {
            return 0;
        }
    }
    return 1;
}

static int add_address(const char *start, const char *end, address_list *out, char *error, size_t error_size) {
    char *entry = trimmed_copy(start, end);
    if (entry[0] == '\0') {
        free(entry);
        return 0; /* "a@b, " has an empty last entry: nothing to add */
    }
    address parsed = {NULL, NULL};
    char *open = strrchr(entry, '<');
    if (open) {
        char *close = strchr(open, '>');
        if (!close || close[1] != '\0') {
            snprintf(error, error_size, "malformed address '%s': no closing '>'", entry);
            free(entry);
            return -1;
        }
        parsed.mailbox = trimmed_copy(open + 1, close);
        char *name = trimmed_copy(entry, open);
        size_t length = strlen(name);
        if (length >= 2 && name[0] == '"' && name[length - 1] == '"') {
            /* A quoted display name: drop the quotes and the escapes inside. */
            char *unquoted = name;
            size_t used = 0;
            for (size_t i = 1; i + 1 < length; i++) {
                if (name[i] == '\\' && i + 2 < length) i++;
                unquoted[used++] = name[i];
            }
            unquoted[used] = '\0';
        }
        if (name[0]) parsed.name = name;
        else free(name);
    } else {
        parsed.mailbox = trimmed_copy(entry, entry + strlen(entry));
    }
    if (!valid_mailbox(parsed.mailbox)) {
        snprintf(error, error_size, "malformed address '%s'", entry);
        free(entry);
        free(parsed.name);
        free(parsed.mailbox);
        return -1;
    }
    free(entry);
    address *grown = realloc(out->list, (out->count + 1) * sizeof *grown);
    if (!grown) abort();
    out->list = grown;
    out->list[out->count++] = parsed;
    return 0;
}

int address_parse(const char *text, address_list *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    if (!text) return 0;
    const char *start = text;
    int quoted = 0, angle = 0;
    for (const char *p = text;; p++) {
        if (*p == '"' && (p == text || p[-1] != '\\')) quoted = !quoted;
        else if (!quoted && *p == '<') angle = 1;
        else if (!quoted && *p == '>') angle = 0;
        if (*p == '\0' || ((*p == ',' || *p == ';') && !quoted && !angle)) {
            if (add_address(start, p, out, error, error_size) != 0) {
                address_list_free(out);
                return -1;
            }
            if (*p == '\0') break;
            start = p + 1;
        }
    }
    return 0;
}

/* A display name as a quoted string when it needs one; non-ASCII as an encoded word. */
static void display_name(buffer *out, const char *name) {
    size_t length = strlen(name);
    if (!is_ascii(name, length)) {
        buffer header = {0};
        encode_header(&header, "X", name);
        /* encode_header wrote "X: words\n": keep the words. */
        buffer_append(out, header.bytes + 3, header.length - 4);
        buffer_free(&header);
        return;
    }
    int atom = 1;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!isalnum(c) && !strchr(" !#$%&'*+-/=?^_`{|}~", c)) atom = 0;
    }
    if (atom) {
        buffer_append_string(out, name);
        return;
    }
    buffer_append_string(out, "\"");
    for (size_t i = 0; i < length; i++) {
        if (name[i] == '"' || name[i] == '\\') buffer_append_string(out, "\\");
        buffer_append(out, name + i, 1);
    }
    buffer_append_string(out, "\"");
}

void address_header(buffer *out, const char *name, const address_list *list) {
    buffer_append_format(out, "%s: ", name);
    for (size_t i = 0; i < list->count; i++) {
        if (i > 0) buffer_append_string(out, ",\n ");
        if (list->list[i].name) {
            display_name(out, list->list[i].name);
            buffer_append_format(out, " <%s>", list->list[i].mailbox);
        } else {
            buffer_append_string(out, list->list[i].mailbox);
        }
    }
    buffer_append_string(out, "\n");
}

void address_list_free(address_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->list[i].name);
        free(list->list[i].mailbox);
    }
    free(list->list);
    memset(list, 0, sizeof *list);
}
