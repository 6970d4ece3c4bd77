#include "cgio.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The GLib types of these four functions, spelt in C: gchar is char, gboolean is int,
 * gsize is size_t (GLib's ABI on every Linux target). */
static struct {
    char *(*guess)(const char *, const unsigned char *, size_t, int *);
    int (*is_a)(const char *, const char *);
    char *(*get_mime_type)(const char *);
    void (*free)(void *);
} gio;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library) {
        *(void **)&gio.guess = dlsym(library, "g_content_type_guess");
        *(void **)&gio.is_a = dlsym(library, "g_content_type_is_a");
        *(void **)&gio.get_mime_type = dlsym(library, "g_content_type_get_mime_type");
        *(void **)&gio.free = dlsym(library, "g_free");
    }
    if (!library || !gio.guess || !gio.is_a || !gio.get_mime_type || !gio.free) {
        fprintf(stderr, "actshare: content types are unknown: cannot load GIO (%s)\n",
                library ? "libgio-2.0.so.0 lacks g_content_type_*" : dlerror());
        gio.guess = NULL;
    }
}

char *cgio_content_type_guess(const char *name, const unsigned char *data, size_t length, int *uncertain) {
    pthread_once(&loaded, load);
    if (!gio.guess) {
        *uncertain = 1;
        return NULL;
    }
    return gio.guess(name, data, length, uncertain);
}

int cgio_content_type_is_a(const char *type, const char *supertype) {
    pthread_once(&loaded, load);
    return gio.guess ? gio.is_a(type, supertype) : strcmp(type, supertype) == 0;
}

char *cgio_content_type_get_mime_type(const char *type) {
    pthread_once(&loaded, load);
    return gio.guess ? gio.get_mime_type(type) : NULL;
}

void cgio_free(void *memory) {
    if (memory && gio.free) gio.free(memory);
}
