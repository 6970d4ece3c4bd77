/* A growable byte string for the built-in C providers. */
#ifndef ACTSHARE_PLUGIN_BUFFER_H
#define ACTSHARE_PLUGIN_BUFFER_H

#include <stddef.h>

/* Always NUL-terminated (the NUL is not counted); aborts when memory runs out. */
typedef struct buffer {
    char *bytes;
    size_t length, capacity;
} buffer;

void buffer_append(buffer *b, const void *bytes, size_t length);
void buffer_append_string(buffer *b, const char *string);
void buffer_append_format(buffer *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
void buffer_free(buffer *b);
/* Frees the buffer and the struct itself (a destroy callback for heap buffers). */
void buffer_free_all(void *b);

#endif
