#include "share-results.h"

/* actshare's exit codes (docs/CLI.md). */
enum { EXIT_COMPLETED = 0, EXIT_USAGE = 2, EXIT_NO_ACTIVITY = 3, EXIT_CANCELLED = 4 };

static const char *string_member(json_object *object, const char *key) {
    json_object *value;
    if (object && json_object_object_get_ex(object, key, &value) && json_object_is_type(value, json_type_string)) {
        return json_object_get_string(value);
    }
    return NULL;
}

/* The members of `keys` that are strings in a JSON object, in that order. */
static void add_strings(GVariantBuilder *builder, json_object *object, const char *const *keys) {
    for (; *keys; keys++) {
        const char *value = string_member(object, *keys);
        if (value) g_variant_builder_add(builder, "{sv}", *keys, g_variant_new_string(value));
    }
}

/* A dictionary of `keys` (strings) and `size` (t) from a JSON object. */
static GVariant *dictionary(json_object *object, const char *const *keys) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{sv}"));
    add_strings(&builder, object, keys);
    json_object *size;
    if (json_object_object_get_ex(object, "size", &size) && json_object_is_type(size, json_type_int)) {
        g_variant_builder_add(&builder, "{sv}", "size", g_variant_new_uint64((guint64)json_object_get_int64(size)));
    }
    return g_variant_builder_end(&builder);
}

static GVariant *array(json_object *root, const char *key, const char *const *keys) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("aa{sv}"));
    json_object *value;
    if (root && json_object_object_get_ex(root, key, &value) && json_object_is_type(value, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(value); i++) {
            g_variant_builder_add_value(&builder, dictionary(json_object_array_get_idx(value, i), keys));
        }
    }
    return g_variant_builder_end(&builder);
}

GVariant *share_results_new(json_object *root, int exit_status, const char *message, ShareResponse *response) {
    static const char *const item_keys[] = {"kind", "path", "url", "text", "content_type", NULL};
    json_object *value;
    gboolean completed = root && json_object_object_get_ex(root, "completed", &value) && json_object_get_boolean(value);
    const char *error = string_member(root, "error");
    if (!root) error = message && *message ? message : "actshare ended without a result";
    ShareError code = SHARE_ERROR_FAILED;
    if (completed && exit_status == EXIT_COMPLETED) {
        *response = SHARE_RESPONSE_DONE;
    } else if (root && exit_status == EXIT_CANCELLED) {
        *response = SHARE_RESPONSE_CANCELLED;
        code = SHARE_ERROR_CANCELLED;
    } else {
        *response = SHARE_RESPONSE_ENDED;
        code = exit_status == EXIT_NO_ACTIVITY ? SHARE_ERROR_NO_ACTIVITY
             : exit_status == EXIT_USAGE       ? SHARE_ERROR_INVALID_OPTION
                                               : SHARE_ERROR_FAILED;
    }
    GVariantBuilder results;
    g_variant_builder_init(&results, G_VARIANT_TYPE("a{sv}"));
    const char *activity = string_member(root, "activity");
    g_variant_builder_add(&results, "{sv}", "activity", g_variant_new_string(activity ? activity : ""));
    g_variant_builder_add(&results, "{sv}", "completed", g_variant_new_boolean(*response == SHARE_RESPONSE_DONE));
    g_variant_builder_add(&results, "{sv}", "error", g_variant_new_string(error ? error : ""));
    if (*response != SHARE_RESPONSE_DONE) {
        g_variant_builder_add(&results, "{sv}", "error_name", g_variant_new_string(share_error_name(code)));
    }
    g_variant_builder_add(&results, "{sv}", "returned_items", array(root, "returned_items", item_keys));
    return g_variant_builder_end(&results);
}

GVariant *share_activities_new(json_object *root) {
    static const char *const activity_keys[] = {"type", "title", "image", "category", "provider", NULL};
    static const char *const target_keys[] = {"id", "title", "subtitle", "image", "kind", NULL};
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("aa{sv}"));
    json_object *activities;
    if (root && json_object_object_get_ex(root, "activities", &activities) && json_object_is_type(activities, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(activities); i++) {
            json_object *activity = json_object_array_get_idx(activities, i);
            /* The activity's members, then its targets (a subtitle or image that is null left out). */
            GVariantBuilder entry;
            g_variant_builder_init(&entry, G_VARIANT_TYPE("a{sv}"));
            add_strings(&entry, activity, activity_keys);
            g_variant_builder_add(&entry, "{sv}", "targets", array(activity, "targets", target_keys));
            g_variant_builder_add_value(&builder, g_variant_builder_end(&entry));
        }
    }
    return g_variant_builder_end(&builder);
}
