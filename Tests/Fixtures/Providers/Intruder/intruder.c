/*
 * Intruder: tries what a sandboxed provider must not do (SandboxTests). Each attempt
 * goes through the C library as a provider would write it; what the sandbox refuses
 * comes back as the error the system gave.
 */
#include "intruder.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int32_t failed(actshare_session *session, const char *what, const char *target) {
    char message[1024];
    snprintf(message, sizeof message, "cannot %s %s: %s", what, target ? target : "(no target)", strerror(errno));
    session->set_error(session, message);
    return ACTSHARE_STATUS_FAILED;
}

static const char *target(actshare_session *session) {
    const char *value = session->option(session, "target");
    return value ? value : "";
}

int32_t intruder_read(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *path = target(session);
    FILE *file = fopen(path, "r");
    if (!file) return failed(session, "read", path);
    char line[256] = "";
    if (!fgets(line, sizeof line, file)) line[0] = '\0';
    fclose(file);
    session->return_item(session, ACTSHARE_ITEM_TEXT, line, "text/plain");
    return ACTSHARE_STATUS_DONE;
}

int32_t intruder_list(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *path = target(session);
    DIR *directory = opendir(path);
    if (!directory) return failed(session, "list", path);
    int count = 0;
    while (readdir(directory)) count++;
    closedir(directory);
    return ACTSHARE_STATUS_DONE;
}

int32_t intruder_write(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *path = target(session);
    FILE *file = fopen(path, "a");
    if (!file) return failed(session, "write", path);
    fputs("echo owned\n", file);
    fclose(file);
    return ACTSHARE_STATUS_DONE;
}

/* target: a TCP port on 127.0.0.1. */
int32_t intruder_connect(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *port = target(session);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return failed(session, "open a socket for port", port);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port))};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return failed(session, "connect to port", port);
    }
    close(fd);
    return ACTSHARE_STATUS_DONE;
}

/* target: a Unix socket's path, or @ and an abstract name. Connected, it is sent a
 * line asking actshare's daemon to publish a command (what a socket lets one do). */
int32_t intruder_unix(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *name = target(session);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return failed(session, "open a socket for", name);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    size_t length = strlen(name);
    if (length >= sizeof address.sun_path) length = sizeof address.sun_path - 1;
    memcpy(address.sun_path, name, length);
    if (name[0] == '@') address.sun_path[0] = '\0';
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + (name[0] == '@' ? 0 : 1));
    if (connect(fd, (struct sockaddr *)&address, size) != 0) {
        close(fd);
        return failed(session, "connect to", name);
    }
    static const char line[] = "{\"op\":\"become-current\",\"activity\":{\"on_continued\":\"id > /tmp/m\"}}\n";
    ssize_t written = write(fd, line, sizeof line - 1);
    close(fd);
    if (written != (ssize_t)(sizeof line - 1)) return failed(session, "write to", name);
    return ACTSHARE_STATUS_DONE;
}

/* target: a request line for the handoff daemon, sent on the connection actshare gave
 * (ACTSHARE_HANDOFF_FD); its answer line comes back as a text item, and DONE if it
 * says "ok":true. */
int32_t intruder_handoff(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *line = target(session), *granted = getenv("ACTSHARE_HANDOFF_FD");
    if (!granted) {
        errno = EBADF;
        return failed(session, "find the daemon's connection for", line);
    }
    int fd = atoi(granted);
    if (write(fd, line, strlen(line)) != (ssize_t)strlen(line) || write(fd, "\n", 1) != 1) return failed(session, "send", line);
    /* The answer: the first line that is not an event (a send's progress). */
    char answer[4096];
    for (int lines = 0; lines < 100000; lines++) {
        size_t length = 0;
        while (length < sizeof answer - 1) {
            ssize_t count = read(fd, answer + length, 1);
            if (count <= 0 || answer[length] == '\n') break;
            length++;
        }
        answer[length] = '\0';
        if (length == 0 || !strstr(answer, "\"event\"")) break;
    }
    session->return_item(session, ACTSHARE_ITEM_TEXT, answer, "text/plain");
    return strstr(answer, "\"ok\":true") ? ACTSHARE_STATUS_DONE : ACTSHARE_STATUS_FAILED;
}

/* Runs `/bin/sh -c TARGET` (with exec: true): what it prints (output and errors, 4 KiB at
 * most) comes back as a text item, and DONE if it exits 0. */
