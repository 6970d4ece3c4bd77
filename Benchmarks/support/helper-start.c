/*
 * helper-start HELPER [READ... [-- WRITE...]]: starts actshare-provider-host as actshare
 * does, with its protocol on descriptors 3 and 4; with paths, first has it set up a
 * sandbox (a SANDBOX frame, built with the protocol's own codec) that may read READ and
 * write WRITE; then closes its input and waits for it to end. Benchmarks/isolation-cost
 * times it both ways: what the sandbox adds to a helper's start.
 */
#include <actshare/provider_protocol.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: helper-start HELPER [READ... [-- WRITE...]]\n");
        return 64;
    }
    int requests[2], replies[2];
    if (pipe2(requests, O_CLOEXEC) != 0 || pipe2(replies, O_CLOEXEC) != 0) return 70;
    /* Above 4, so that moving them onto 3 and 4 in the child cannot clobber one. */
    for (int i = 0; i < 2; i++) {
        int moved = fcntl(requests[i], F_DUPFD_CLOEXEC, 10);
        close(requests[i]);
        requests[i] = moved;
        moved = fcntl(replies[i], F_DUPFD_CLOEXEC, 10);
        close(replies[i]);
        replies[i] = moved;
    }
    pid_t child = fork();
    if (child == 0) {
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(requests[0], 3);
        dup2(replies[1], 4);
        execl(argv[1], argv[1], (char *)NULL);
        _exit(127);
    }
    close(requests[0]);
    close(replies[1]);
    if (argc > 2) {
        asp_buffer payload = {0};
        asp_put_u8(&payload, 0); /* flags: no network, no programs */
        unsigned rights = ASP_RIGHT_READ;
        uint32_t count = 0;
        asp_buffer rules = {0};
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--") == 0) {
                rights = ASP_RIGHT_READ | ASP_RIGHT_WRITE;
                continue;
            }
            asp_put_u8(&rules, rights);
            asp_put_string(&rules, argv[i]);
            count++;
        }
        asp_put_u32(&payload, count);
        asp_put(&payload, rules.bytes, rules.length);
        asp_put_u64(&payload, 4ull << 30);
        asp_put_u64(&payload, 16ull << 30);
        asp_put_u32(&payload, 1024);
        asp_put_u32(&payload, 0);
        asp_put_u64(&payload, 512ull << 20); /* temporary files: a tmpfs of their own */
        asp_put_u32(&payload, 0);            /* no Unix socket */
        asp_buffer reply = {0};
        unsigned type;
        if (asp_write_frame(requests[1], ASP_FRAME_SANDBOX, &payload) != 0 || asp_read_frame(replies[0], &reply, &type) != 0
            || type != ASP_FRAME_OK) {
            fprintf(stderr, "helper-start: the sandbox was not set up\n");
            return 1;
        }
    }
    close(requests[1]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
