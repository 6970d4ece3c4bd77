#include "as-request.h"

/* Names shown for several items: the first few, then "and N more". */
#define AS_REQUEST_MAX_NAMES 3

const char *as_json_string(json_object *object, const char *key) {
    json_object *value;
    return object && json_object_object_get_ex(object, key, &value) && json_object_is_type(value, json_type_string)
               ? json_object_get_string(value)
               : NULL;
}

/* The most targets read of one activity (actshare keeps at most 64). */
#define AS_REQUEST_MAX_TARGETS 64

static void target_free(gpointer data) {
    AsTarget *target = data;
    g_free(target->id);
    g_free(target->title);
    g_free(target->subtitle);
    g_free(target->image);
    g_free(target->kind);
    g_free(target);
}

static void activity_free(gpointer data) {
    AsActivity *activity = data;
    g_free(activity->type);
    g_free(activity->title);
    g_free(activity->image);
    g_free(activity->provider);
    g_ptr_array_unref(activity->targets);
    g_free(activity);
}

/* An activity's targets, those with an id and a title; at most AS_REQUEST_MAX_TARGETS. */
static GPtrArray *targets_from(json_object *entry) {
    GPtrArray *targets = g_ptr_array_new_with_free_func(target_free);
    json_object *list;
    if (!json_object_object_get_ex(entry, "targets", &list) || !json_object_is_type(list, json_type_array)) return targets;
    for (size_t i = 0; i < json_object_array_length(list) && targets->len < AS_REQUEST_MAX_TARGETS; i++) {
        json_object *item = json_object_array_get_idx(list, i);
        const char *id = as_json_string(item, "id"), *title = as_json_string(item, "title"), *kind = as_json_string(item, "kind");
        if (!id || !title) continue;
        AsTarget *target = g_new0(AsTarget, 1);
        target->id = g_strdup(id);
        target->title = g_strdup(title);
        target->subtitle = g_strdup(as_json_string(item, "subtitle"));
        const char *image = as_json_string(item, "image");
        target->image = image && image[0] != '/' ? g_strdup(image) : NULL;
        target->kind = g_strdup(kind ? kind : "place");
        g_ptr_array_add(targets, target);
    }
    return targets;
}

void as_request_free(AsRequest *request) {
    if (!request) return;
    g_free(request->heading);
    g_free(request->content_type);
    g_free(request->thumbnail);
    g_free(request->parent_window);
    g_free(request->performing);
    g_ptr_array_unref(request->names);
    g_ptr_array_unref(request->activities);
    g_free(request);
}

static guint64 unsigned_member(json_object *object, const char *key) {
    json_object *value;
    if (!json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_int)) return 0;
    int64_t number = json_object_get_int64(value);
    return number > 0 ? (guint64)number : 0;
}

AsRequest *as_request_new_from_json(json_object *root, char **error) {
    json_object *activities, *names;
    if (!root || !json_object_is_type(root, json_type_object) || !json_object_object_get_ex(root, "activities", &activities)
        || !json_object_is_type(activities, json_type_array)) {
        *error = g_strdup("run by actshare only (expected its JSON on standard input)");
        return NULL;
    }
    g_autoptr(AsRequest) request = g_new0(AsRequest, 1);
    request->names = g_ptr_array_new_with_free_func(g_free);
    request->activities = g_ptr_array_new_with_free_func(activity_free);
    request->heading = g_strdup(as_json_string(root, "heading"));
    request->content_type = g_strdup(as_json_string(root, "content-type"));
    const char *thumbnail = as_json_string(root, "thumbnail");
    request->thumbnail = thumbnail && thumbnail[0] == '/' ? g_strdup(thumbnail) : NULL;
    request->parent_window = g_strdup(as_json_string(root, "parent-window"));
    request->performing = g_strdup(as_json_string(root, "performing"));
    request->item_count = (guint)MIN(unsigned_member(root, "count"), G_MAXUINT);
    request->total_size = unsigned_member(root, "size");
    request->has_size = json_object_object_get_ex(root, "size", NULL);
    if (json_object_object_get_ex(root, "names", &names) && json_object_is_type(names, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(names) && i < AS_REQUEST_MAX_NAMES; i++) {
            json_object *name = json_object_array_get_idx(names, i);
            if (json_object_is_type(name, json_type_string)) g_ptr_array_add(request->names, g_strdup(json_object_get_string(name)));
        }
    }
    if (!request->heading && request->item_count == 0) {
        *error = g_strdup("the request names no items (no heading, no count)");
        return NULL;
    }
    for (size_t i = 0; i < json_object_array_length(activities); i++) {
        json_object *entry = json_object_array_get_idx(activities, i);
        const char *type = as_json_string(entry, "type"), *title = as_json_string(entry, "title");
        if (!type || !title) {
            *error = g_strdup_printf("activity %zu has no type or title", i + 1);
            return NULL;
        }
        AsActivity *activity = g_new0(AsActivity, 1);
        activity->type = g_strdup(type);
        activity->title = g_strdup(title);
        activity->image = g_strdup(as_json_string(entry, "image"));
        activity->provider = g_strdup(as_json_string(entry, "provider"));
        json_object *position;
        if (json_object_object_get_ex(entry, "position", &position) && json_object_is_type(position, json_type_int)) {
            activity->position = (guint)CLAMP(json_object_get_int64(position), 0, G_MAXINT);
        }
        activity->targets = targets_from(entry);
        g_ptr_array_add(request->activities, activity);
    }
    return g_steal_pointer(&request);
}
