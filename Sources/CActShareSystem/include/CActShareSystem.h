#ifndef CACTSHARE_SYSTEM_H
#define CACTSHARE_SYSTEM_H

// libc globals that Swift 6's strict concurrency checking rejects, and calls that Swift's
// Glibc module does not export (they need _GNU_SOURCE).

#include <spawn.h>
#include <stdint.h>

/// The GNU build id (hex) of the libactshare-daemon.so that scripts/link-release linked
/// this actshare with, or NULL in any other build.
const char *cactshare_daemon_library_build_id(void);

/// The process environment, for posix_spawn.
char **cactshare_environ(void);

/// pipe2(fds, O_CLOEXEC): both ends closed in every spawned process unless dup'ed there.
int cactshare_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np(actions, lowest): the child closes every
/// descriptor from `lowest` up, so it keeps none that another thread opened meanwhile.
int cactshare_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* ---- A helper started with or without waiting for its exec (spawn.c) --------------- */

/// The most descriptors cactshare_spawn hands a child.
#define CACTSHARE_SPAWN_MAX_DESCRIPTORS 8

/// A process cactshare_spawn started: what its child reads until it has exec'd, kept until
/// the process is reaped, and the error that stopped its exec, if one did.
typedef struct cactshare_spawned cactshare_spawned;

/// Starts `path` with `argv` and `envp` (NULL-terminated) as posix_spawn would; with
/// `concurrently`, returns without waiting for the child's exec (spawn.c says how, and why
/// that is safe; not under Valgrind, which cannot run such a child). The child reads
/// /dev/null on descriptor 0 and has `descriptors[i]` as descriptor i + 1 (`count` of
/// them, at most CACTSHARE_SPAWN_MAX_DESCRIPTORS), no other; it is in a process group of
/// its own, with no signal blocked, SIGINT, SIGTERM, SIGUSR1 and SIGPIPE at their
/// defaults, and no handler of this process. 0 with `*pid` and `*spawned` (free it with
/// cactshare_spawned_free once the child is reaped), or an errno value. An exec that fails
/// after a concurrent start returned ends the child with status 127
/// (cactshare_spawned_exec_error).
int cactshare_spawn(const char *path, char *const argv[], char *const envp[], const int *descriptors, int count,
                    int concurrently, pid_t *pid, cactshare_spawned **spawned);

/// The errno value that stopped the child's exec, or 0: read once the child has ended.
int cactshare_spawned_exec_error(const cactshare_spawned *spawned);

/// Frees what cactshare_spawn kept, after its child has been reaped (or NULL).
void cactshare_spawned_free(cactshare_spawned *spawned);

/// Large buffers (a clipboard's image, 1 MiB frames) kept in the heap and reused, not
/// mapped and zeroed afresh each time (mallopt: M_MMAP_THRESHOLD 32 MiB, M_TRIM_THRESHOLD
/// 128 MiB; glibc's defaults return them at once). What this keeps is given back by
/// cactshare_release_free_memory, which the daemon calls every few seconds.
void cactshare_reuse_large_buffers(void);

/// malloc_trim(0): the heap's free memory back to the system.
void cactshare_release_free_memory(void);

/// The cancellation flag: non-zero once SIGINT or SIGTERM arrived while caught.
volatile int32_t *cactshare_cancel_flag(void);

/// From now on SIGINT and SIGTERM set the cancellation flag instead of ending the process.
void cactshare_catch_cancel_signals(void);

/// renameat2(from, to, RENAME_NOREPLACE): moves `from` to `to` only if nothing is at
/// `to` (EEXIST otherwise), atomically, for files and folders alike.
int cactshare_rename_noreplace(const char *from, const char *to);

/// renameat2(…, RENAME_NOREPLACE) between two open folders: `from` in `from_directory`
/// moves to `to` in `to_directory` only if nothing is there.
int cactshare_renameat_noreplace(int from_directory, const char *from, int to_directory, const char *to);

/// The Landlock ABI this kernel offers, or 0 when it has none (or it is disabled).
int cactshare_landlock_abi(void);

/// Removes `path` and everything beneath it, depth first and without following symbolic
/// links; returns 0, or -1 if something could not be removed.
int cactshare_remove_tree(const char *path);

/// Removes `name` in the open folder `directory`: a file or link itself, a folder with
/// everything beneath it; never through a link. 0, or -1.
int cactshare_remove_tree_at(int directory, const char *name);

/// A Unix socket's peer as the kernel saw it connect (struct ucred, which needs
/// _GNU_SOURCE): read with getsockopt(SO_PEERCRED).
typedef struct cactshare_peer_credentials {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
} cactshare_peer_credentials;

/// Whether process `pid` runs confined (docs/SECURITY.md): with no new privileges, the
/// mark every unprivileged sandbox must set before Landlock or seccomp take it (a
/// provider's, Flatpak's, bubblewrap's), which neither it nor its children can clear. A
/// sandboxed provider, and the helper's guard that connects sockets for it, always are.
/// A process whose status cannot be read counts as confined. 1 or 0.
int cactshare_process_is_confined(int pid);

/* ---- Messages in the person's language (gettext; localization.c) ------------------ */

/// Chooses the messages' language from the environment (LANGUAGE, LC_MESSAGES, LANG) and
/// reads `domain`'s catalogs from `directory` (NULL: the system's).
void cactshare_localization_set_up(const char *domain, const char *directory);
/// `message` in the person's language, or `message` itself.
const char *cactshare_translate(const char *domain, const char *message);
/// `one` or `many`, as `count` asks in the person's language.
const char *cactshare_translate_plural(const char *domain, const char *one, const char *many, unsigned long count);
/// `message` in `language` (such as "de"), or `message` itself: for files that carry every
/// language at once (desktop entries' Name[de]=). Not thread-safe: it sets LANGUAGE.
const char *cactshare_translate_into(const char *domain, const char *message, const char *language);

#endif
