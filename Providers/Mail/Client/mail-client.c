/*
 * Mail's GIO part: the user's mail client, opened on a compose window with the draft and
 * the items attached. The client is the application GIO names for `mailto` links (the
 * desktop's "Default Applications"); actshare knows how to hand attachments to a few, each
 * its own way, since a mailto: link cannot carry them (xdg-email's --attach was cut back
 * after CVE-2020-27748):
 *
 *   Thunderbird, Betterbird  -compose to=…,subject=…,body=…,attachment=…  (see thunderbird_compose)
 *   Claws Mail               --compose mailto:…?subject=…&body=… --attach FILE…
 *   Evolution, Geary         mailto:…?subject=…&body=…&attach=file:///…
 *   KMail                    --subject … --body … --attach FILE… -- ADDRESS
 *   mutt, neomutt            -s … -c … -b … -i BODY -a FILE… -- ADDRESS, in the user's terminal
 *
 * The command line starts from the application's Exec (its field codes left out), and
 * every value is one argument of its own: no shell ever reads them. Data items and mutt's
 * body are written into a private folder of $XDG_CACHE_HOME/actshare/mail, which lives
 * for a week, since a client reads its attachments when the message is sent, not when
 * the window opens, and a client already running may take the draft over and exit at once.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "client.h"
#include "io.h"

#include <gio/gdesktopappinfo.h>
#include <gio/gio.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How a known client takes a draft. */
typedef enum client_way {
    WAY_THUNDERBIRD,
    WAY_CLAWS,
    WAY_MAILTO,
    WAY_KMAIL,
    WAY_MUTT,
} client_way;

static const struct {
    const char *executable;
    client_way way;
} known_clients[] = {
    {"thunderbird", WAY_THUNDERBIRD}, {"thunderbird-bin", WAY_THUNDERBIRD}, {"betterbird", WAY_THUNDERBIRD},
    {"claws-mail", WAY_CLAWS},        {"evolution", WAY_MAILTO},            {"geary", WAY_MAILTO},
    {"kmail", WAY_KMAIL},             {"mutt", WAY_MUTT},                   {"neomutt", WAY_MUTT},
};

/* Linux's limit on one argument (MAX_ARG_STRLEN): a longer one fails to start. */
#define ARGUMENT_LIMIT (32 * 4096)
/* How long the private folders of earlier drafts are kept. */
#define DRAFT_FOLDER_DAYS 7

/* The chosen client: its GIO entry and how it takes a draft. */
typedef struct client {
    GAppInfo *app;
    client_way way;
    int on_terminal; /* mutt: the terminal actshare runs on (0 with a terminal emulator) */
} client;

