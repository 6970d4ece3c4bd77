#ifndef CGIO_SHIM_H
#define CGIO_SHIM_H

// Only GIO's content-type API is used: shared-mime-info lookups with subclassing.
#include <gio/gio.h>

#endif
