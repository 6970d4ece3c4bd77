/* Encodings for headers and bodies (RFC 2045, 2047, 2231). */
#include "mail.h"

#include <string.h>

static const char base64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int is_utf8(const char *bytes, size_t length) {
    const unsigned char *s = (const unsigned char *)bytes;
    for (size_t i = 0; i < length;) {
        unsigned char c = s[i];
        size_t run = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 4 : 0;
        if (run == 0 || i + run > length) return 0;
        for (size_t k = 1; k < run; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
        }
        /* No overlong three- or four-byte forms, no surrogates, nothing past U+10FFFF. */
        if (run == 3 && ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0))) return 0;
        if (run == 4 && ((c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90))) return 0;
        i += run;
    }
    return 1;
}

int is_ascii(const char *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) {
        if ((unsigned char)bytes[i] >= 0x80) return 0;
    }
    return 1;
}

/* Base64 in lines of 76 characters. */
void encode_base64(buffer *out, const unsigned char *s, size_t length) {
    char line[78];
    size_t used = 0;
    for (size_t i = 0; i < length; i += 3) {
        unsigned value = (unsigned)s[i] << 16 | (i + 1 < length ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < length ? s[i + 2] : 0);
        line[used++] = base64_alphabet[(value >> 18) & 63];
        line[used++] = base64_alphabet[(value >> 12) & 63];
        line[used++] = i + 1 < length ? base64_alphabet[(value >> 6) & 63] : '=';
        line[used++] = i + 2 < length ? base64_alphabet[value & 63] : '=';
        if (used == 76) {
            line[used++] = '\n';
            buffer_append(out, line, used);
            used = 0;
        }
    }
    if (used) {
        line[used++] = '\n';
        buffer_append(out, line, used);
    }
}

int starts_hazardous_line(const unsigned char *s, size_t length) {
    if (length >= 1 && s[0] == '.') return 1;
    size_t quotes = 0;
    while (quotes < length && s[quotes] == '>') quotes++;
    return length - quotes >= 5 && memcmp(s + quotes, "From ", 5) == 0;
}

/* Quoted-printable (RFC 2045 6.7): lines of at most 76 characters, soft breaks `=`,
 * trailing white space and `=` encoded, line breaks kept as they are. No encoded line
 * starts with "From ", ">From " (any number of '>') or "." — after a soft break either —
 * so neither mbox quoting nor an MTA's dot handling can change the text. */
void encode_quoted_printable(buffer *out, const unsigned char *s, size_t length) {
    static const char hex[] = "0123456789ABCDEF";
    size_t column = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = s[i];
        if (c == '\n') {
            buffer_append(out, "\n", 1);
            column = 0;
            continue;
        }
        char piece[3];
        size_t size = 1;
        int at_line_end = i + 1 == length || s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < length && s[i + 2] == '\n');
        /* Where a line would start (or start again after a soft break), its first
         * character is encoded if the line would be hazardous. */
        int hazardous = starts_hazardous_line(s + i, length - i);
        int literal = (c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !at_line_end);
        if (literal && (column == 0 || column + 1 > 75) && hazardous) literal = 0;
        if (literal) {
            piece[0] = (char)c;
        } else {
            piece[0] = '=';
            piece[1] = hex[c >> 4];
            piece[2] = hex[c & 15];
            size = 3;
        }
        if (column + size > 75) {
            buffer_append(out, "=\n", 2);
            column = 0;
        }
        buffer_append(out, piece, size);
        column += size;
    }
}

/* The length of the UTF-8 sequence starting with `c`. */
static size_t sequence_length(unsigned char c) {
    return c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
}

/* RFC 2047 B-encoded words of at most 75 characters, never splitting a character,
 * separated by folding white space. `column` is where the first word starts. */
