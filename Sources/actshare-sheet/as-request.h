/*
 * What actshare asks the window to show: the first line of the conversation
 * (docs/DESKTOP.md, "The sheet's conversation"), read into plain values. Everything in it
 * is outside text (file names, a provider's titles), shown, never interpreted.
 */
#pragma once

#include <glib.h>
#include <json.h>

/* A place an activity can go to, as its provider offered it (docs/PLUGINS.md, "Targets"). */
typedef struct {
    char *id;       /* answered back when chosen */
    char *title;    /* what a person reads */
    char *subtitle; /* a second line, or NULL */
    char *image;    /* a freedesktop icon name, or NULL (a path is not read: the kind's icon) */
    char *kind;     /* "device", "person", "app" or "place" */
} AsTarget;

typedef struct {
    char *type;     /* reverse-DNS activity type, answered back when chosen */
    char *title;    /* what a person reads */
    char *image;    /* a freedesktop icon name or an absolute path; NULL: a generic icon */
    char *provider; /* its provider's id: a target two of its activities offer is one tile */
    guint position; /* its place among its provider's activities: the first is a tile's main button */
    GPtrArray *targets; /* (AsTarget *) in the provider's order */
} AsActivity;

typedef struct {
    char *heading;      /* one item's name, URL or text's first line; NULL for several */
    char *content_type; /* one item's MIME type; NULL for several */
    char *thumbnail;    /* an image file to show small (checked before it is read) */
    char *parent_window; /* x11:XID or wayland:HANDLE */
    char *performing;   /* the chosen activity's title: the window opens on its progress */
    guint item_count;
    guint64 total_size; /* bytes of the files among the items (one file: its size) */
    gboolean has_size;  /* whether total_size was given (a file, or several items) */
    GPtrArray *names;   /* (char *) the first items' names, for several */
    GPtrArray *activities; /* (AsActivity *) in offer order */
} AsRequest;

/* The request in `root`; NULL with `error` set (a sentence for the terminal) when it is
 * not one. */
AsRequest *as_request_new_from_json(json_object *root, char **error);
void as_request_free(AsRequest *request);

/* A string member of `object`, or NULL. */
const char *as_json_string(json_object *object, const char *key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AsRequest, as_request_free)