static int has_display(void) {
    const char *x11 = g_getenv("DISPLAY"), *wayland = g_getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

/* Whether the user runs actshare on a terminal a client can take over: its input is
 * one, and it has a controlling terminal. */
static int on_a_terminal(void) {
    if (!isatty(STDIN_FILENO)) return 0;
    int terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (terminal < 0) return 0;
    close(terminal);
    return 1;
}

/* The user's mailto client, if actshare can use it here: 0, or -1 with `why` said. */
static int find_client(client *out, char *why, size_t why_size) {
    GAppInfo *app = g_app_info_get_default_for_uri_scheme("mailto");
    if (!app) {
        snprintf(why, why_size, "no application is set for mailto links");
        return -1;
    }
    const char *executable = G_IS_DESKTOP_APP_INFO(app) ? g_app_info_get_executable(app) : NULL;
    g_autofree char *base = executable ? g_path_get_basename(executable) : g_strdup("");
    for (size_t i = 0; i < G_N_ELEMENTS(known_clients); i++) {
        if (strcmp(base, known_clients[i].executable) != 0) continue;
        client found = {app, known_clients[i].way, 0};
        if (found.way == WAY_MUTT) {
            found.on_terminal = on_a_terminal();
            if (!found.on_terminal && !(has_display() && g_file_test("/usr/bin/x-terminal-emulator", G_FILE_TEST_IS_EXECUTABLE))) {
                snprintf(why, why_size, "the application for mailto links, %s, runs in a terminal, and actshare has none here",
                         g_app_info_get_display_name(app));
                g_object_unref(app);
                return -1;
            }
        } else if (!has_display()) {
            snprintf(why, why_size, "the application for mailto links, %s, needs a desktop, and there is none here (no DISPLAY or WAYLAND_DISPLAY)",
                     g_app_info_get_display_name(app));
            g_object_unref(app);
            return -1;
        }
        *out = found;
        return 0;
    }
    snprintf(why, why_size, "the application for mailto links, %s (%s), is not a mail client actshare can hand attachments to",
             g_app_info_get_display_name(app), g_app_info_get_id(app) ? g_app_info_get_id(app) : base);
    g_object_unref(app);
    return -1;
}

int mail_client_choose(char *said, size_t said_size) {
    client found;
    char why[512];
    if (find_client(&found, why, sizeof why) != 0) {
        snprintf(said, said_size, "%s", why);
        return MAIL_CLIENT_NONE;
    }
    snprintf(said, said_size, "Mail opens %s (%s), the application for mailto links%s", g_app_info_get_display_name(found.app),
             g_app_info_get_id(found.app), found.way == WAY_MUTT ? (found.on_terminal ? ", on this terminal" : ", in a terminal window") : "");
    g_object_unref(found.app);
    return MAIL_CLIENT_OPENED;
}

/* ---- The draft's files --------------------------------------------------------------- */

/* Removes the folder `name` of `directory` with the files in it (never following a link). */
static void remove_folder_at(int directory, const char *name) {
    int inner = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *files = inner >= 0 ? fdopendir(inner) : NULL;
    for (struct dirent *file; files && (file = readdir(files));) {
        if (strcmp(file->d_name, ".") != 0 && strcmp(file->d_name, "..") != 0) unlinkat(inner, file->d_name, 0);
    }
    if (files) closedir(files);
    else if (inner >= 0) close(inner);
    unlinkat(directory, name, AT_REMOVEDIR);
}

/* Removes a draft's folder once its client has read it (mutt, when it ends). */
static void remove_draft_folder(const char *folder) {
    g_autofree char *parent = g_path_get_dirname(folder), *name = g_path_get_basename(folder);
    int directory = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (directory < 0) return;
    remove_folder_at(directory, name);
    close(directory);
}

/* Removes the folders of drafts older than DRAFT_FOLDER_DAYS from `base`. */
static void prune_old_drafts(const char *base) {
    int directory = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (directory < 0) return;
    DIR *listing = fdopendir(dup(directory));
    time_t oldest = time(NULL) - DRAFT_FOLDER_DAYS * 24 * 3600;
    for (struct dirent *entry; listing && (entry = readdir(listing));) {
        struct stat folder;
        if (entry->d_name[0] != '.' && fstatat(directory, entry->d_name, &folder, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISDIR(folder.st_mode) && folder.st_mtime <= oldest) {
            remove_folder_at(directory, entry->d_name);
        }
    }
    if (listing) closedir(listing);
    close(directory);
}

/* A new private folder for one draft's files: its path, or NULL with `error` set. */
static char *draft_folder(GError **error) {
    g_autofree char *base = g_build_filename(g_get_user_cache_dir(), "actshare", "mail", NULL);
    if (g_mkdir_with_parents(base, 0700) != 0) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "cannot make %s: %s", base, g_strerror(errno));
        return NULL;
    }
    prune_old_drafts(base);
    char *folder = g_build_filename(base, "draft-XXXXXX", NULL);
    if (!g_mkdtemp_full(folder, 0700)) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "cannot make a folder in %s: %s", base, g_strerror(errno));
        g_free(folder);
        return NULL;
    }
    return folder;
}

/* Writes `length` bytes as `name` in the draft's folder (made at the first call): its
 * path, or NULL with `error` set. */
