/*
 * GIO's content-type functions, loaded at first use.
 *
 * libgio-2.0.so.0 and the eight libraries under it cost more to map and bind than the
 * rest of actshare's start-up, and a copy of some text never needs a file's type. So
 * the library is opened with dlopen the first time a type is asked for, not linked.
 * Should it be missing, guesses fail (NULL) and a type is only a subclass of itself;
 * the reason is printed once on stderr.
 */
#ifndef CGIO_H
#define CGIO_H

#include <stddef.h>

/* g_content_type_guess: the type of a file by name and/or its first bytes; `uncertain`
 * is set when the name was not conclusive. Free the result with cgio_free. */
char *cgio_content_type_guess(const char *name, const unsigned char *data, size_t length, int *uncertain);

/* g_content_type_is_a: whether `type` is `supertype` or a subclass of it. */
int cgio_content_type_is_a(const char *type, const char *supertype);

/* g_content_type_get_mime_type: the canonical MIME type for an alias. Free with cgio_free. */
char *cgio_content_type_get_mime_type(const char *type);

void cgio_free(void *memory);

#endif
