/*
 * Calls one provider hook through libffi, marshalling the argument words of a manifest.
 * Shared by the in-process host (from Swift) and actshare-provider-host (C), so both
 * call a provider in exactly the same way.
 */
#ifndef CACTSHARE_CALL_H
#define CACTSHARE_CALL_H

#include <stddef.h>
#include <stdint.h>

#include <actshare/provider.h>

/* Argument words, in the order of HookArgument in ActShareCore. */
enum {
    CAS_ARG_ITEM_PATH = 0,
    CAS_ARG_ITEM_URI = 1,
    CAS_ARG_ITEM_TEXT = 2,
    CAS_ARG_ITEM_CONTENT_TYPE = 3,
    CAS_ARG_ITEM_SIZE = 4,
    CAS_ARG_ITEM_DATA = 5, /* two C arguments: pointer and length */
    CAS_ARG_ITEMS_COUNT = 6,
    CAS_ARG_ACTIVITY_TYPE = 7,
    CAS_ARG_OPTION = 8,
    CAS_ARG_REQUEST = 9,
    CAS_ARG_SESSION = 10,
};

/* Return words. */
enum {
    CAS_RETURN_STATUS = 0,  /* int32_t */
    CAS_RETURN_BOOL = 1,    /* C bool */
    CAS_RETURN_STRING = 2,  /* const char * */
    CAS_RETURN_VOID = 3,
    CAS_RETURN_VERDICT = 4, /* int32_t, the standard can-perform */
};

typedef struct cas_argument {
    int32_t word;       /* a CAS_ARG_* */
    const char *option; /* for CAS_ARG_OPTION: the option's name */
} cas_argument;

/* The most C arguments a hook may take (item.data counts twice). */
#define CAS_MAX_ARGUMENTS 32

/*
 * Calls `function` with the arguments the words describe, for item `item` (or -1 when
 * no word is per item). On success returns 0 and stores the raw return in `*result`:
 * integers widened to 64 bits, a pointer's address, 0 for void. On failure (a file
 * that cannot be read for item.data, too many arguments, libffi refusing the call)
 * returns -1 and writes a message into `error`.
 */
int cas_invoke(void *function, const cas_argument *arguments, size_t argument_count, int32_t returns,
               const actshare_request *request, actshare_session *session, long item, uint64_t *result,
               char *error, size_t error_size);

#endif