static char *write_draft_file(char **folder, const char *name, const void *bytes, size_t length, GError **error) {
    if (!*folder && !(*folder = draft_folder(error))) return NULL;
    char *path = g_build_filename(*folder, name, NULL);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || write_all(fd, bytes, length) != 0 || close(fd) != 0) {
        int code = errno;
        if (fd >= 0) unlink(path);
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(code), "cannot write %s: %s", path, g_strerror(code));
        g_free(path);
        return NULL;
    }
    return path;
}

/* The file name of the n-th data item: "attachment-N.EXT", the extension from its type. */
static char *data_name(const actshare_item *item, size_t n) {
    const char *type = item->content_type ? item->content_type : "";
    g_autofree char *extension = NULL;
    if (strcmp(type, "text/plain") == 0) extension = g_strdup("txt");
    else if (g_str_has_prefix(type, "image/") || strcmp(type, "application/pdf") == 0 || strcmp(type, "application/json") == 0) {
        extension = g_strdup(strchr(type, '/') + 1);
        if (!g_regex_match_simple("^[a-z0-9]{1,8}$", extension, 0, 0)) g_clear_pointer(&extension, g_free);
    }
    return g_strdup_printf("attachment-%zu.%s", n, extension ? extension : "bin");
}

/* The attachments' paths: the file items', and the data items' as written. */
static GPtrArray *attachments_of(const actshare_request *request, char **folder, GError **error) {
    GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
    size_t data_items = 0;
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_FILE && item->path) {
            g_ptr_array_add(paths, g_strdup(item->path));
        } else if (item->kind == ACTSHARE_ITEM_DATA) {
            g_autofree char *name = data_name(item, ++data_items);
            char *path = write_draft_file(folder, name, item->data ? item->data : "", item->data_length, error);
            if (!path) {
                g_ptr_array_unref(paths);
                return NULL;
            }
            g_ptr_array_add(paths, path);
        }
    }
    return paths;
}

/* ---- Each client's command line ------------------------------------------------------- */

static int given(const char *value) {
    return value && *value;
}

/* The application's Exec as arguments, its field codes (%u, %U, %f…) left out. */
static GPtrArray *base_arguments(GAppInfo *app, GError **error) {
    const char *commandline = g_app_info_get_commandline(app);
    char **parsed = NULL;
    if (!commandline || !g_shell_parse_argv(commandline, NULL, &parsed, error)) {
        if (error && !*error) g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "its desktop entry has no command");
        return NULL;
    }
    GPtrArray *arguments = g_ptr_array_new_with_free_func(g_free);
    for (char **argument = parsed; *argument; argument++) {
        if ((*argument)[0] == '%' && (*argument)[1] && !(*argument)[2] && (*argument)[1] != '%') continue;
        GString *kept = g_string_new(NULL);
        for (const char *c = *argument; *c; c++) {
            if (c[0] == '%' && c[1] == '%') c++;
            g_string_append_c(kept, *c);
        }
        g_ptr_array_add(arguments, g_string_free(kept, FALSE));
    }
    g_strfreev(parsed);
    return arguments;
}

static char *escaped(const char *value) {
    return g_uri_escape_string(value ? value : "", NULL, FALSE);
}

/* Thunderbird's -compose list. Its reader (MsgComposeCommands.js, GetArgs) splits at
 * commas outside '…' quotes, takes a quoted value raw up to a quote that a comma follows,
 * and URI-decodes an unquoted one. So every value goes unquoted and percent-encoded: a
 * comma or a quote in it stays itself. The attachments are one value, a comma-separated
 * list of file: URIs (in which a comma is %2C), encoded once more as a whole. */
static char *thunderbird_compose(const mail_draft *draft, GPtrArray *attachments) {
    GString *list = g_string_new(NULL);
    const char *names[] = {"to", "cc", "bcc", "from", "subject", "body"};
    const char *values[] = {draft->to, draft->cc, draft->bcc, draft->from, draft->subject, draft->body};
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!given(values[i])) continue;
        g_autofree char *value = escaped(values[i]);
        g_string_append_printf(list, "%s%s=%s", list->len ? "," : "", names[i], value);
    }
    if (attachments->len) {
        GString *uris = g_string_new(NULL);
        for (guint i = 0; i < attachments->len; i++) {
            g_autofree char *path = g_uri_escape_string(attachments->pdata[i], "/", FALSE);
            g_string_append_printf(uris, "%sfile://%s", i ? "," : "", path);
        }
        g_autofree char *value = escaped(uris->str);
        g_string_free(uris, TRUE);
        g_string_append_printf(list, "%sattachment=%s", list->len ? "," : "", value);
    }
    /* Plain text: what actshare puts in the body is text, not HTML to be read as such. */
    g_string_append_printf(list, "%sformat=text", list->len ? "," : "");
    return g_string_free(list, FALSE);
}

