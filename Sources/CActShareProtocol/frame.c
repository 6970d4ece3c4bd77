/*
 * The C codec of the provider pipe protocol (actshare/provider_protocol.h): the helper's
 * only way to read and write frames, also driven by the golden-frame tests.
 */
#include "actshare/provider_protocol.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void asp_free(asp_buffer *buffer) {
    free(buffer->bytes);
    memset(buffer, 0, sizeof *buffer);
}

void asp_put(asp_buffer *buffer, const void *bytes, size_t length) {
    if (length == 0) return;
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (capacity < buffer->length + length) capacity *= 2;
        unsigned char *grown = realloc(buffer->bytes, capacity);
        if (!grown) abort();
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

void asp_put_u8(asp_buffer *buffer, unsigned value) {
    unsigned char byte = (unsigned char)value;
    asp_put(buffer, &byte, 1);
}

void asp_put_u32(asp_buffer *buffer, uint32_t value) {
    unsigned char bytes[4] = {value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF, value >> 24};
    asp_put(buffer, bytes, 4);
}

void asp_put_u64(asp_buffer *buffer, uint64_t value) {
    asp_put_u32(buffer, (uint32_t)value);
    asp_put_u32(buffer, (uint32_t)(value >> 32));
}

void asp_put_string(asp_buffer *buffer, const char *string) {
    size_t length = strlen(string);
    asp_put_u32(buffer, (uint32_t)length);
    asp_put(buffer, string, length);
}

void asp_put_optional_string(asp_buffer *buffer, const char *string) {
    asp_put_u8(buffer, string != NULL);
    if (string) asp_put_string(buffer, string);
}

static int get(asp_buffer *buffer, void *out, size_t length) {
    if (length > buffer->length - buffer->offset) return -1;
    memcpy(out, buffer->bytes + buffer->offset, length);
    buffer->offset += length;
    return 0;
}

int asp_get_u8(asp_buffer *buffer, unsigned *value) {
    unsigned char byte;
    if (get(buffer, &byte, 1) != 0) return -1;
    *value = byte;
    return 0;
}

int asp_get_u32(asp_buffer *buffer, uint32_t *value) {
    unsigned char bytes[4];
    if (get(buffer, bytes, 4) != 0) return -1;
    *value = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
    return 0;
}

int asp_get_u64(asp_buffer *buffer, uint64_t *value) {
    uint32_t low, high;
    if (asp_get_u32(buffer, &low) != 0 || asp_get_u32(buffer, &high) != 0) return -1;
    *value = low | ((uint64_t)high << 32);
    return 0;
}

static int get_bytes(asp_buffer *buffer, char **out, size_t *length, int nul_allowed) {
    uint32_t count;
    *out = NULL;
    if (asp_get_u32(buffer, &count) != 0 || count > buffer->length - buffer->offset) return -1;
    if (!nul_allowed && memchr(buffer->bytes + buffer->offset, 0, count)) return -1;
    char *copy = malloc((size_t)count + 1);
    if (!copy) return -1;
    memcpy(copy, buffer->bytes + buffer->offset, count);
    copy[count] = '\0';
    buffer->offset += count;
    *out = copy;
    if (length) *length = count;
    return 0;
}

int asp_get_bytes(asp_buffer *buffer, char **out, size_t *length) {
    return get_bytes(buffer, out, length, 0);
}

static int get_optional(asp_buffer *buffer, char **out, size_t *length, int nul_allowed) {
    unsigned present;
    *out = NULL;
    if (length) *length = 0;
    if (asp_get_u8(buffer, &present) != 0 || present > 1) return -1;
    return present ? get_bytes(buffer, out, length, nul_allowed) : 0;
}

int asp_get_optional_bytes(asp_buffer *buffer, char **out, size_t *length) {
    return get_optional(buffer, out, length, 0);
}

int asp_get_optional_data(asp_buffer *buffer, char **out, size_t *length) {
    return get_optional(buffer, out, length, 1);
}

static int write_all(int fd, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = write(fd, bytes, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        bytes += count;
        length -= (size_t)count;
    }
    return 0;
}

int asp_write_frame(int fd, unsigned type, const asp_buffer *payload) {
    size_t payload_length = payload ? payload->length : 0;
    if (1 + payload_length > ASP_MAX_FRAME) return -1;
    unsigned char header[5];
    uint32_t length = (uint32_t)(1 + payload_length);
    header[0] = length & 0xFF;
    header[1] = (length >> 8) & 0xFF;
    header[2] = (length >> 16) & 0xFF;
    header[3] = length >> 24;
    header[4] = (unsigned char)type;
    /* One write for small frames, so a frame is never split by another thread's. */
    if (payload_length <= 4096) {
        unsigned char frame[5 + 4096];
        memcpy(frame, header, 5);
        if (payload_length) memcpy(frame + 5, payload->bytes, payload_length);
        return write_all(fd, frame, 5 + payload_length);
    }
    if (write_all(fd, header, 5) != 0) return -1;
    return write_all(fd, payload->bytes, payload_length);
}

static int read_all(int fd, unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = read(fd, bytes, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        bytes += count;
        length -= (size_t)count;
    }
    return 0;
}

int asp_read_frame(int fd, asp_buffer *frame, unsigned *type) {
    unsigned char header[5];
    if (read_all(fd, header, 4) != 0) return -1;
    uint32_t length = header[0] | (header[1] << 8) | (header[2] << 16) | ((uint32_t)header[3] << 24);
    if (length == 0 || length > ASP_MAX_FRAME) return -1;
    if (read_all(fd, header + 4, 1) != 0) return -1;
    asp_free(frame);
    if (length > 1) {
        frame->bytes = malloc(length - 1);
        if (!frame->bytes) return -1;
        frame->length = frame->capacity = length - 1;
        if (read_all(fd, frame->bytes, length - 1) != 0) return -1;
    }
    *type = header[4];
    return 0;
}
