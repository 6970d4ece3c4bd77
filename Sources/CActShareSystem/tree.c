/* cactshare_remove_tree and cactshare_remove_tree_at (CActShareSystem.h): also compiled
 * into actshare-provider-host, whose guard removes a provider's private directory. */
#include "CActShareSystem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Removes what `directory` (an open descriptor, consumed) holds, at most `depth` levels
 * down: a provider could nest folders deeper than any stack. */
static int remove_contents(int directory, int depth) {
    DIR *stream = fdopendir(directory);
    if (!stream) {
        close(directory);
        return -1;
    }
    int result = 0;
    struct dirent *entry;
    while ((entry = readdir(stream))) {
        const char *name = entry->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
        if (unlinkat(dirfd(stream), name, 0) == 0) continue;
        if (errno != EISDIR || depth == 0) {
            result = -1;
            continue;
        }
        int child = openat(dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child < 0 && errno == EACCES) {
            /* A folder whose mode keeps even its owner out (as received): opened up first,
             * never through a link (AT_SYMLINK_NOFOLLOW). */
            fchmodat(dirfd(stream), name, 0700, AT_SYMLINK_NOFOLLOW);
            child = openat(dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        if (child < 0 || remove_contents(child, depth - 1) != 0 || unlinkat(dirfd(stream), name, AT_REMOVEDIR) != 0) result = -1;
    }
    closedir(stream);
    return result;
}

int cactshare_remove_tree_at(int directory, const char *name) {
    if (unlinkat(directory, name, 0) == 0) return 0;
    if (errno != EISDIR) return -1;
    int child = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child < 0 && errno == EACCES) {
        fchmodat(directory, name, 0700, AT_SYMLINK_NOFOLLOW);
        child = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (child < 0 || remove_contents(child, 256) != 0) return -1;
    return unlinkat(directory, name, AT_REMOVEDIR);
}

int cactshare_remove_tree(const char *path) {
    int directory = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (directory < 0) return -1;
    if (remove_contents(directory, 256) != 0) return -1;
    return rmdir(path);
}