/* A mailto: URI with the draft's fields (RFC 6068), and attach= for each file when
 * `attach` (Evolution and Geary read it; Claws Mail takes --attach instead). */
static char *mailto_uri(const mail_draft *draft, GPtrArray *attachments, int attach) {
    g_autofree char *to = escaped(draft->to);
    GString *uri = g_string_new("mailto:");
    g_string_append(uri, to);
    const char *names[] = {"cc", "bcc", "subject", "body"};
    const char *values[] = {draft->cc, draft->bcc, draft->subject, draft->body};
    char separator = '?';
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!given(values[i])) continue;
        g_autofree char *value = escaped(values[i]);
        g_string_append_printf(uri, "%c%s=%s", separator, names[i], value);
        separator = '&';
    }
    for (guint i = 0; attach && i < attachments->len; i++) {
        g_autofree char *file = g_filename_to_uri(attachments->pdata[i], NULL, NULL);
        g_autofree char *value = escaped(file);
        g_string_append_printf(uri, "%cattach=%s", separator, value);
        separator = '&';
    }
    return g_string_free(uri, FALSE);
}

#define ADD(arguments, value) g_ptr_array_add((arguments), g_strdup(value))

/* The client's whole command line for the draft, or NULL with `error` set. */
static GPtrArray *compose_arguments(const client *chosen, const mail_draft *draft, GPtrArray *attachments, char **folder,
                                    GError **error) {
    GPtrArray *arguments = base_arguments(chosen->app, error);
    if (!arguments) return NULL;
    switch (chosen->way) {
    case WAY_THUNDERBIRD:
        ADD(arguments, "-compose");
        g_ptr_array_add(arguments, thunderbird_compose(draft, attachments));
        break;
    case WAY_CLAWS:
        ADD(arguments, "--compose");
        g_ptr_array_add(arguments, mailto_uri(draft, attachments, 0));
        if (attachments->len) ADD(arguments, "--attach");
        for (guint i = 0; i < attachments->len; i++) ADD(arguments, attachments->pdata[i]);
        break;
    case WAY_MAILTO:
        g_ptr_array_add(arguments, mailto_uri(draft, attachments, 1));
        break;
    case WAY_KMAIL: {
        const char *options[] = {"--cc", "--bcc", "--subject", "--body"};
        const char *values[] = {draft->cc, draft->bcc, draft->subject, draft->body};
        for (size_t i = 0; i < G_N_ELEMENTS(options); i++) {
            if (!given(values[i])) continue;
            ADD(arguments, options[i]);
            ADD(arguments, values[i]);
        }
        for (guint i = 0; i < attachments->len; i++) {
            ADD(arguments, "--attach");
            ADD(arguments, attachments->pdata[i]);
        }
        ADD(arguments, "--");
        if (given(draft->to)) ADD(arguments, draft->to);
        break;
    }
    case WAY_MUTT: {
        /* mutt takes no body on its command line: it includes a file (-i). The sender is
         * its own configuration's (a `set from=` would be muttrc text, never built here). */
        const char *options[] = {"-s", "-c", "-b"};
        const char *values[] = {draft->subject, draft->cc, draft->bcc};
        for (size_t i = 0; i < G_N_ELEMENTS(options); i++) {
            if (!given(values[i])) continue;
            ADD(arguments, options[i]);
            ADD(arguments, values[i]);
        }
        if (given(draft->body)) {
            char *body = write_draft_file(folder, "message.txt", draft->body, strlen(draft->body), error);
            if (!body) {
                g_ptr_array_unref(arguments);
                return NULL;
            }
            ADD(arguments, "-i");
            g_ptr_array_add(arguments, body);
        }
        if (attachments->len) ADD(arguments, "-a");
        for (guint i = 0; i < attachments->len; i++) ADD(arguments, attachments->pdata[i]);
        ADD(arguments, "--");
        if (given(draft->to)) ADD(arguments, draft->to);
        break;
    }
    }
    g_ptr_array_add(arguments, NULL);
    return arguments;
}