int32_t intruder_command(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *line = target(session);
    int fds[2];
    if (pipe(fds) != 0) return failed(session, "make a pipe for", line);
    pid_t child = fork();
    if (child < 0) return failed(session, "start a process for", line);
    if (child == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char output[4096];
    size_t length = 0;
    ssize_t count;
    while (length < sizeof output - 1 && (count = read(fds[0], output + length, sizeof output - 1 - length)) > 0) length += (size_t)count;
    output[length] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    session->return_item(session, ACTSHARE_ITEM_TEXT, output, "text/plain");
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ACTSHARE_STATUS_DONE : ACTSHARE_STATUS_FAILED;
}

/* Holds memory where no address-space limit counts it, and keeps it until the call ends:
 * target `memfd` in memory files, `tmp` in files in $TMPDIR, 16 MiB at a time, up to
 * 2 GiB. How many MiB it held comes back as a text item; FAILED if it could not start. */
int32_t intruder_hoard(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *where = target(session), *directory = getenv("TMPDIR");
    static char chunk[16 << 20];
    memset(chunk, 'x', sizeof chunk);
    int fds[128], count = 0, held = 0;
    for (; count < 128; count++) {
        char name[4200];
        snprintf(name, sizeof name, "%s/hoard-%d", directory ? directory : "/tmp", count);
        int fd = strcmp(where, "memfd") == 0 ? (int)syscall(SYS_memfd_create, "hoard", 0) : open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            if (count == 0) return failed(session, "make a memory file for", where);
            break;
        }
        fds[count] = fd;
        if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk) {
            count++;
            break;
        }
        held += 16;
    }
    char text[64];
    snprintf(text, sizeof text, "%d MiB", held);
    session->return_item(session, ACTSHARE_ITEM_TEXT, text, "text/plain");
    for (int i = 0; i < count; i++) close(fds[i]);
    return ACTSHARE_STATUS_DONE;
}

/* Replaces the process with the target program: refused, or the helper is gone. */
int32_t intruder_exec(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *path = target(session);
    execl(path, path, "-c", "exit 7", (char *)NULL);
    return failed(session, "run", path);
}

/* Runs the target program in a child and waits for it (`sh -c 'exit 7'`: status 7). */
int32_t intruder_spawn(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *path = target(session);
    pid_t child = fork();
    if (child < 0) return failed(session, "start a process for", path);
    if (child == 0) {
        execl(path, path, "-c", "exit 7", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 7) {
        errno = ENOEXEC;
        return failed(session, "run", path);
    }
    return ACTSHARE_STATUS_DONE;
}

/* 10,000 processes that sleep: counted, and failed at the first refusal. */
int32_t intruder_fork_bomb(const actshare_request *request, actshare_session *session) {
    (void)request;
    for (int i = 0; i < 10000; i++) {
        pid_t child = fork();
        if (child < 0) {
            char what[64];
            snprintf(what, sizeof what, "process %d of 10000", i + 1);
            return failed(session, "start", what);
        }
        if (child == 0) {
            sleep(30);
            _exit(0);
        }
    }
    return ACTSHARE_STATUS_DONE;
}

/* 8 GiB, touched. */
int32_t intruder_allocate(const actshare_request *request, actshare_session *session) {
    (void)request;
    size_t size = (size_t)8 << 30;
    char *memory = malloc(size);
    if (!memory) return failed(session, "allocate", "8 GiB");
    for (size_t offset = 0; offset < size; offset += 4096) memory[offset] = 1;
    free(memory);
    return ACTSHARE_STATUS_DONE;
}

/* Attaches to the helper's parent, and so to the host's side of the pipe. */
int32_t intruder_ptrace(const actshare_request *request, actshare_session *session) {
    (void)request;
    char pid[32];
    snprintf(pid, sizeof pid, "process %d", (int)getppid());
    if (ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) != 0) return failed(session, "trace", pid);
    ptrace(PTRACE_DETACH, getppid(), NULL, NULL);
    return ACTSHARE_STATUS_DONE;
}

/* Reads every file item (what every provider may do): their first lines, returned. */
int32_t intruder_read_items(const actshare_request *request, actshare_session *session) {
    for (size_t i = 0; i < request->item_count; i++) {
        const char *path = request->items[i].path;
        if (!path) continue;
        FILE *file = fopen(path, "r");
        if (!file) return failed(session, "read", path);
        char line[256] = "";
        if (!fgets(line, sizeof line, file)) line[0] = '\0';
        fclose(file);
        line[strcspn(line, "\n")] = '\0';
        session->return_item(session, ACTSHARE_ITEM_TEXT, line, "text/plain");
    }
    return ACTSHARE_STATUS_DONE;
}

/* Writes in its private directory ($TMPDIR), which every provider may. */
int32_t intruder_write_private(const actshare_request *request, actshare_session *session) {
    (void)request;
    const char *directory = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/scratch.txt", directory ? directory : "/nonexistent");
    FILE *file = fopen(path, "w");
    if (!file) return failed(session, "write", path);
    fputs("scratch\n", file);
    fclose(file);
    session->return_item(session, ACTSHARE_ITEM_TEXT, directory ? directory : "", "text/plain");
    return ACTSHARE_STATUS_DONE;
}
