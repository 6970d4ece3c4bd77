/*
 * actshare-frame-dump: reads frames of the provider pipe protocol from standard input
 * with the C codec (Sources/CActShareProtocol/frame.c) and prints one line per frame in
 * the canonical form of the golden .txt files beside it. ActShareHostTests prints the same
 * frames with the Swift codec: both must match the golden text.
 *
 *   bytes  "…" with bytes outside 0x20–0x7E, '"' and '\' written \xNN
 *   absent -
 *   u64    decimal; PROGRESS's double as its bits in hex
 */
#include <actshare/provider_protocol.h>

#include <stdio.h>
#include <stdlib.h>

static void quoted(const char *bytes, size_t length) {
    putchar('"');
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') printf("\\x%02X", c);
        else putchar(c);
    }
    putchar('"');
}

static int bytes_field(asp_buffer *b, const char *name) {
    char *value;
    size_t length;
    if (asp_get_bytes(b, &value, &length) != 0) return -1;
    printf(" %s=", name);
    quoted(value, length);
    free(value);
    return 0;
}

static int optional_field(asp_buffer *b, const char *name, int data) {
    char *value;
    size_t length;
    if ((data ? asp_get_optional_data(b, &value, &length) : asp_get_optional_bytes(b, &value, &length)) != 0) return -1;
    printf(" %s=", name);
    if (value) quoted(value, length);
    else putchar('-');
    free(value);
    return 0;
}

static int u8_field(asp_buffer *b, const char *name) {
    unsigned value;
    if (asp_get_u8(b, &value) != 0) return -1;
    printf(" %s=%u", name, value);
    return 0;
}

static int u32_field(asp_buffer *b, const char *name, uint32_t *value) {
    if (asp_get_u32(b, value) != 0) return -1;
    printf(" %s=%u", name, *value);
    return 0;
}

static int u64_field(asp_buffer *b, const char *name) {
    uint64_t value;
    if (asp_get_u64(b, &value) != 0) return -1;
    printf(" %s=%llu", name, (unsigned long long)value);
    return 0;
}

static int describe(unsigned type, asp_buffer *b) {
    uint32_t count;
    switch (type) {
    case ASP_FRAME_SANDBOX:
        printf("SANDBOX");
        if (u8_field(b, "flags") || u32_field(b, "rules", &count)) return -1;
        for (uint32_t i = 0; i < count; i++) if (u8_field(b, "rights") || bytes_field(b, "path")) return -1;
        if (u64_field(b, "memory") || u64_field(b, "file-size") || u32_field(b, "open-files", &count)
            || u32_field(b, "processes", &count) || u64_field(b, "temporary-files") || u32_field(b, "sockets", &count)) return -1;
        for (uint32_t i = 0; i < count; i++) if (u8_field(b, "abstract") || bytes_field(b, "socket")) return -1;
        return 0;
    case ASP_FRAME_LOAD:
        printf("LOAD");
        if (bytes_field(b, "library") || u32_field(b, "symbols", &count)) return -1;
        for (uint32_t i = 0; i < count; i++) if (bytes_field(b, "symbol")) return -1;
        return 0;
    case ASP_FRAME_REQUEST:
        printf("REQUEST");
        if (bytes_field(b, "type") || optional_field(b, "subject", 0) || u32_field(b, "items", &count)) return -1;
        for (uint32_t i = 0; i < count; i++) {
            if (u8_field(b, "kind") || optional_field(b, "path", 0) || optional_field(b, "uri", 0) || bytes_field(b, "content-type")
                || u64_field(b, "size") || optional_field(b, "data", 1)) return -1;
        }
        if (u32_field(b, "options", &count)) return -1;
        for (uint32_t i = 0; i < count; i++) if (bytes_field(b, "name") || bytes_field(b, "value")) return -1;
        return optional_field(b, "target", 0);
    case ASP_FRAME_CALL: {
        unsigned words;
        printf("CALL");
        if (bytes_field(b, "symbol") || u8_field(b, "returns") || asp_get_u8(b, &words)) return -1;
        printf(" arguments=%u", words);
        for (unsigned i = 0; i < words; i++) {
            unsigned word;
            if (asp_get_u8(b, &word)) return -1;
            printf(" word=%u", word);
            if (word == 8 && bytes_field(b, "option")) return -1; /* CAS_ARG_OPTION */
        }
        return u64_field(b, "item");
    }
    case ASP_FRAME_ANSWER:
        printf("ANSWER");
        return u8_field(b, "refused");
    case ASP_FRAME_OK:
        printf("OK");
        if (b->length == 0) return 0;
        if (u32_field(b, "missing", &count)) return -1;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t index;
            if (u32_field(b, "index", &index)) return -1;
        }
        return 0;
    case ASP_FRAME_ERROR:
        printf("ERROR");
        return u8_field(b, "kind") || bytes_field(b, "message");
    case ASP_FRAME_PROGRESS: {
        uint64_t bits;
        if (asp_get_u64(b, &bits)) return -1;
        printf("PROGRESS bits=0x%016llx", (unsigned long long)bits);
        return 0;
    }
    case ASP_FRAME_LOG:
        printf("LOG");
        return u8_field(b, "level") || bytes_field(b, "message");
    case ASP_FRAME_ITEM:
        printf("ITEM");
        return u8_field(b, "kind") || bytes_field(b, "value") || optional_field(b, "content-type", 0);
    case ASP_FRAME_SET_ERROR:
        printf("SET_ERROR");
        return bytes_field(b, "message");
    case ASP_FRAME_DECLINE:
        printf("DECLINE");
        return bytes_field(b, "reason");
    case ASP_FRAME_TARGET:
        printf("TARGET");
        return u8_field(b, "kind") || bytes_field(b, "id") || bytes_field(b, "title") || optional_field(b, "subtitle", 0)
            || optional_field(b, "image", 0);
    case ASP_FRAME_DONE:
        printf("DONE");
        return u64_field(b, "result") || optional_field(b, "string", 0);
    case ASP_FRAME_REFUSED:
        printf("REFUSED");
        return u8_field(b, "what") || bytes_field(b, "subject");
    default:
        printf("UNKNOWN type=%u", type);
        return 0;
    }
}

int main(void) {
    asp_buffer frame = {0};
    unsigned type;
    while (asp_read_frame(0, &frame, &type) == 0) {
        if (describe(type, &frame) != 0) printf(" MALFORMED");
        else if (frame.offset != frame.length) printf(" TRAILING=%zu", frame.length - frame.offset);
        putchar('\n');
    }
    asp_free(&frame);
    return 0;
}
