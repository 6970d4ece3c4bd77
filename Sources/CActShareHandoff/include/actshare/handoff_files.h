/*
 * Where the handoff daemon keeps its files, for the Swift daemon and CLI
 * (ActShareHandoff.HandoffPaths) and the C Hand Off provider alike, so that each name
 * is written once (docs/PROTOCOL.md).
 */
#ifndef ACTSHARE_HANDOFF_FILES_H
#define ACTSHARE_HANDOFF_FILES_H

/** The folder under `$XDG_RUNTIME_DIR` and under `$XDG_STATE_HOME`. */
#define ACTSHARE_HANDOFF_FOLDER "actshare"

/** The runtime folder's prefix when `XDG_RUNTIME_DIR` is unset: the user id follows. */
#define ACTSHARE_HANDOFF_RUNTIME_FALLBACK "/tmp/actshare-"

/** The control socket, in the runtime folder. */
#define ACTSHARE_HANDOFF_CONTROL_SOCKET "daemon.sock"

/** The paired devices (a JSON array, `[]` when none), in the state folder. */
#define ACTSHARE_HANDOFF_PAIRED_DEVICES "paired-devices.json"

#endif
