/*
 * A shaped link between two network interfaces, for benchmarks on a kernel without
 * sch_netem: every Ethernet frame that arrives on one interface is sent out of the other,
 * and the frames from FIRST to SECOND are delayed, limited to a rate and randomly dropped
 * as `tc qdisc add dev FIRST root netem delay D rate R loss L` would (the way back passes
 * as it came, as with netem on one side of a veth pair).
 *
 *   shaped-relay FIRST SECOND DELAY_MS RATE_MBIT LOSS_PERCENT SECONDS
 *
 * Run it as root in a namespace of its own that holds FIRST and SECOND, with no
 * addresses on them: it bridges the two. Frames over the queue's limit (what the rate
 * lets through in 50 ms, as tbf's `latency 50ms`) are dropped at the tail. It stops after
 * SECONDS, or at SIGTERM or SIGINT, and prints what it relayed and dropped.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_LIMIT 65536
#define READS_PER_WAKE 256

struct frame {
    struct frame *next;
    int64_t due_ns; /* when it leaves the far side */
    size_t length;
    unsigned char bytes[];
};

struct direction {
    int from, to;
    int64_t delay_ns;
    double ns_per_byte; /* 0: no rate limit */
    double loss;        /* 0..1 */
    int64_t busy_until_ns; /* when the link has sent what is queued */
    int64_t queue_limit_ns;
    struct frame *head, *tail;
    unsigned long relayed, lost, overflowed, unsent;
    size_t largest;
};

static volatile sig_atomic_t stopping;

static void stop(int signal_number) {
    (void)signal_number;
    stopping = 1;
}

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int open_interface(const char *name) {
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
    if (fd < 0) {
        perror("socket(AF_PACKET)");
        exit(1);
    }
    struct sockaddr_ll address = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL), .sll_ifindex = (int)if_nametoindex(name)};
    if (address.sll_ifindex == 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        fprintf(stderr, "shaped-relay: cannot use interface %s: %s\n", name, strerror(errno));
        exit(1);
    }
    int one = 1, buffer = 8 << 20;
    /* What this relay sends out of an interface is not read back from it. */
    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one);
    /* Each frame comes with its offload header (a checksum the sender's veth left to be
     * filled in) and goes out with it, so the far side's kernel completes the checksum. */
    if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof one) != 0) {
        perror("PACKET_VNET_HDR");
        exit(1);
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buffer, sizeof buffer);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buffer, sizeof buffer);
    return fd;
}

/* Reads what arrived on `way->from`, at most READS_PER_WAKE frames, and queues it. */
static void take_arrivals(struct direction *way, unsigned char *scratch) {
    for (int read_count = 0; read_count < READS_PER_WAKE; read_count++) {
        ssize_t length = recv(way->from, scratch, FRAME_LIMIT, MSG_TRUNC);
        if (length < (ssize_t)sizeof(struct virtio_net_hdr)) return;
        if (length > FRAME_LIMIT) {
            way->overflowed++; /* an offloaded super-frame: the benchmark turns offloads off */
            continue;
        }
        if (way->loss > 0 && drand48() < way->loss) {
            way->lost++;
            continue;
        }
        if ((size_t)length - sizeof(struct virtio_net_hdr) > way->largest) way->largest = (size_t)length - sizeof(struct virtio_net_hdr);
        int64_t now = now_ns();
        int64_t start = way->busy_until_ns > now ? way->busy_until_ns : now;
        if (start - now > way->queue_limit_ns) {
            way->overflowed++;
            continue;
        }
        struct frame *frame = malloc(sizeof *frame + (size_t)length);
        if (frame == NULL) return;
        size_t on_the_wire = (size_t)length - sizeof(struct virtio_net_hdr);
        way->busy_until_ns = start + (int64_t)(way->ns_per_byte * (double)on_the_wire);
        frame->due_ns = way->busy_until_ns + way->delay_ns;
        frame->length = (size_t)length;
        frame->next = NULL;
        memcpy(frame->bytes, scratch, (size_t)length);
        if (way->tail) way->tail->next = frame; else way->head = frame;
        way->tail = frame;
    }
}

/* Sends the frames that are due; returns the nanoseconds until the next one (-1: none). */
static int64_t send_due(struct direction *way) {
    int64_t now = now_ns();
    while (way->head && way->head->due_ns <= now) {
        struct frame *frame = way->head;
        if (send(way->to, frame->bytes, frame->length, 0) < 0) {
            if (errno == EAGAIN || errno == ENOBUFS) return 50000;
            way->unsent++;
        } else {
            way->relayed++;
        }
        way->head = frame->next;
        if (way->head == NULL) way->tail = NULL;
        free(frame);
    }
    return way->head ? way->head->due_ns - now : -1;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: shaped-relay FIRST SECOND DELAY_MS RATE_MBIT LOSS_PERCENT SECONDS\n");
        return 2;
    }
    int first = open_interface(argv[1]), second = open_interface(argv[2]);
    double rate_bits = atof(argv[4]) * 1e6;
    struct direction ways[2] = {
        {.from = first, .to = second, .delay_ns = (int64_t)(atof(argv[3]) * 1e6), .ns_per_byte = rate_bits > 0 ? 8e9 / rate_bits : 0,
         .loss = atof(argv[5]) / 100, .queue_limit_ns = 50000000},
        {.from = second, .to = first, .queue_limit_ns = INT64_MAX},
    };
    int64_t deadline = now_ns() + (int64_t)(atof(argv[6]) * 1e9);
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    srand48((long)now_ns());
    unsigned char *scratch = malloc(FRAME_LIMIT);
    if (scratch == NULL) return 1;
    while (!stopping && now_ns() < deadline) {
        int64_t wait = 100000000;
        for (int index = 0; index < 2; index++) {
            int64_t next = send_due(&ways[index]);
            if (next >= 0 && next < wait) wait = next;
        }
        struct pollfd fds[2] = {{.fd = first, .events = POLLIN}, {.fd = second, .events = POLLIN}};
        struct timespec timeout = {.tv_sec = wait / 1000000000, .tv_nsec = wait % 1000000000};
        if (ppoll(fds, 2, &timeout, NULL) < 0 && errno != EINTR) break;
        if (fds[0].revents & POLLIN) take_arrivals(&ways[0], scratch);
        if (fds[1].revents & POLLIN) take_arrivals(&ways[1], scratch);
    }
    for (int index = 0; index < 2; index++) {
        struct direction *way = &ways[index];
        fprintf(stderr, "shaped-relay: %s -> %s: %lu frames relayed (largest %zu bytes), %lu lost, %lu over the queue, %lu not sent\n",
                argv[1 + index], argv[2 - index], way->relayed, way->largest, way->lost, way->overflowed, way->unsent);
    }
    return 0;
}
