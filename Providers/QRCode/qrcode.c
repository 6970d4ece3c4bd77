/*
 * Show QR Code: one link or one text as a QR code (libqrencode), for a phone's camera.
 * It returns the code as a PNG (the share sheet shows it, the text under it; `-o
 * output=FILE.png` says where it goes, else a private folder of $XDG_RUNTIME_DIR), the
 * text itself, and — when actshare's output is a terminal — the code drawn in UTF-8 half
 * blocks, two rows of modules a line.
 *
 * The manifest offers it for one link or text of at most QR_MAX_BYTES, the most a code
 * holds (version 40, level L, bytes); the error correction is M where the text fits in
 * it (a code that survives a smudge or a glare), else L.
 *
 * A terminal draws with its foreground colour on its background, and most are light on
 * dark: the light modules (and the quiet zone) are drawn as blocks, as qrencode's UTF8
 * output does; `-o invert=true` draws the dark ones instead, for a dark-on-light terminal.
 * The PNG is written under a hidden partial name and renamed, never replacing a file.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "buffer.h"
#include "io.h"

#include <actshare/provider.h>
#include <png.h>
#include <qrencode.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t qrcode_perform(const actshare_request *request, actshare_session *session);
/* The code of `text` (at most QR_MAX_BYTES) returned on `session` as Show QR Code returns
 * it, without the text: half blocks on a terminal, then the PNG (at `output`, else a new
 * name in the private folder). Hand Off's "Quick Share to a Phone" calls it from beside. */
ACTSHARE_EXPORT int32_t qrcode_show(const char *text, const char *output, int invert, actshare_session *session);

/* The most bytes a QR code holds (version 40, error correction L, byte mode); the
 * manifest's max-total-size says the same. */
#define QR_MAX_BYTES 2953
/* The light margin a reader needs around the code, in modules (ISO/IEC 18004). */
#define QUIET_ZONE 4
/* About how wide the PNG is, in pixels: large enough to scan from a screen. */
#define PNG_TARGET_WIDTH 300

/* Whether the module at (x, y), counted from the quiet zone's corner, is dark. */
static int dark(const QRcode *code, int x, int y) {
    x -= QUIET_ZONE;
    y -= QUIET_ZONE;
    if (x < 0 || y < 0 || x >= code->width || y >= code->width) return 0;
    return code->data[y * code->width + x] & 1;
}

