/*
 * What the handoff daemon shares with its clients, written once for the Swift daemon and
 * CLI (ActShareHandoff: HandoffPaths, HandoffFailureCode, HandoffDefaults) and the C Hand
 * Off provider alike (docs/PROTOCOL.md).
 */
#ifndef ACTSHARE_HANDOFF_PROTOCOL_H
#define ACTSHARE_HANDOFF_PROTOCOL_H

/* Where the daemon keeps its files. */

/** The folder under `$XDG_RUNTIME_DIR` and under `$XDG_STATE_HOME`. */
#define ACTSHARE_HANDOFF_FOLDER "actshare"

/** The runtime folder's prefix when `XDG_RUNTIME_DIR` is unset: the user id follows. */
#define ACTSHARE_HANDOFF_RUNTIME_FALLBACK "/tmp/actshare-"

/** The control socket, in the runtime folder. */
#define ACTSHARE_HANDOFF_CONTROL_SOCKET "daemon.sock"

/** The paired devices (a JSON array, `[]` when none), in the state folder. */
#define ACTSHARE_HANDOFF_PAIRED_DEVICES "paired-devices.json"

/* The Hand Off activities (Providers/Handoff, Providers/Handoff/handoff.yaml), whose targets are the
 * devices, and the option scripts name the device by (id or name) instead of --target.
 * Copy to Device, or Hand Off's option `clipboard` (true), puts the items on that device's
 * clipboard instead (Universal Clipboard): the sheet shows it as a second button on the
 * device's tile. */
#define ACTSHARE_HANDOFF_ACTIVITY_TYPE "org.actshare.handoff"
#define ACTSHARE_HANDOFF_CLIPBOARD_ACTIVITY_TYPE "org.actshare.handoff.clipboard"
/* Quick Share's QR way: a code the user scans with the phone that is to get the items. */
#define ACTSHARE_HANDOFF_QUICKSHARE_ACTIVITY_TYPE "org.actshare.handoff.quickshare"
#define ACTSHARE_HANDOFF_DEVICE_OPTION "device"
#define ACTSHARE_HANDOFF_CLIPBOARD_OPTION "clipboard"

/* The TCP port daemons listen on for each other, unless configured. */
#define ACTSHARE_HANDOFF_DEFAULT_PORT 53840

/* The DNS-SD service name daemons advertise over multicast DNS: `_actshare._tcp`. */
#define ACTSHARE_HANDOFF_SERVICE_NAME "_actshare"

/* Why a control request failed: its answer's `exit_code`, which the CLI exits with. */

/** Anything else: the device is unreachable, a disk is full. */
#define ACTSHARE_HANDOFF_FAILED 1
/** The request cannot be used as given: an unknown device, a bad activity, a link. */
#define ACTSHARE_HANDOFF_BAD_INPUT 2
/** Nothing to continue, or nothing here continues it. */
#define ACTSHARE_HANDOFF_NOT_FOUND 3
/** The user cancelled. */
#define ACTSHARE_HANDOFF_CANCELLED 4

#endif
