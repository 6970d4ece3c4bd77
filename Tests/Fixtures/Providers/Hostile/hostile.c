/*
 * Hostile: a test provider whose hooks crash, exit, hang, corrupt the pipe, print to
 * standard output, or return what the host must refuse. The isolation tests put each
 * behind a manifest of its own, beside good providers that must keep working.
 */
#include "hostile.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
    char path[] = "/tmp/actshare-hostile-XXXXXX";
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

/* Writes nonsense on every descriptor that might be the host's pipe. */
int32_t hostile_garbage(const actshare_request *request) {
    (void)request;
    static const char junk[] = "\x10\x00\x00\x00ZZZZ garbage, not a frame";
    for (int fd = 3; fd < 1024; fd++) {
        if (write(fd, junk, sizeof junk) < 0) continue;
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
    (void)session;
    signal(SIGUSR1, SIG_IGN);
    for (;;) pause();
}

int32_t hostile_yes(const actshare_request *request) {
    (void)request;
    return 1;
}
