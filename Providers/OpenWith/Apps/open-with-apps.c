/*
 * Open With's GIO part: the installed applications that open the items, as targets of one
 * activity (provider.h ABI 3), found through GIO's GAppInfo for each item's content type: those
 * registered for every item's type, the user's default for the first item's type first,
 * mimeapps.list's added and removed associations as GIO applies them. Left out: entries
 * with NoDisplay or Hidden (GIO's g_app_info_should_show), actshare's own, and those that
 * cannot take what is shared: several items need an Exec that takes a list (%F or %U),
 * a URL one that takes URIs (%u or %U). Text becomes a file NAME.txt in a private folder
 * of $XDG_RUNTIME_DIR, removed once the application that opened it has ended.
 *
 * Applications start through GIO (GDesktopAppInfo expands Exec itself: no shell, and a
 * D-Bus-activatable one is activated over the bus), in actshare's process: the user's own
 * applications run as the user anyway, and a sandbox would be theirs.
 *
 * GIO reads every desktop file and starts a thread to watch them, about 10 ms: more than
 * the rest of a `list`. So what it finds is also written to a cache file, which the front
 * reads at the next list while the applications' folders and mimeapps.list are unchanged.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "open-with.h"

#include <gio/gdesktopappinfo.h>
#include <gio/gio.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>


/* The content type GIO is asked about for an item: its own, text/plain for text. */
static const char *type_of(const actshare_item *item) {
    if (item->kind == ACTSHARE_ITEM_TEXT) return "text/plain";
    return item->content_type && *item->content_type ? item->content_type : "application/octet-stream";
}

/* Whether the application's Exec line has one of `codes` (such as "FU" for %F and %U). */
static int exec_takes(GAppInfo *app, const char *codes) {
    const char *exec = g_app_info_get_commandline(app);
    for (const char *at = exec ? strchr(exec, '%') : NULL; at && at[1]; at = strchr(at + 2, '%')) {
        if (at[1] != '%' && strchr(codes, at[1])) return 1;
    }
    return 0;
}

/* Whether `app` may be offered for the request's items (beyond being registered for
 * their types). */
static int suits(GAppInfo *app, const actshare_request *request) {
    const char *id = g_app_info_get_id(app);
    if (!G_IS_DESKTOP_APP_INFO(app) || !id || !g_app_info_should_show(app)) return 0;
    if (g_str_has_prefix(id, "actshare") || g_str_has_prefix(id, "org.actshare.")) return 0;
    if (request->item_count > 1 && !exec_takes(app, "FU")) return 0;
    for (size_t i = 0; i < request->item_count; i++) {
        if (request->items[i].kind == ACTSHARE_ITEM_URL && !exec_takes(app, "uU")) return 0;
        if (request->items[i].kind == ACTSHARE_ITEM_DATA) return 0;
    }
    return 1;
}

/* Whether `list` has an application of `id`. */
static int has_id(GList *list, const char *id) {
    for (GList *l = list; l; l = l->next) {
        if (g_strcmp0(g_app_info_get_id(l->data), id) == 0) return 1;
    }
    return 0;
}

/* The applications that open every item, the default for the first item's type first;
 * at most ACTSHARE_MAX_TARGETS. Free with g_list_free_full(…, g_object_unref). */
static GList *applications_for(const actshare_request *request) {
    if (request->item_count == 0) return NULL;
    const char *first = type_of(&request->items[0]);
    GList *candidates = g_app_info_get_all_for_type(first);
    GAppInfo *preferred = g_app_info_get_default_for_type(first, FALSE);
    if (preferred && !has_id(candidates, g_app_info_get_id(preferred))) g_clear_object(&preferred);
    GList *chosen = NULL;
    guint count = 0;
    if (preferred && suits(preferred, request)) {
        chosen = g_list_append(chosen, g_object_ref(preferred));
        count++;
    }
    for (GList *l = candidates; l && count < ACTSHARE_MAX_TARGETS; l = l->next) {
        GAppInfo *app = l->data;
        if (has_id(chosen, g_app_info_get_id(app)) || !suits(app, request)) continue;
        int opens_all = 1;
        for (size_t i = 1; i < request->item_count && opens_all; i++) {
            GList *others = g_app_info_get_all_for_type(type_of(&request->items[i]));
            opens_all = has_id(others, g_app_info_get_id(app));
            g_list_free_full(others, g_object_unref);
        }
        if (!opens_all) continue;
        chosen = g_list_append(chosen, g_object_ref(app));
        count++;
    }
    /* The default is checked against the other items too. */
    if (preferred && chosen && chosen->data == preferred) {
        for (size_t i = 1; i < request->item_count; i++) {
            GList *others = g_app_info_get_all_for_type(type_of(&request->items[i]));
            int opens = has_id(others, g_app_info_get_id(preferred));
            g_list_free_full(others, g_object_unref);
            if (!opens) {
                chosen = g_list_remove(chosen, preferred);
                g_object_unref(preferred);
                break;
            }
        }
    }
    g_clear_object(&preferred);
    g_list_free_full(candidates, g_object_unref);
    return chosen;
}

