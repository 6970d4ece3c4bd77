/*
 * Hostile: a test provider whose hooks crash, exit, hang, corrupt the pipe, print to
 * standard output, or return what the host must refuse. The isolation tests put each
 * behind a manifest of its own, beside good providers that must keep working.
 */
#include "hostile.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int32_t hostile_segv(const actshare_request *request) {
    (void)request;
    volatile int *nowhere = NULL;
    *nowhere = 1;
    return 1;
}

int32_t hostile_abort(const actshare_request *request) {
    (void)request;
    abort();
}

/* A real bus error: touch a mapping of a file that was truncated under it. */
int32_t hostile_bus(const actshare_request *request) {
    (void)request;
    char path[4096];
    snprintf(path, sizeof path, "%s/actshare-hostile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0 || ftruncate(fd, 4096) != 0) raise(SIGBUS);
    volatile char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    unlink(path);
    if (page == MAP_FAILED || ftruncate(fd, 0) != 0) raise(SIGBUS);
    page[0] = 1;
    return 1;
}

int32_t hostile_exit(const actshare_request *request) {
    (void)request;
    exit(3);
}

int32_t hostile_hang(const actshare_request *request) {
    (void)request;
    signal(SIGUSR1, SIG_IGN);
    for (;;) pause();
}

/* Hangs where a kill must find it: ignores SIGTERM and SIGUSR1, and leaves its process
 * group for its parent's (in a helper without a guard, actshare's). */
int32_t hostile_hang_elsewhere(const actshare_request *request) {
    (void)request;
    signal(SIGUSR1, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    setpgid(0, getpgid(getppid()));
    for (;;) pause();
}

/* Writes nonsense on every descriptor that might be the host's pipe. */
int32_t hostile_garbage(const actshare_request *request) {
    (void)request;
    static const char junk[] = "\x10\x00\x00\x00QQQQ garbage, not a frame";
    for (int fd = 3; fd < 1024; fd++) {
        if (write(fd, junk, sizeof junk) < 0) continue;
    }
    return 1;
}

/* Writes a DONE frame too short to hold its result on every descriptor that might be the
 * host's pipe: a well-formed frame whose payload ends early. */
int32_t hostile_short_reply(const actshare_request *request) {
    (void)request;
    static const char short_done[] = "\x02\x00\x00\x00" "D" "\x01";
    for (int fd = 3; fd < 1024; fd++) {
        if (write(fd, short_done, sizeof short_done - 1) < 0) continue;
    }
    return 1;
}

int32_t hostile_close(const actshare_request *request) {
    (void)request;
    for (int fd = 3; fd < 1024; fd++) close(fd);
    return 1;
}

/* A good provider that chatters on standard output: the protocol must not notice. */
int32_t hostile_print(const actshare_request *request) {
    (void)request;
    static const char frame_like[] = "\x05\x00\x00\x00Dnoise\n";
    for (int i = 0; i < 1000; i++) fwrite(frame_like, 1, sizeof frame_like - 1, stdout);
    fflush(stdout);
    return 1;
}

const char *hostile_huge(void) {
    static char *text;
    size_t size = 20u << 20;
    if (!text) {
        text = malloc(size + 1);
        if (!text) return NULL;
        memset(text, 'x', size);
        text[size] = '\0';
    }
    return text;
}

const char *hostile_bad_utf8(void) { return "caf\xe9 \xff\xfe"; }

int32_t hostile_wait_for_cancel(const actshare_request *request, actshare_session *session) {
    (void)request;
    session->log(session, ACTSHARE_LOG_INFO, "waiting to be cancelled");
    for (int i = 0; i < 3000 && !session->is_cancelled(session); i++) usleep(10000);
    return session->is_cancelled(session) ? ACTSHARE_STATUS_CANCELLED : ACTSHARE_STATUS_DONE;
}

int32_t hostile_ignore_cancel(const actshare_request *request, actshare_session *session) {
    (void)request;
    session->log(session, ACTSHARE_LOG_INFO, "ignoring cancellation");
    signal(SIGUSR1, SIG_IGN);
    for (;;) pause();
}

/* Declines, and says why in words a terminal must not obey: an escape sequence, a
 * newline, and far more than a sentence (the last of two reasons counts). */
int32_t hostile_decline(const actshare_request *request) {
    static char reason[100 << 10];
    actshare_decline(request, "ignored: the last reason counts");
    memset(reason, 'y', sizeof reason - 1);
    const char *words = "Nothing to do \x1b[31mhere\nreally";
    memcpy(reason, words, strlen(words));
    actshare_decline(request, reason);
    return 0;
}

int32_t hostile_yes(const actshare_request *request) {
    (void)request;
    return 1;
}

/* Children that try to outlive the call, each running `sleep $HOSTILE_MARKER` (the tests
 * look for that in the process table): one plain, one in a session of its own, one daemonised
 * (its parent exits, so it is orphaned). All keep standard output and error open. */
static void sleeper(void) {
    const char *marker = getenv("ACTSHARE_HOSTILE_MARKER");
    execl("/bin/sleep", "sleep", marker ? marker : "987.654", (char *)NULL);
    _exit(127);
}

int32_t hostile_escape(const actshare_request *request) {
    (void)request;
    if (fork() == 0) sleeper();
    if (fork() == 0) {
        setsid();
        sleeper();
    }
    if (fork() == 0) {
        setsid();
        if (fork() == 0) sleeper();
        _exit(0);
    }
    return 1;
}

/* Forks, and the helper itself exits at once while the child keeps the pipe open. */
int32_t hostile_fork_exit(const actshare_request *request) {
    (void)request;
    if (fork() == 0) {
        setsid();
        sleeper();
    }
    if (fork() == 0) {
        for (;;) pause(); /* holds the reply pipe, as the helper's copy */
    }
    _exit(7);
}

/* 400 children at once. */
int32_t hostile_fork_many(const actshare_request *request) {
    (void)request;
    for (int i = 0; i < 400; i++) {
        pid_t child = fork();
        if (child == 0) sleeper();
        if (child < 0) break;
    }
    return 1;
}

/* Floods standard error (10 MiB) after lines that would drive a terminal. */
int32_t hostile_chatter(const actshare_request *request, actshare_session *session) {
    (void)request;
    session->log(session, ACTSHARE_LOG_WARNING, "title \x1b]0;pwned\x07 and \x1b[2J cleared");
    session->set_error(session, "failed \x1b[31mred\x1b[0m \xe2\x80\xae reversed");
    fprintf(stderr, "\x1b]52;c;cHduZWQ=\x07 clipboard\n");
    fflush(stderr);
    static char line[1024];
    memset(line, 'z', sizeof line - 1);
    line[sizeof line - 2] = '\n';
    for (int i = 0; i < 10 * 1024; i++) fwrite(line, 1, sizeof line - 1, stderr);
    fflush(stderr);
    return ACTSHARE_STATUS_FAILED;
}

/* A perform hook that does what option `then` names (escape or many), then reports done. */
int32_t hostile_done_after(const actshare_request *request, actshare_session *session) {
    const char *then = session->option(session, "then");
    if (then && strcmp(then, "escape") == 0) hostile_escape(request);
    if (then && strcmp(then, "many") == 0) hostile_fork_many(request);
    return ACTSHARE_STATUS_DONE;
}

/* Closes the pipe the helper reads requests from (every read-only pipe it has), and says
 * yes: the reply goes out, and actshare's next request meets a closed pipe. */
int32_t hostile_close_requests(const actshare_request *request) {
    (void)request;
    for (int fd = 3; fd < 1024; fd++) {
        struct stat info;
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0 && (flags & O_ACCMODE) == O_RDONLY && fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode)) close(fd);
    }
    return 1;
}

