#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sibling.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

void *sibling_symbol(const void *anchor, const char *name, const char *symbol, char *error, size_t error_size) {
    Dl_info self;
    if (!dladdr(anchor, &self) || !self.dli_fname) {
        snprintf(error, error_size, "cannot find where the provider's library is");
        return NULL;
    }
    char path[PATH_MAX];
    const char *slash = strrchr(self.dli_fname, '/');
    int length = slash ? (int)(slash - self.dli_fname) : 1;
    snprintf(path, sizeof path, "%.*s/%s", length, slash ? self.dli_fname : ".", name);
    /* Opened again at each call: dlopen finds a library it has open by its path. */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
        snprintf(error, error_size, "cannot load %s: %s", name, dlerror());
        return NULL;
    }
    void *found = dlsym(handle, symbol);
    if (!found) snprintf(error, error_size, "%s is incomplete: it lacks %s", name, symbol);
    return found;
}