/* An application's icon as a target's image: a themed icon's first name, or a file's path. */
static char *image_of(GAppInfo *app) {
    GIcon *icon = g_app_info_get_icon(app);
    if (G_IS_THEMED_ICON(icon)) {
        const char *const *names = g_themed_icon_get_names(G_THEMED_ICON(icon));
        return names && names[0] ? g_strdup(names[0]) : NULL;
    }
    if (G_IS_FILE_ICON(icon)) return g_file_get_path(g_file_icon_get_file(G_FILE_ICON(icon)));
    return NULL;
}

/* A field of a cache line: tabs and line breaks become spaces. */
static void put_field(GString *line, const char *text) {
    for (const char *at = text ? text : ""; *at; at++) g_string_append_c(line, *at == '\t' || *at == '\n' || *at == '\r' ? ' ' : *at);
}

/* Writes the answer to `cache` (atomically, mode 0600); a failure only costs the next
 * list GIO's time. Old answers go: those of another state of the applications' folders
 * (another name prefix, up to the '-'), and all others once there are too many. */
static void write_cache(const char *cache, GList *apps) {
    GString *text = g_string_new(OPEN_WITH_CACHE_FORMAT "\n");
    if (!apps) g_string_append(text, "none\n");
    for (GList *l = apps; l; l = l->next) {
        g_autofree char *image = image_of(l->data);
        put_field(text, g_app_info_get_id(l->data));
        g_string_append_c(text, '\t');
        put_field(text, g_app_info_get_display_name(l->data));
        g_string_append_c(text, '\t');
        put_field(text, image);
        g_string_append_c(text, '\n');
    }
    g_autofree char *folder = g_path_get_dirname(cache);
    g_autofree char *name = g_path_get_basename(cache);
    const char *dash = strchr(name, '-');
    size_t state = dash ? (size_t)(dash - name) : strlen(name);
    if (g_mkdir_with_parents(folder, 0700) == 0) {
        GDir *dir = g_dir_open(folder, 0, NULL);
        guint kept = 0;
        for (const char *entry; dir && (entry = g_dir_read_name(dir));) {
            if (strncmp(entry, name, state) == 0 && entry[state] == '-' && kept++ < 256) continue;
            g_autofree char *old = g_build_filename(folder, entry, NULL);
            unlink(old);
        }
        if (dir) g_dir_close(dir);
        g_file_set_contents_full(cache, text->str, (gssize)text->len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, NULL);
    }
    g_string_free(text, TRUE);
}

int32_t open_with_apps_can_perform(const actshare_request *request, const char *cache) {
    GList *apps = applications_for(request);
    if (cache) write_cache(cache, apps);
    if (!apps) {
        actshare_decline(request, request->item_count > 1 ? "No installed application opens all of these items at once"
                                                          : "No installed application opens this item");
        return 0;
    }
    for (GList *l = apps; l; l = l->next) {
        GAppInfo *app = l->data;
        g_autofree char *image = image_of(app);
        actshare_target target = {sizeof target, ACTSHARE_TARGET_APP, g_app_info_get_id(app), g_app_info_get_display_name(app),
                                  NULL, image};
        actshare_add_target(request, &target);
    }
    g_list_free_full(apps, g_object_unref);
    return 1;
}

/* ---- Text as a file ------------------------------------------------------------------ */

/* A file name from text's first line: at most 40 bytes of letters, digits, spaces and
 * a few signs, cut between characters; "Text" when nothing of it is left. */
static char *name_for_text(const char *text) {
    GString *name = g_string_new(NULL);
    for (const char *at = text; *at && *at != '\n' && *at != '\r' && name->len < 40;) {
        gunichar c = g_utf8_get_char_validated(at, -1);
        if (c == (gunichar)-1 || c == (gunichar)-2) break;
        if (g_unichar_isalnum(c) || c == ' ' || c == '-' || c == '_' || c == ',') g_string_append_unichar(name, c);
        at = g_utf8_next_char(at);
    }
    g_strstrip(name->str);
    name->len = strlen(name->str);
    if (name->len == 0) g_string_assign(name, "Text");
    g_string_append(name, ".txt");
    return g_string_free(name, FALSE);
}

/* Writes `text` into a new private folder of $XDG_RUNTIME_DIR/actshare as NAME.txt; the
 * folder's and the file's paths, or -1 with `error` set. */