/* As a can-perform hook: tries to write a file in $TMPDIR (or /tmp without one), and
 * says yes if it could, or declines saying what stopped it. */
int32_t hostile_write_temporary(const actshare_request *request) {
    const char *folder = getenv("TMPDIR");
    char path[4096], reason[4200];
    snprintf(path, sizeof path, "%s/hostile-%d", folder ? folder : "/tmp", (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        unlink(path);
        return 1;
    }
    snprintf(reason, sizeof reason, "%s; cannot write %s: %s", folder ? "TMPDIR set" : "no TMPDIR", path, strerror(errno));
    actshare_decline(request, reason);
    return 0;
}

/* The same as a prepare hook, which says it is done: perform's call meets the closed pipe. */
int32_t hostile_close_requests_prepare(const actshare_request *request) {
    hostile_close_requests(request);
    return ACTSHARE_STATUS_DONE;
}

/* Returns one good item and one of each kind actshare must refuse; says on standard
 * output what return_item answered for each, so the tests see the same answers in both
 * isolation modes. */
int32_t hostile_bad_items(const actshare_request *request, actshare_session *session) {
    (void)request;
    int answers[7];
    answers[0] = session->return_item(session, ACTSHARE_ITEM_TEXT, "kept", NULL);
    answers[1] = session->return_item(session, ACTSHARE_ITEM_FILE, "/nonexistent/actshare-hostile", NULL);
    answers[2] = session->return_item(session, ACTSHARE_ITEM_URL, "no scheme here", NULL);
    answers[3] = session->return_item(session, ACTSHARE_ITEM_TEXT, "typed", "not a type");
    answers[4] = session->return_item(session, 9, "what kind", NULL);
    answers[5] = session->return_item(session, ACTSHARE_ITEM_TEXT, "caf\xe9", NULL);
    answers[6] = session->return_item(session, ACTSHARE_ITEM_URL, "https://example.org/kept", NULL);
    char line[64];
    snprintf(line, sizeof line, "answers %d %d %d %d %d %d %d", answers[0], answers[1], answers[2], answers[3], answers[4],
             answers[5], answers[6]);
    session->log(session, ACTSHARE_LOG_WARNING, line);
    return ACTSHARE_STATUS_DONE;
}

/* A status no hook may return. */
int32_t hostile_status_42(const actshare_request *request, actshare_session *session) {
    (void)request;
    (void)session;
    return 42;
}

/* A log line and an error message that are not UTF-8, the error over 64 KiB. */
int32_t hostile_bad_messages(const actshare_request *request, actshare_session *session) {
    (void)request;
    session->log(session, ACTSHARE_LOG_WARNING, "caf\xe9 \xff log");
    static char message[100 * 1024];
    memset(message, 'e', sizeof message - 1);
    memcpy(message, "caf\xe9 error ", 11);
    session->set_error(session, message);
    return ACTSHARE_STATUS_FAILED;
}

/* Reports progress every 100 ms for 2.5 s: longer than a 1s time limit, never idle. */
int32_t hostile_slow_progress(const actshare_request *request, actshare_session *session) {
    (void)request;
    for (int i = 1; i <= 25; i++) {
        usleep(100000);
        session->progress(session, i / 25.0);
    }
    session->return_item(session, ACTSHARE_ITEM_TEXT, "finished", NULL);
    return ACTSHARE_STATUS_DONE;
}

/* Reports once, then says nothing for 2.5 s: past a 1s idle limit. */
int32_t hostile_slow_silence(const actshare_request *request, actshare_session *session) {
    (void)request;
    session->progress(session, 0.1);
    usleep(2500000);
    return ACTSHARE_STATUS_DONE;
}

/* Makes a file in its private $TMPDIR and returns it: the name is option `then` (default
 * made.txt), and with `then` starting "link:" the file is instead a symbolic link to the
 * rest of the option (a file of the user's the sandbox does not let it read), which
 * actshare must not follow when it places returned files. `then` "sparse:MIB:COUNT" makes
 * one sparse file of MIB MiB and returns it COUNT times; "sparse-each:MIB:COUNT" makes
 * COUNT of them and returns each once: little of the temporary folder, much to copy. */
int32_t hostile_make_file(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *tmp = getenv("TMPDIR");
    const char *then = session->option(session, "then");
    if (tmp == NULL) return ACTSHARE_STATUS_FAILED;
    char path[4096];
    unsigned mib, count;
    int each = then != NULL && strncmp(then, "sparse-each:", 12) == 0;
    if (then != NULL && (each || strncmp(then, "sparse:", 7) == 0)
        && sscanf(then + (each ? 12 : 7), "%u:%u", &mib, &count) == 2 && count <= 64) {
        for (unsigned i = 0; i < count; i++) {
            snprintf(path, sizeof path, "%s/sparse-%u.bin", tmp, each ? i : 0);
            if (each || i == 0) {
                int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (fd < 0 || ftruncate(fd, (off_t)mib << 20) != 0) return ACTSHARE_STATUS_FAILED;
                close(fd);
            }
            if (session->return_item(session, ACTSHARE_ITEM_FILE, path, NULL) != 0) return ACTSHARE_STATUS_FAILED;
        }
        return ACTSHARE_STATUS_DONE;
    }
    if (then != NULL && strncmp(then, "link:", 5) == 0) {
        snprintf(path, sizeof path, "%s/made.txt", tmp);
        if (symlink(then + 5, path) != 0) return ACTSHARE_STATUS_FAILED;
    } else {
        snprintf(path, sizeof path, "%s/%s", tmp, then != NULL && then[0] != '\0' ? then : "made.txt");
        FILE *file = fopen(path, "w");
        if (file == NULL) return ACTSHARE_STATUS_FAILED;
        fputs("made by hostile\n", file);
        fclose(file);
    }
    return session->return_item(session, ACTSHARE_ITEM_FILE, path, NULL) == 0 ? ACTSHARE_STATUS_DONE : ACTSHARE_STATUS_FAILED;
}

/* Writes one byte past a heap block: harmless-looking in a plain build, and what
 * scripts/sanitize checks AddressSanitizer catches in the provider host. */
int32_t hostile_heap_overflow(const actshare_request *request) {
    (void)request;
    char *block = malloc(16);
    if (block == NULL) return ACTSHARE_STATUS_FAILED;
    volatile size_t past = 16;
    block[past] = 'x';
    free(block);
    return ACTSHARE_STATUS_DONE;
}

/* Says the name of every variable in its environment (a warning each: "env NAME"), for
 * the tests of what a provider is given and what stays behind. */
extern char **environ;
int32_t hostile_environment(const actshare_request *request, actshare_session *session) {
    (void)request;
    for (char **entry = environ; *entry; entry++) {
        char line[256];
        size_t name = strcspn(*entry, "=");
        snprintf(line, sizeof line, "env %.*s", (int)(name < 200 ? name : 200), *entry);
        session->log(session, ACTSHARE_LOG_WARNING, line);
    }
    return ACTSHARE_STATUS_DONE;
}

/* An intruder in Save to…'s place, under its manifest's permissions: writes inside.txt
 * in the folder it is given (option `folder`), then tries beside it (FOLDER/../beside.txt)
 * and in the home folder ($HOME/intruder.txt). Done when only the first got through;
 * otherwise it fails, naming each write the sandbox let through. */
int32_t hostile_write_beside(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *folder = session->option(session, "folder");
    const char *home = getenv("HOME");
    if (folder == NULL || home == NULL) return ACTSHARE_STATUS_FAILED;
    char inside[4096], beside[4096], in_home[4096], said[8192] = "";
    snprintf(inside, sizeof inside, "%s/inside.txt", folder);
    snprintf(beside, sizeof beside, "%s/../beside.txt", folder);
    snprintf(in_home, sizeof in_home, "%s/intruder.txt", home);
    const char *paths[] = {inside, beside, in_home};
    int written[3];
    for (int i = 0; i < 3; i++) {
        int fd = open(paths[i], O_WRONLY | O_CREAT | O_EXCL, 0644);
        written[i] = fd >= 0;
        if (fd >= 0) close(fd);
    }
    if (!written[0]) snprintf(said + strlen(said), sizeof said - strlen(said), "could not write %s; ", inside);
    if (written[1]) snprintf(said + strlen(said), sizeof said - strlen(said), "wrote %s; ", beside);
    if (written[2]) snprintf(said + strlen(said), sizeof said - strlen(said), "wrote %s; ", in_home);
    if (said[0] == '\0') return ACTSHARE_STATUS_DONE;
    session->set_error(session, said);
    return ACTSHARE_STATUS_FAILED;
}
