/*
 * The sandbox: what a provider may do once its library is loaded (docs/PLUGINS.md,
 * Permissions; docs/SECURITY.md).
 *
 * actshare decides the policy (the paths and rights, from the manifest's permissions,
 * the items and the system's directories) and sends it in a SANDBOX frame; this file
 * only enforces it, in the worker, before the library is opened and for good:
 *   - PR_SET_NO_NEW_PRIVS: no setuid program gives the provider more rights;
 *   - Landlock: the file system (only the paths given, with their rights) and, unless
 *     the network is allowed, TCP bind and connect;
 *   - seccomp: system calls no provider needs fail (ptrace, mount, modules, namespaces,
 *     io_uring…); without network, sockets other than AF_UNIX; without exec, new
 *     processes and programs. A refused call fails with EPERM or EACCES; it does not
 *     kill, so the provider can say what failed;
 *   - resource limits: address space, file size, open files, processes; and the private
 *     TMPDIR a file system of its own with a size (in a user and mount namespace of the
 *     worker's), since memory held in files is counted by no resource limit; memory files
 *     and System V shared memory only for a display client.
 *   - Unix sockets: none, or only those listed, connected by the guard (supervisor.h).
 * What the sandbox refuses is noted (sandbox_note) and sent to actshare with the call's
 * result, so the user reads which path or call was refused.
 */
#ifndef ACTSHARE_PROVIDER_HOST_SANDBOX_H
#define ACTSHARE_PROVIDER_HOST_SANDBOX_H

#include <actshare/provider_protocol.h>

#include <stddef.h>
#include <stdint.h>

/* Applies the policy of a SANDBOX frame's payload. Returns 0, the Landlock ABI enforced
 * (0: this kernel has none) and what else is in force (ASP_SANDBOX_CAPPED_*), or an
 * ASP_ERROR_* kind with a reason in `error`. `unguarded`: the helper forked no guard
 * (containment.h), so a policy that lets the provider start processes or write a private
 * folder (which only a guard contains and removes) is refused. */
int sandbox_apply(asp_buffer *payload, int unguarded, uint32_t *abi, unsigned *capped, char *error, size_t error_size);

/* Confines the guard (which runs no provider code) for good: no new privileges, and no
 * program run. It connects sockets for the provider, and actshare's own services refuse
 * a confined caller (cactshare_process_is_confined), so they refuse those connections
 * too, as they refuse the provider's. */
void sandbox_confine_guard(void);

/* Whether a sandbox is in force. */
int sandbox_active(void);

/* Notes that the sandbox refused something (ASP_REFUSED_*, and its subject). Safe in a
 * signal handler and from any thread; the notes wait for sandbox_take_notes. */
void sandbox_note(unsigned what, const char *subject);

/* Calls `send` for each note taken since the last call, then forgets them. */
void sandbox_take_notes(void (*send)(unsigned what, const char *subject));

/* Whether a path (absolute, or relative to the working directory) lies within a path
 * the policy grants `rights` (ASP_RIGHT_*): a refusal of one that does is not the
 * sandbox's doing. */
int sandbox_grants(const char *path, unsigned rights);

#endif