/* ---- Starting it -------------------------------------------------------------------- */

/* Starts `argv` apart from actshare (GLib forks twice: nobody waits for it), its output
 * its own: not on actshare's terminal, nor in a --json reader's pipe. */
static int start_detached(char **argv, GError **error) {
    return g_spawn_async(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                         NULL, NULL, error)
               ? 0
               : -1;
}

/* Runs `argv` on actshare's terminal and waits for it: the user writes the message there.
 * Its standard streams are the terminal itself, opened anew: one of actshare's may be a
 * pipe or close on exec, and mutt whose input is not a terminal sends at once, unseen. */
static int run_on_terminal(char **argv, GError **error) {
    int terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (terminal < 0) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "cannot open the terminal: %s", g_strerror(errno));
        return -1;
    }
    GPid pid;
    gboolean started = g_spawn_async_with_fds(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                              terminal, terminal, terminal, error);
    close(terminal);
    if (!started) return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    g_spawn_close_pid(pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "it ended with %s %d", WIFEXITED(status) ? "status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return -1;
}

int mail_client_compose(const actshare_request *request, const mail_draft *draft, char *said, size_t said_size, char *error,
                        size_t error_size) {
    client chosen;
    if (find_client(&chosen, error, error_size) != 0) return MAIL_CLIENT_NONE;
    const char *name = g_app_info_get_display_name(chosen.app);
    g_autofree char *folder = NULL;
    g_autoptr(GError) failure = NULL;
    GPtrArray *attachments = attachments_of(request, &folder, &failure);
    GPtrArray *arguments = attachments ? compose_arguments(&chosen, draft, attachments, &folder, &failure) : NULL;
    int result = MAIL_CLIENT_OPENED;
    if (!arguments) {
        snprintf(error, error_size, "cannot prepare the message for %s: %s", name, failure->message);
        result = MAIL_CLIENT_FAILED;
        goto done;
    }
    for (guint i = 0; i + 1 < arguments->len; i++) {
        size_t length = strlen(arguments->pdata[i]);
        if (length >= ARGUMENT_LIMIT) {
            snprintf(error, error_size, "the message is too long for %s's command line (%zu bytes in one argument, at most %d): "
                     "share the text as a file, or send it with -o spool=sendmail", name, length, ARGUMENT_LIMIT - 1);
            result = MAIL_CLIENT_REFUSED;
            goto done;
        }
    }
    char **argv = (char **)arguments->pdata;
    if (chosen.way == WAY_MUTT && !chosen.on_terminal) {
        /* Debian policy 11.8.3: x-terminal-emulator runs what follows -e as the command. */
        g_ptr_array_insert(arguments, 0, g_strdup("-e"));
        g_ptr_array_insert(arguments, 0, g_strdup("/usr/bin/x-terminal-emulator"));
        argv = (char **)arguments->pdata;
    }
    int started = chosen.way == WAY_MUTT && chosen.on_terminal ? run_on_terminal(argv, &failure) : start_detached(argv, &failure);
    if (started != 0) {
        snprintf(error, error_size, "%s could not open a message: %s", name, failure->message);
        result = MAIL_CLIENT_FAILED;
        goto done;
    }
    if (chosen.way == WAY_MUTT && chosen.on_terminal) {
        if (folder) remove_draft_folder(folder);
        snprintf(said, said_size, "composed in %s", name);
    } else {
        snprintf(said, said_size, "opened in %s", name);
    }
done:
    if (arguments) g_ptr_array_unref(arguments);
    if (attachments) g_ptr_array_unref(attachments);
    g_object_unref(chosen.app);
    return result;
}
