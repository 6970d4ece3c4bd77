/*
 * The service's own D-Bus errors, org.actshare.Share.Error.* (docs/DBUS.md): a program
 * switches on the name; the message is for its developer.
 */
#pragma once

#include <glib.h>

#define SHARE_ERROR (share_error_quark())

typedef enum {
    SHARE_ERROR_INVALID_ITEM,   /* an item that cannot be shared as given */
    SHARE_ERROR_INVALID_OPTION, /* an option actshare refused (an activity's option) */
    SHARE_ERROR_NO_ACTIVITY,    /* no activity can perform, or the one named is not offered */
    SHARE_ERROR_CANCELLED,      /* the user cancelled */
    SHARE_ERROR_FAILED,         /* the activity or its provider failed; the service could not run actshare */
} ShareError;

GQuark share_error_quark(void);

/* The D-Bus name of `code`, such as "org.actshare.Share.Error.Failed". */
const char *share_error_name(ShareError code);
