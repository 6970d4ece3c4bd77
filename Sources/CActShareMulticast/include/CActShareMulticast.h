#ifndef CACTSHARE_MULTICAST_H
#define CACTSHARE_MULTICAST_H

// The socket calls of multicast DNS that Swift reaches badly: socket options by struct,
// and recvmsg's control messages (which interface a datagram came in on, its TTL).

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// A non-blocking, close-on-exec UDP socket bound to 0.0.0.0:`port`, shared with other
/// responders on the port (SO_REUSEADDR, SO_REUSEPORT), multicast sent with TTL 255 and
/// looped back, each datagram received with its interface and TTL. -1 and errno on failure.
int cactshare_multicast_socket(uint16_t port);

/// Joins `group` (network byte order) on the interface of index `interface_index`.
int cactshare_multicast_join(int fd, uint32_t group, int interface_index);

/// Sends `size` bytes to `address`:`port` (network byte order), out of the interface of
/// index `interface_index` when the address is a multicast group.
ssize_t cactshare_multicast_send(int fd, const void *bytes, size_t size, uint32_t address, uint16_t port, int interface_index);

/// Receives one datagram of at most `size` bytes: its sender (network byte order), the
/// interface it came in on (0 if unknown) and its IP TTL (-1 if unknown); `*truncated` is
/// non-zero when it was longer than `size`. The length, or -1 and errno.
ssize_t cactshare_multicast_receive(int fd, void *bytes, size_t size, uint32_t *from, uint16_t *from_port,
                                    int *interface_index, int *ttl, int *truncated);

#endif
