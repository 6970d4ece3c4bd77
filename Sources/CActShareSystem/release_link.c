#include "CActShareSystem.h"

#include <stddef.h>

/* Defined only when scripts/link-release relinks actshare (a generated object with the
 * daemon library's build id); everywhere else this weak reference is NULL. */
extern const char actshare_daemon_library_build_id[] __attribute__((weak));

const char *cactshare_daemon_library_build_id(void) {
    return actshare_daemon_library_build_id;
}