static int write_text(const char *text, char **folder, char **file, GError **error) {
    const char *runtime = g_get_user_runtime_dir();
    g_autofree char *base = g_build_filename(runtime, "actshare", NULL);
    if (g_mkdir_with_parents(base, 0700) != 0) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "cannot make %s: %s", base, g_strerror(errno));
        return -1;
    }
    g_autofree char *template = g_build_filename(base, "open-with-XXXXXX", NULL);
    if (!g_mkdtemp_full(template, 0700)) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "cannot make a folder in %s: %s", base, g_strerror(errno));
        return -1;
    }
    g_autofree char *name = name_for_text(text);
    g_autofree char *path = g_build_filename(template, name, NULL);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    size_t length = strlen(text), written = 0;
    while (fd >= 0 && written < length) {
        ssize_t count = write(fd, text + written, length - written);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        written += (size_t)count;
    }
    if (fd < 0 || written < length || close(fd) != 0) {
        int code = errno;
        if (fd >= 0) unlink(path);
        rmdir(template);
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(code), "cannot write %s: %s", path, g_strerror(code));
        return -1;
    }
    *folder = g_steal_pointer(&template);
    *file = g_steal_pointer(&path);
    return 0;
}

/* Removes `file` and `folder` once process `pid` has ended, from a process of its own
 * (started twice, so that nobody waits for it), which holds no descriptor of actshare's:
 * a reader of actshare's output sees it end. Only system calls run after the fork. */
static void remove_when_ended(pid_t pid, const char *file, const char *folder) {
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) return; /* Ended already, or unknown: the files stay until logout empties $XDG_RUNTIME_DIR. */
    pid_t child = fork();
    if (child == 0) {
        if (fork() == 0) {
            setsid();
            syscall(SYS_close_range, 0U, (unsigned)pidfd - 1, 0U);
            syscall(SYS_close_range, (unsigned)pidfd + 1, ~0U, 0U);
            struct pollfd ended = {pidfd, POLLIN, 0};
            while (poll(&ended, 1, -1) < 0 && errno == EINTR) {}
            unlink(file);
            rmdir(folder);
        }
        _exit(0);
    }
    close(pidfd);
    if (child > 0) waitpid(child, NULL, 0);
}

/* ---- Launching ----------------------------------------------------------------------- */

static void on_launched(GDesktopAppInfo *app, GPid pid, gpointer data) {
    (void)app;
    *(GPid *)data = pid;
}

int32_t open_with_apps_perform(const actshare_request *request, actshare_session *session) {
    const char *chosen = actshare_request_target(request);
    GList *apps = applications_for(request);
    GAppInfo *app = NULL;
    for (GList *l = apps; l && !app; l = l->next) {
        if (!chosen || g_strcmp0(g_app_info_get_id(l->data), chosen) == 0) app = g_object_ref(l->data);
    }
    g_list_free_full(apps, g_object_unref);
    if (!app) {
        session->set_error(session, chosen ? "that application no longer opens these items" : "no installed application opens these items");
        return ACTSHARE_STATUS_FAILED;
    }
    g_autofree char *folder = NULL, *text_file = NULL;
    GList *uris = NULL;
    g_autoptr(GError) error = NULL;
    for (size_t i = 0; i < request->item_count && !error; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_TEXT) {
            if (text_file) continue; /* one text a launch; actshare hands several as several items */
            if (write_text(item->text ? item->text : "", &folder, &text_file, &error) == 0) {
                uris = g_list_append(uris, g_filename_to_uri(text_file, NULL, NULL));
            }
        } else if (item->kind == ACTSHARE_ITEM_FILE && item->path) {
            uris = g_list_append(uris, g_filename_to_uri(item->path, NULL, NULL));
        } else if (item->uri) {
            uris = g_list_append(uris, g_strdup(item->uri));
        }
    }
    GPid pid = 0;
    if (!error) {
        g_autoptr(GAppLaunchContext) context = g_app_launch_context_new();
        /* A token the desktop gave actshare for the window the person acted in goes on to
         * the application, so that it may take the focus (xdg-activation, startup
         * notification). */
        const char *token = g_getenv("XDG_ACTIVATION_TOKEN");
        if (token) g_app_launch_context_setenv(context, "XDG_ACTIVATION_TOKEN", token);
        const char *startup = g_getenv("DESKTOP_STARTUP_ID");
        if (startup) g_app_launch_context_setenv(context, "DESKTOP_STARTUP_ID", startup);
        /* Its output is its own: not on actshare's terminal, nor in a --json reader's pipe,
         * which would stay open while it runs. */
        int nothing = open("/dev/null", O_RDWR | O_CLOEXEC);
        g_desktop_app_info_launch_uris_as_manager_with_fds(G_DESKTOP_APP_INFO(app), uris, context,
                                                           G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                                           on_launched, &pid, nothing, nothing, nothing, &error);
        if (nothing >= 0) close(nothing);
    }
    g_list_free_full(uris, g_free);
    if (error) {
        if (text_file) unlink(text_file);
        if (folder) rmdir(folder);
        g_autofree char *message = g_strdup_printf("%s could not be started: %s", g_app_info_get_display_name(app), error->message);
        session->set_error(session, message);
        g_object_unref(app);
        return ACTSHARE_STATUS_FAILED;
    }
    if (text_file && pid > 0) remove_when_ended(pid, text_file, folder);
    g_autofree char *line = g_strdup_printf("opened in %s", g_app_info_get_display_name(app));
    session->log(session, ACTSHARE_LOG_INFO, line);
    g_object_unref(app);
    return ACTSHARE_STATUS_DONE;
}
