/*
 * actshare-sheet: the share sheet's window (GTK 4), shown by `actshare` when it runs on a
 * desktop without a terminal (`--picker sheet`, and `--picker auto` there).
 *
 * Written in C: GTK 4 is a C library, and a small C program starts faster and needs no
 * binding layer (docs/DESKTOP.md). It decides nothing: actshare talks to it in JSON lines
 * on its standard input, and it answers on its standard output (AsConversation;
 * docs/DESKTOP.md, "The sheet's conversation").
 *
 * The parts, one GObject class each, with their .ui templates in a GResource:
 *   AsShareWindow      the window: pages as the conversation goes, keys, placement
 *   AsChoosePage       what is shared, the targets' rows, the search, the activities
 *     AsActivityTile   one activity
 *     AsTargetTile     one target (a device, a person, an application), with a button
 *                      for each other activity of its provider that offers it too
 *       AsTargetButton the button that performs the first
 *   AsAskPage          an option's question
 *   AsProgressPage     an activity under way, with Cancel
 *   AsResultPage       how it ended, with Details
 *   AsConversation     the JSON lines with actshare, as typed signals
 *
 * Exit status 0 once an activity was chosen, 1 when the window was closed (Esc) before,
 * 2 for bad input or no display.
 */
#include "as-conversation.h"
#include "as-request.h"
#include "as-share-window.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The longest first line read from actshare: far more than any list of activities. */
#define FIRST_LINE_LIMIT (4u << 20)

/* The first line of standard input (what to show); what follows it goes to `rest`. */
static char *read_first_line(GString *rest) {
    g_autoptr(GString) text = g_string_new(NULL);
    char chunk[65536];
    for (;;) {
        char *newline = memchr(text->str, '\n', text->len);
        if (newline) {
            g_string_append(rest, newline + 1);
            g_string_truncate(text, newline - text->str);
            return g_strdup(text->str);
        }
        ssize_t count = read(STDIN_FILENO, chunk, sizeof chunk);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return text->len ? g_strdup(text->str) : NULL;
        if (text->len + (size_t)count > FIRST_LINE_LIMIT) return NULL;
        g_string_append_len(text, chunk, count);
    }
}

/* The translations: installed beside the program (PREFIX/libexec/actshare →
 * PREFIX/share/locale), or the build tree's (.build/bin → .build/locale). */
static void set_up_translations(void) {
    setlocale(LC_ALL, "");
    g_autofree char *program = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *folder = program ? g_path_get_dirname(program) : NULL;
    const char *candidates[] = {"../../share/locale", "../locale"};
    for (size_t i = 0; folder && i < G_N_ELEMENTS(candidates); i++) {
        g_autofree char *locale = g_build_filename(folder, candidates[i], NULL);
        if (g_file_test(locale, G_FILE_TEST_IS_DIR)) {
            bindtextdomain(GETTEXT_PACKAGE, locale);
            break;
        }
    }
    bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
    textdomain(GETTEXT_PACKAGE);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    set_up_translations();
    g_autoptr(GString) rest = g_string_new(NULL);
    g_autofree char *line = read_first_line(rest);
    json_object *root = line ? json_tokener_parse(line) : NULL;
    g_autofree char *problem = NULL;
    g_autoptr(AsRequest) request = as_request_new_from_json(root, &problem);
    if (root) json_object_put(root);
    if (!request) {
        fprintf(stderr, "actshare-sheet: %s\n", problem);
        return 2;
    }
    /* A small window that lives seconds: GTK's cairo renderer draws it without making a GL
     * context first, which took a fifth of its start (Benchmarks/sheet-vs-zenity). The
     * person's GSK_RENDERER still counts. */
    g_setenv("GSK_RENDERER", "cairo", FALSE);
    /* A window of its own, not a GtkApplication: nothing to register on a session bus. */
    if (!gtk_init_check()) {
        fprintf(stderr, "actshare-sheet: cannot open the display\n");
        return 2;
    }
    g_set_prgname("actshare-sheet");
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new();
    gtk_css_provider_load_from_resource(css, "/org/actshare/Sheet/style.css");
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_autoptr(AsConversation) conversation = as_conversation_new(STDIN_FILENO, STDOUT_FILENO, rest->str);
    AsShareWindow *window = as_share_window_new(conversation, request);
    int status = as_share_window_run(window);
    gtk_window_destroy(GTK_WINDOW(window));
    return status;
}
