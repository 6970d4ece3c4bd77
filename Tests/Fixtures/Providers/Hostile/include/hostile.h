/* Test fixture: hooks that misbehave in every way a provider can, one per function. */
#ifndef ACTSHARE_FIXTURE_HOSTILE_H
#define ACTSHARE_FIXTURE_HOSTILE_H
#include <actshare/provider.h>
ACTSHARE_EXPORT int32_t hostile_segv(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_abort(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_bus(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_exit(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_hang(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_garbage(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_short_reply(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_close(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_print(const actshare_request *request);
ACTSHARE_EXPORT const char *hostile_huge(void);
ACTSHARE_EXPORT const char *hostile_bad_utf8(void);
ACTSHARE_EXPORT int32_t hostile_wait_for_cancel(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_ignore_cancel(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_yes(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_decline(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_escape(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_close_requests(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_close_requests_prepare(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_write_temporary(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_hang_elsewhere(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_fork_exit(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_fork_many(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_done_after(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_chatter(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_bad_items(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_make_file(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_write_beside(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_heap_overflow(const actshare_request *request);
ACTSHARE_EXPORT int32_t hostile_status_42(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_bad_messages(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_slow_progress(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_slow_silence(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hostile_environment(const actshare_request *request, actshare_session *session);
#endif
