/* File and descriptor I/O for the built-in C providers: whole reads and writes, retried
 * after signals. */
#ifndef ACTSHARE_PLUGIN_IO_H
#define ACTSHARE_PLUGIN_IO_H

#include "buffer.h"

#include <stddef.h>

/* Appends the whole file at `path` to `out`: 0, or -1 with errno set (EISDIR for a folder). */
int read_file(const char *path, buffer *out);

/* Reads exactly `length` bytes from `fd`: 0, or -1 (an error, or the end came first). */
int read_exactly(int fd, void *bytes, size_t length);

/* Writes all of `bytes` to `fd`: 0, or -1 with errno set. */
int write_all(int fd, const void *bytes, size_t length);

#endif