/* The code drawn in half blocks: each character two modules, one above the other. */
static void draw_half_blocks(const QRcode *code, int invert, buffer *out) {
    int size = code->width + 2 * QUIET_ZONE;
    for (int y = 0; y < size; y += 2) {
        for (int x = 0; x < size; x++) {
            /* Drawn: the modules of the colour the terminal's foreground shows. */
            int top = dark(code, x, y) == invert;
            int bottom = y + 1 < size ? dark(code, x, y + 1) == invert : 0;
            buffer_append_string(out, top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ");
        }
        buffer_append_string(out, "\n");
    }
}

static void on_png_error(png_structp png, png_const_charp message) {
    snprintf((char *)png_get_error_ptr(png), 200, "%s", message);
    png_longjmp(png, 1);
}

/* Writes the code as an 8-bit grey PNG to `file` (closed here): 0, or -1 with `error` set. */
static int write_png(const QRcode *code, FILE *file, char *error, size_t error_size) {
    int modules = code->width + 2 * QUIET_ZONE;
    int scale = PNG_TARGET_WIDTH / modules < 2 ? 2 : PNG_TARGET_WIDTH / modules;
    int pixels = modules * scale;
    char said[200] = "";
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, said, on_png_error, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    unsigned char *row = malloc((size_t)pixels);
    if (!png || !info || !row) {
        snprintf(error, error_size, "cannot make the PNG: out of memory");
        png_destroy_write_struct(&png, &info);
        free(row);
        fclose(file);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(error, error_size, "cannot write the PNG: %s", said[0] ? said : strerror(errno));
        png_destroy_write_struct(&png, &info);
        free(row);
        fclose(file);
        return -1;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, (png_uint_32)pixels, (png_uint_32)pixels, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < pixels; y++) {
        for (int x = 0; x < pixels; x++) row[x] = dark(code, x / scale, y / scale) ? 0 : 255;
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (fflush(file) != 0 || fsync(fileno(file)) != 0 || ferror(file)) {
        snprintf(error, error_size, "cannot write the PNG: %s", strerror(errno));
        fclose(file);
        return -1;
    }
    if (fclose(file) != 0) {
        snprintf(error, error_size, "cannot write the PNG: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Where the PNG goes: `output` as given (`~/` the home folder), else a new name in a
 * private folder of $XDG_RUNTIME_DIR (or $XDG_CACHE_HOME). 0, or -1 with `error` set. */
static int png_path(const char *output, buffer *path, char *error, size_t error_size) {
    const char *home = getenv("HOME");
    if (output && *output) {
        if (strncmp(output, "~/", 2) == 0 && home) buffer_append_format(path, "%s/%s", home, output + 2);
        else buffer_append_string(path, output);
        if (path->bytes[0] != '/') {
            snprintf(error, error_size, "-o output must be an absolute path (or start with ~/), not '%s'", output);
            return -1;
        }
        return 0;
    }
    const char *runtime = getenv("XDG_RUNTIME_DIR"), *cache = getenv("XDG_CACHE_HOME");
    if (runtime && runtime[0] == '/') buffer_append_format(path, "%s/actshare/qrcode", runtime);
    else if (cache && cache[0] == '/') buffer_append_format(path, "%s/actshare/qrcode", cache);
    else buffer_append_format(path, "%s/.cache/actshare/qrcode", home ? home : "/tmp");
    buffer_append_string(path, "/x");
    if (make_parent_directories(path->bytes, 0700) != 0) {
        snprintf(error, error_size, "cannot make the folder of %s: %s", path->bytes, strerror(errno));
        return -1;
    }
    path->length -= 2;
    path->bytes[path->length] = '\0';
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned int random_bits;
        if (getentropy(&random_bits, sizeof random_bits) != 0) random_bits = (unsigned int)getpid() + (unsigned int)attempt;
        size_t folder = path->length;
        buffer_append_format(path, "/QR code %08x.png", random_bits);
        struct stat existing;
        if (lstat(path->bytes, &existing) != 0 && errno == ENOENT) return 0;
        path->length = folder;
        path->bytes[folder] = '\0';
    }
    snprintf(error, error_size, "cannot find a free name in %s", path->bytes);
    return -1;
}

/* Writes the PNG under a hidden partial name beside `path`, then renames it, never
 * replacing a file there: 0, or a status with `error` set. */
static int32_t save_png(const QRcode *code, const char *path, char *error, size_t error_size) {
    const char *slash = strrchr(path, '/');
    buffer partial = {0};
    buffer_append_format(&partial, "%.*s/.%s.partial-%d", (int)(slash - path), path, slash + 1, (int)getpid());
    int fd = open(partial.bytes, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        int code_number = errno;
        snprintf(error, error_size, "cannot write in the folder of %s: %s", path, strerror(code_number));
        buffer_free(&partial);
        return code_number == ENOENT || code_number == EACCES || code_number == ENOTDIR || code_number == EROFS
                   ? ACTSHARE_STATUS_BAD_INPUT : ACTSHARE_STATUS_FAILED;
    }
    FILE *file = fdopen(fd, "wb");
    if (!file) {
        close(fd);
        unlink(partial.bytes);
        snprintf(error, error_size, "cannot write %s: %s", partial.bytes, strerror(errno));
        buffer_free(&partial);
        return ACTSHARE_STATUS_FAILED;
    }
    if (write_png(code, file, error, error_size) != 0) {
        unlink(partial.bytes);
        buffer_free(&partial);
        return ACTSHARE_STATUS_FAILED;
    }
    if (renameat2(AT_FDCWD, partial.bytes, AT_FDCWD, path, RENAME_NOREPLACE) != 0) {
        int code_number = errno;
        unlink(partial.bytes);
        buffer_free(&partial);
        if (code_number == EEXIST) {
            snprintf(error, error_size, "%s exists already: choose another name with -o output=FILE.png", path);
            return ACTSHARE_STATUS_BAD_INPUT;
        }
        snprintf(error, error_size, "cannot name the PNG %s: %s", path, strerror(code_number));
        return ACTSHARE_STATUS_FAILED;
    }
    buffer_free(&partial);
    return ACTSHARE_STATUS_DONE;
}

int32_t qrcode_show(const char *text, const char *output, int invert, actshare_session *session) {
    size_t length = text ? strlen(text) : 0;
    if (length == 0 || length > QR_MAX_BYTES) {
        char said[160];
        snprintf(said, sizeof said, "a QR code holds one link or text of 1 to %d bytes", QR_MAX_BYTES);
        session->set_error(session, said);
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    QRcode *code = QRcode_encodeData((int)length, (const unsigned char *)text, 0, QR_ECLEVEL_M);
    if (!code) code = QRcode_encodeData((int)length, (const unsigned char *)text, 0, QR_ECLEVEL_L);
    if (!code) {
        char said[200];
        snprintf(said, sizeof said, "cannot make the QR code: %s", strerror(errno));
        session->set_error(session, said);
        return ACTSHARE_STATUS_FAILED;
    }
    char error[4400] = "";
    buffer path = {0};
    int32_t status = ACTSHARE_STATUS_BAD_INPUT;
    if (png_path(output, &path, error, sizeof error) == 0) {
        status = save_png(code, path.bytes, error, sizeof error);
    }
    if (status == ACTSHARE_STATUS_DONE) {
        if (isatty(STDOUT_FILENO)) {
            buffer drawing = {0};
            draw_half_blocks(code, invert, &drawing);
            session->return_item(session, ACTSHARE_ITEM_TEXT, drawing.bytes, "text/plain");
            buffer_free(&drawing);
        }
        session->return_item(session, ACTSHARE_ITEM_FILE, path.bytes, "image/png");
    } else {
        session->set_error(session, error);
    }
    buffer_free(&path);
    QRcode_free(code);
    return status;
}

int32_t qrcode_perform(const actshare_request *request, actshare_session *session) {
    if (request->item_count != 1) {
        session->set_error(session, "a QR code holds one link or one text");
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    const actshare_item *item = &request->items[0];
    const char *text = item->kind == ACTSHARE_ITEM_URL ? item->uri : item->kind == ACTSHARE_ITEM_TEXT ? item->text : NULL;
    const char *invert = session->option(session, "invert");
    int32_t status = qrcode_show(text, session->option(session, "output"), invert && strcmp(invert, "true") == 0, session);
    if (status == ACTSHARE_STATUS_DONE) session->return_item(session, ACTSHARE_ITEM_TEXT, text, "text/plain");
    return status;
}
