/* What the built-in providers read from a request where they have no session to ask (a
 * can-perform hook). */
#ifndef ACTSHARE_PLUGIN_REQUEST_H
#define ACTSHARE_PLUGIN_REQUEST_H

#include <actshare/provider.h>

/* The value of the option `name` the request carries, or NULL. */
const char *request_option(const actshare_request *request, const char *name);

#endif
