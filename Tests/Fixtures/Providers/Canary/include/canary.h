/* A test provider that records when its library is loaded. */
#ifndef ACTSHARE_FIXTURE_CANARY_H
#define ACTSHARE_FIXTURE_CANARY_H
#include <actshare/provider.h>
ACTSHARE_EXPORT int32_t canary_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t canary_perform(const actshare_request *request, actshare_session *session);
#endif
