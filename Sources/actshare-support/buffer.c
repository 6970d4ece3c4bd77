#include "buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(buffer *b, size_t extra) {
    if (b->length + extra + 1 <= b->capacity) return;
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->length + extra + 1) capacity *= 2;
    char *grown = realloc(b->bytes, capacity);
    if (!grown) abort();
    b->bytes = grown;
    b->capacity = capacity;
}

void buffer_append(buffer *b, const void *bytes, size_t length) {
    reserve(b, length);
    if (length) memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
    b->bytes[b->length] = '\0';
}

void buffer_append_string(buffer *b, const char *string) { buffer_append(b, string, strlen(string)); }

void buffer_append_format(buffer *b, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(NULL, 0, format, arguments);
    va_end(arguments);
    if (length < 0) return;
    reserve(b, (size_t)length);
    va_start(arguments, format);
    vsnprintf(b->bytes + b->length, (size_t)length + 1, format, arguments);
    va_end(arguments);
    b->length += (size_t)length;
}

void buffer_free(buffer *b) {
    free(b->bytes);
    b->bytes = NULL;
    b->length = b->capacity = 0;
}

void buffer_free_all(void *b) {
    buffer_free(b);
    free(b);
}
