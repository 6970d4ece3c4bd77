#include "CActShareMulticast.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int set_int(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof value);
}

int cactshare_multicast_socket(uint16_t port) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    if (set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1) < 0 || set_int(fd, SOL_SOCKET, SO_REUSEPORT, 1) < 0 ||
        set_int(fd, IPPROTO_IP, IP_PKTINFO, 1) < 0 || set_int(fd, IPPROTO_IP, IP_RECVTTL, 1) < 0 ||
        set_int(fd, IPPROTO_IP, IP_MULTICAST_TTL, 255) < 0 || set_int(fd, IPPROTO_IP, IP_MULTICAST_LOOP, 1) < 0 ||
        bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int cactshare_multicast_join(int fd, uint32_t group, int interface_index) {
    struct ip_mreqn request;
    memset(&request, 0, sizeof request);
    request.imr_multiaddr.s_addr = group;
    request.imr_ifindex = interface_index;
    return setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &request, sizeof request);
}

ssize_t cactshare_multicast_send(int fd, const void *bytes, size_t size, uint32_t address, uint16_t port, int interface_index) {
    if (IN_MULTICAST(ntohl(address))) {
        struct ip_mreqn request;
        memset(&request, 0, sizeof request);
        request.imr_ifindex = interface_index;
        if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &request, sizeof request) < 0) return -1;
    }
    struct sockaddr_in to;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = port;
    to.sin_addr.s_addr = address;
    return sendto(fd, bytes, size, 0, (struct sockaddr *)&to, sizeof to);
}

ssize_t cactshare_multicast_receive(int fd, void *bytes, size_t size, uint32_t *from, uint16_t *from_port,
                                    int *interface_index, int *ttl, int *truncated) {
    struct sockaddr_in sender;
    struct iovec part = {bytes, size};
    char control[CMSG_SPACE(sizeof(struct in_pktinfo)) + CMSG_SPACE(sizeof(int))];
    struct msghdr message;
    memset(&message, 0, sizeof message);
    memset(&sender, 0, sizeof sender);
    message.msg_name = &sender;
    message.msg_namelen = sizeof sender;
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t length = recvmsg(fd, &message, 0);
    if (length < 0) return -1;
    *from = sender.sin_addr.s_addr;
    *from_port = sender.sin_port;
    *interface_index = 0;
    *ttl = -1;
    *truncated = (message.msg_flags & MSG_TRUNC) != 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != IPPROTO_IP) continue;
        if (header->cmsg_type == IP_PKTINFO) {
            struct in_pktinfo info;
            memcpy(&info, CMSG_DATA(header), sizeof info);
            *interface_index = info.ipi_ifindex;
        } else if (header->cmsg_type == IP_TTL) {
            int value;
            memcpy(&value, CMSG_DATA(header), sizeof value);
            *ttl = value;
        }
    }
    return length;
}
