/* The hooks of the Hello example provider, with the standard signatures of provider.h. */
#ifndef ACTSHARE_EXAMPLE_HELLO_H
#define ACTSHARE_EXAMPLE_HELLO_H

#include <actshare/provider.h>

ACTSHARE_EXPORT int32_t hello_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t hello_prepare(actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hello_greet(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t hello_sign(const actshare_request *request, actshare_session *session);

#endif
