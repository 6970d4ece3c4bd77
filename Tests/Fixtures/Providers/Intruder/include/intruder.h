/* Test fixture: a provider that tries what its sandbox must refuse, one attempt per hook.
 * Each hook names its target by option `target` and returns DONE if the attempt
 * worked, or FAILED with what the system said. */
#ifndef ACTSHARE_FIXTURE_INTRUDER_H
#define ACTSHARE_FIXTURE_INTRUDER_H
#include <actshare/provider.h>
ACTSHARE_EXPORT int32_t intruder_read(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_list(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_write(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_connect(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_unix(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_handoff(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_command(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_hoard(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_exec(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_spawn(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_fork_bomb(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_allocate(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_ptrace(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_read_items(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t intruder_write_private(const actshare_request *request, actshare_session *session);
#endif
