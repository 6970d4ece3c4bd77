/* What Open With's front (../front.c) calls in its GIO part, which it opens from beside
 * itself (libopenwith-apps.so) when its cache cannot answer, and to launch. */
#ifndef ACTSHARE_OPEN_WITH_H
#define ACTSHARE_OPEN_WITH_H

#include <actshare/provider.h>

#define OPEN_WITH_APPS_LIBRARY "libopenwith-apps.so"

/* The first line of a cache file: a file of another format is not read. */
#define OPEN_WITH_CACHE_FORMAT "actshare-open-with 1"

/* can-perform through GIO: the applications that open the items, as targets, also
 * written to the cache file `cache` (NULL: none) for the next list to read. */
ACTSHARE_EXPORT int32_t open_with_apps_can_perform(const actshare_request *request, const char *cache);

/* perform: the chosen application (or the first), found again through GIO, launched. */
ACTSHARE_EXPORT int32_t open_with_apps_perform(const actshare_request *request, actshare_session *session);

#endif
