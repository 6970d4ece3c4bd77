#ifndef CACTSHARE_SYSTEM_H
#define CACTSHARE_SYSTEM_H

// Accessors for libc globals that Swift 6's strict concurrency checking rejects.

/// The process environment, for posix_spawn.
char **cactshare_environ(void);

#endif
