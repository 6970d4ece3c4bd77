/*
 * From what `actshare share --json` and `actshare list --json` print to D-Bus values
 * (docs/CLI.md has the JSON, docs/DBUS.md the values).
 */
#pragma once

#include "share-error.h"

#include <glib.h>
#include <json.h>

/* The portals' response codes (org.freedesktop.portal.Request). */
typedef enum {
    SHARE_RESPONSE_DONE = 0,
    SHARE_RESPONSE_CANCELLED = 1,
    SHARE_RESPONSE_ENDED = 2,
} ShareResponse;

/* A share's results (a{sv}: activity, completed, error, error_name, returned_items) from
 * actshare's result `root` (NULL when it printed none: then `message`, what it said on
 * standard error, is the error) and its exit status; its response code in `response`. */
GVariant *share_results_new(json_object *root, int exit_status, const char *message, ShareResponse *response);

/* The activities (aa{sv}) from `actshare list --json`'s `root`. */
GVariant *share_activities_new(json_object *root);
