/* A test provider that records when its library is loaded. */
#ifndef ACTSHARE_FIXTURE_CANARY_H
#define ACTSHARE_FIXTURE_CANARY_H
#include <stdint.h>
int32_t canary_can_perform(const void *request);
int32_t canary_perform(const void *request, void *session);
#endif
