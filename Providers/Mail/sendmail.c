/* The system MTA: `/usr/sbin/sendmail -t -oi`, its exit status and stderr reported. */
#include "mail.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int deliver_sendmail(const buffer *message, char *error, size_t error_size) {
    if (access(MAIL_SENDMAIL, X_OK) != 0) {
        snprintf(error, error_size, "no mail transfer agent: %s is missing (install one, or choose a spool with -o spool=maildir:PATH)", MAIL_SENDMAIL);
        return -1;
    }
    int input[2], errors[2];
    if (pipe2(input, O_CLOEXEC) != 0 || pipe2(errors, O_CLOEXEC) != 0) {
        snprintf(error, error_size, "cannot start %s: %s", MAIL_SENDMAIL, strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
    char *argv[] = {MAIL_SENDMAIL, "-t", "-oi", NULL};
    pid_t pid;
    int spawned = posix_spawn(&pid, MAIL_SENDMAIL, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(input[0]);
    close(errors[1]);
    if (spawned != 0) {
        close(input[1]);
        close(errors[0]);
        snprintf(error, error_size, "cannot start %s: %s", MAIL_SENDMAIL, strerror(spawned));
        return -1;
    }
    /* Write the message while collecting stderr, so neither pipe can fill and stall. */
    char diagnostics[1024] = {0};
    size_t collected = 0, offset = 0;
    void (*previous)(int) = signal(SIGPIPE, SIG_IGN);
    int writing = 1, reading = 1;
    while (writing || reading) {
        struct pollfd fds[2] = {{.fd = writing ? input[1] : -1, .events = POLLOUT}, {.fd = errors[0], .events = POLLIN}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (writing && fds[0].revents) {
            ssize_t count = write(input[1], message->bytes + offset, message->length - offset);
            if (count > 0) offset += (size_t)count;
            if ((count < 0 && errno != EINTR && errno != EAGAIN) || offset == message->length) {
                close(input[1]);
                writing = 0;
            }
        }
        if (fds[1].revents) {
            char chunk[512];
            ssize_t count = read(errors[0], chunk, sizeof chunk);
            if (count <= 0) {
                reading = 0;
                if (writing) continue;
            } else if (collected < sizeof diagnostics - 1) {
                size_t take = (size_t)count < sizeof diagnostics - 1 - collected ? (size_t)count : sizeof diagnostics - 1 - collected;
                memcpy(diagnostics + collected, chunk, take);
                collected += take;
            }
        }
    }
    if (writing) close(input[1]);
    close(errors[0]);
    signal(SIGPIPE, previous);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && offset == message->length) return 0;
    for (char *p = diagnostics; *p; p++) {
        if (*p == '\n') *p = ' ';
    }
    while (collected > 0 && diagnostics[collected - 1] == ' ') diagnostics[--collected] = '\0';
    if (WIFEXITED(status)) {
        snprintf(error, error_size, "%s exited with status %d%s%s", MAIL_SENDMAIL, WEXITSTATUS(status), collected ? ": " : "", diagnostics);
    } else {
        snprintf(error, error_size, "%s was killed by signal %d%s%s", MAIL_SENDMAIL, WTERMSIG(status), collected ? ": " : "", diagnostics);
    }
    return -1;
}
