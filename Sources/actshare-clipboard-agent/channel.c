/* Frames with the daemon: see agent.h. Writes to a daemon gone fail with EPIPE (the
 * agent ignores SIGPIPE). */
#include "agent.h"
#include "io.h"

#include <stdlib.h>
#include <string.h>

static void put32(unsigned char *at, uint32_t value) {
    at[0] = (unsigned char)(value >> 24), at[1] = (unsigned char)(value >> 16), at[2] = (unsigned char)(value >> 8), at[3] = (unsigned char)value;
}

static uint32_t get32(const unsigned char *at) {
    return (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | (uint32_t)at[3];
}

int channel_write_pieces(int fd, json_object *header, const unsigned char *const *pieces, const uint32_t *lengths, size_t count) {
    size_t header_length;
    const char *text = json_object_to_json_string_length(header, JSON_C_TO_STRING_PLAIN, &header_length);
    uint32_t length = 0;
    for (size_t i = 0; i < count; i++) length += lengths[i];
    unsigned char size[4];
    put32(size, (uint32_t)header_length);
    if (write_all(fd, size, 4) != 0 || write_all(fd, text, header_length) != 0) return -1;
    put32(size, length);
    if (write_all(fd, size, 4) != 0) return -1;
    for (size_t i = 0; i < count; i++) {
        if (lengths[i] && write_all(fd, pieces[i], lengths[i]) != 0) return -1;
    }
    return 0;
}

int channel_write(int fd, json_object *header, const unsigned char *data, uint32_t length) {
    return channel_write_pieces(fd, header, &data, &length, 1);
}

int channel_read(int fd, uint32_t limit, json_object **header, unsigned char **data, uint32_t *length) {
    unsigned char size[4];
    *header = NULL, *data = NULL, *length = 0;
    if (read_exactly(fd, size, 4) != 0) return -1;
    uint32_t header_length = get32(size);
    if (header_length == 0 || header_length > AGENT_MAX_HEADER) return -1;
    char *text = malloc(header_length + 1);
    if (!text || read_exactly(fd, text, header_length) != 0) {
        free(text);
        return -1;
    }
    text[header_length] = 0;
    *header = json_tokener_parse(text);
    free(text);
    if (!*header || !json_object_is_type(*header, json_type_object) || read_exactly(fd, size, 4) != 0) goto fail;
    *length = get32(size);
    if (*length > limit) goto fail;
    if (*length) {
        *data = malloc(*length);
        if (!*data || read_exactly(fd, *data, *length) != 0) goto fail;
    }
    return 0;
fail:
    json_object_put(*header);
    free(*data);
    *header = NULL, *data = NULL, *length = 0;
    return -1;
}