static void encoded_words(buffer *out, const char *text, size_t column) {
    const unsigned char *s = (const unsigned char *)text;
    size_t length = strlen(text);
    size_t start = 0;
    while (start < length) {
        /* "=?UTF-8?B?" + base64 + "?=" on a line of at most 76 characters (RFC 2047):
         * 45 bytes of text on a folded line (which starts with one space), fewer on the
         * header's first line after its name. */
        if (start > 0 || column > 30) {
            buffer_append_string(out, "\n ");
            column = 1;
        }
        size_t room = ((76 - column - 12) / 4) * 3;
        size_t end = start;
        while (end < length && end + sequence_length(s[end]) - start <= room) end += sequence_length(s[end]);
        if (end == start) end = start + 1;
        buffer_append_string(out, "=?UTF-8?B?");
        buffer word = {0};
        encode_base64(&word, s + start, end - start);
        buffer_append(out, word.bytes, word.length - 1); /* without its newline */
        buffer_free(&word);
        buffer_append_string(out, "?=");
        start = end;
    }
}

void encode_header(buffer *out, const char *name, const char *value) {
    buffer_append_string(out, name);
    buffer_append_string(out, ": ");
    size_t length = strlen(value);
    int plain = is_ascii(value, length);
    for (size_t i = 0; plain && i < length; i++) plain = value[i] != '\n' && value[i] != '\r';
    /* Also encoded: ASCII that would look like an encoded word, or is too long to fold. */
    if (plain && (strstr(value, "=?") != NULL || length > 900)) plain = 0;
    if (plain) {
        /* Fold at spaces so that lines stay under 78 characters where they can. */
        size_t column = strlen(name) + 2, start = 0;
        while (start < length) {
            size_t end = start;
            while (end < length && value[end] != ' ') end++;
            if (start > 0) {
                if (column + 1 + (end - start) > 78) {
                    buffer_append_string(out, "\n ");
                    column = 1;
                } else {
                    buffer_append_string(out, " ");
                    column++;
                }
            }
            buffer_append(out, value + start, end - start);
            column += end - start;
            start = end < length ? end + 1 : end;
        }
    } else {
        encoded_words(out, value, strlen(name) + 2);
    }
    buffer_append_string(out, "\n");
}

void encode_parameter(buffer *out, const char *name, const char *value) {
    size_t length = strlen(value);
    int quotable = is_ascii(value, length) && length < 60;
    for (size_t i = 0; quotable && i < length; i++) quotable = value[i] >= 32 && value[i] != 127;
    if (quotable) {
        buffer_append_format(out, ";\n %s=\"", name);
        for (size_t i = 0; i < length; i++) {
            if (value[i] == '"' || value[i] == '\\') buffer_append_string(out, "\\");
            buffer_append(out, value + i, 1);
        }
        buffer_append_string(out, "\"");
        return;
    }
    /* RFC 2231: charset'language'percent-encoded; in one `name*=` when it fits a line
     * (readers that know no continuations still get it), else continued in sections
     * of ~60. */
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *s = (const unsigned char *)value;
    size_t encoded = 0;
    for (size_t k = 0; k < length; k++) {
        unsigned char c = s[k];
        encoded += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("!#$&+-.^_`|~", c)) ? 1 : 3;
    }
    int single = 1 + strlen(name) + 2 + 7 + encoded <= 76;
    size_t section = 0, i = 0;
    while (i < length || section == 0) {
        if (single) buffer_append_format(out, ";\n %s*=", name);
        else buffer_append_format(out, ";\n %s*%zu*=", name, section);
        if (section == 0) buffer_append_string(out, "UTF-8''");
        size_t written = 0;
        while (i < length && (single || written < 60)) {
            size_t run = sequence_length(s[i]);
            for (size_t k = 0; k < run && i < length; k++, i++) {
                unsigned char c = s[i];
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("!#$&+-.^_`|~", c)) {
                    buffer_append(out, &c, 1);
                    written++;
                } else {
                    char escaped[3] = {'%', hex[c >> 4], hex[c & 15]};
                    buffer_append(out, escaped, 3);
                    written += 3;
                }
            }
        }
        section++;
        if (i >= length) break;
    }
}
