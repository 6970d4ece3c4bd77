/* Upload (org.actshare.webdav): what its front (front.c, libc only: the targets at every
 * list) hands its upload part, libwebdav-upload.so beside it (Upload/webdav-upload.c:
 * libcurl, libsecret, json-c), which it opens only to upload. */
#ifndef ACTSHARE_WEBDAV_H
#define ACTSHARE_WEBDAV_H

#include <actshare/provider.h>

#define WEBDAV_UPLOAD_LIBRARY "libwebdav-upload.so"

/* One account of the config's `uploads:`, as actshare hands it in the option `accounts`:
 * a line each, its fields separated by tabs in this order (ConfigDecoder checked them:
 * none holds a tab or a line break, the URL is https:// or `insecure` is "true"). */
typedef struct webdav_account {
    const char *name;     /* what the user reads, and the target's id: "Cloud" */
    const char *url;      /* the folder uploads go to, ending in '/' */
    const char *user;
    const char *link;     /* the base of a public link to what is uploaded, or "" */
    const char *insecure; /* "true": http:// allowed */
    const char *pin;      /* "sha256//BASE64" of the server's public key, or "" */
} webdav_account;

#define WEBDAV_ACCOUNT_FIELDS 6

/* Uploads the request's items to `account` and returns their links (upload part). */
ACTSHARE_EXPORT int32_t webdav_upload(const actshare_request *request, actshare_session *session, const webdav_account *account);

/* Stores `password` in the Secret Service for the account of `url`, `user` and `pin` ("" for
 * none), which webdav_upload finds it by (for `actshare uploads login`): 0, or -1 with
 * `error` set. */
ACTSHARE_EXPORT int webdav_store_password(const char *url, const char *user, const char *pin, const char *label, const char *password,
                                          char *error, size_t error_size);

#endif
