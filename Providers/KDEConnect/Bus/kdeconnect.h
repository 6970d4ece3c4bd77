/* What Send with KDE Connect's front (../front.c) calls in its bus part, which it opens
 * from beside itself (libkdeconnect-bus.so). */
#ifndef ACTSHARE_KDECONNECT_H
#define ACTSHARE_KDECONNECT_H

#include <actshare/provider.h>

#define KDECONNECT_BUS_LIBRARY "libkdeconnect-bus.so"

/* can-perform once the items are sendable and a device was ever paired: whether
 * kdeconnectd runs and a paired device is reachable now (the decline says which not). */
ACTSHARE_EXPORT int32_t kdeconnect_bus_can_perform(const actshare_request *request);

/* perform once the items are sendable: each to the device chosen. */
ACTSHARE_EXPORT int32_t kdeconnect_bus_send(const actshare_request *request, actshare_session *session);

#endif
