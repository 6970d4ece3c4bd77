/* The Copy provider: org.actshare.copy-to-clipboard. */
#ifndef ACTSHARE_CLIPBOARD_H
#define ACTSHARE_CLIPBOARD_H
#include <actshare/provider.h>
ACTSHARE_EXPORT int32_t clipboard_copy(const actshare_request *request, actshare_session *session);
#endif
