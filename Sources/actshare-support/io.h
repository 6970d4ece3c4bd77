/* File and descriptor I/O for the built-in C providers: whole reads and writes, retried
 * after signals. */
#ifndef ACTSHARE_PLUGIN_IO_H
#define ACTSHARE_PLUGIN_IO_H

#include "buffer.h"

#include <stddef.h>
#include <sys/types.h>

/* Appends the whole file at `path` to `out` if it is a regular file of at most `limit`
 * bytes: 0, or -1 with errno set: EISDIR for a folder, ESPIPE for a FIFO, device or
 * socket (opened without blocking, so a FIFO cannot hold the provider), EFBIG when
 * larger than `limit`. io_error names these in words. */
int read_file(const char *path, buffer *out, size_t limit);

/* What read_file's errno means, in words ("is a FIFO, device or socket, not a file"). */
const char *io_error(int code);

/* Makes the folders above `path` that are missing, with `mode` (mkdir -p of its
 * parent): 0, or -1 with errno set. */
int make_parent_directories(const char *path, mode_t mode);

/* Appends the XDG user folder `key` (XDG_DOCUMENTS_DIR, XDG_DOWNLOAD_DIR) to `out`, as
 * user-dirs.dirs names it, else $HOME/`fallback`. */
void user_directory(const char *key, const char *fallback, buffer *out);

/* Reads exactly `length` bytes from `fd`: 0, or -1 (an error, or the end came first). */
int read_exactly(int fd, void *bytes, size_t length);

/* Writes all of `bytes` to `fd`: 0, or -1 with errno set. */
int write_all(int fd, const void *bytes, size_t length);

#endif
