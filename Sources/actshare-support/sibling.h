/* A built-in provider's second library, beside its first: the part that links large
 * libraries (GIO, cairo, poppler), opened only when the provider needs it, so that the
 * library actshare loads for can-perform at every `actshare list` links libc alone
 * (docs/PACKAGING.md, "Start-up"). */
#ifndef ACTSHARE_PLUGIN_SIBLING_H
#define ACTSHARE_PLUGIN_SIBLING_H

#include <stddef.h>

/* The symbol `symbol` of the library `name` in the folder of the library that holds
 * `anchor` (a function of the caller's own library). The library is opened with
 * RTLD_NODELETE: loaded at the first call, found again by dlopen at the next, never
 * unloaded. NULL with the reason in `error` when it cannot be opened or lacks
 * the symbol. */
void *sibling_symbol(const void *anchor, const char *name, const char *symbol, char *error, size_t error_size);

#endif
