/*
 * Upload's front: the accounts of the config's `uploads:` (handed in the option
 * `accounts`, see webdav.h) as targets, one each, at every list; libc only. To upload, it
 * opens its upload part beside it (libwebdav-upload.so: libcurl, libsecret). See
 * docs/CONFIG.md, "uploads", and docs/DESKTOP.md, "Upload".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sibling.h"
#include "request.h"
#include "webdav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ACTSHARE_EXPORT int32_t webdav_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t webdav_perform(const actshare_request *request, actshare_session *session);

/* The most accounts read (a target each: ACTSHARE_MAX_TARGETS). */
#define MAX_ACCOUNTS ACTSHARE_MAX_TARGETS

/* Splits `text` (a copy the caller frees) into accounts: how many. */
static size_t parse_accounts(char *text, webdav_account *accounts, size_t capacity) {
    size_t count = 0;
    for (char *line = text, *next; line && *line && count < capacity; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        const char *fields[WEBDAV_ACCOUNT_FIELDS];
        size_t found = 0;
        for (char *field = line, *tab; found < WEBDAV_ACCOUNT_FIELDS; field = tab + 1) {
            fields[found++] = field;
            tab = strchr(field, '\t');
            if (!tab) break;
            *tab = '\0';
        }
        if (found != WEBDAV_ACCOUNT_FIELDS || !*fields[0] || !*fields[1]) continue;
        accounts[count++] = (webdav_account){fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]};
    }
    return count;
}

int32_t webdav_can_perform(const actshare_request *request) {
    const char *given = request_option(request, "accounts");
    if (!given || !*given) {
        actshare_decline(request, "No upload account: add one under uploads: in the config (docs/CONFIG.md), then "
                                  "store its password with actshare uploads login NAME");
        return 0;
    }
    char *text = strdup(given);
    webdav_account accounts[MAX_ACCOUNTS];
    size_t count = text ? parse_accounts(text, accounts, MAX_ACCOUNTS) : 0;
    for (size_t i = 0; i < count; i++) {
        actshare_target target = {sizeof target, ACTSHARE_TARGET_PLACE, accounts[i].name, accounts[i].name, accounts[i].url, "folder-remote"};
        actshare_add_target(request, &target);
    }
    free(text);
    return count > 0;
}

int32_t webdav_perform(const actshare_request *request, actshare_session *session) {
    const char *given = session->option(session, "accounts");
    char *text = given ? strdup(given) : NULL;
    webdav_account accounts[MAX_ACCOUNTS];
    size_t count = text ? parse_accounts(text, accounts, MAX_ACCOUNTS) : 0;
    const char *chosen = actshare_request_target(request);
    const webdav_account *account = NULL;
    for (size_t i = 0; i < count && !account; i++) {
        if (!chosen ? count == 1 : strcmp(accounts[i].name, chosen) == 0) account = &accounts[i];
    }
    int32_t status = ACTSHARE_STATUS_BAD_INPUT;
    char error[600];
    if (!account) {
        session->set_error(session, count == 0 ? "no upload account: add one under uploads: in the config"
                                    : chosen   ? "no upload account has that name"
                                               : "several upload accounts: choose one with --target NAME");
    } else {
        int32_t (*upload)(const actshare_request *, actshare_session *, const webdav_account *) =
            (int32_t (*)(const actshare_request *, actshare_session *, const webdav_account *))sibling_symbol(
                (const void *)webdav_perform, WEBDAV_UPLOAD_LIBRARY, "webdav_upload", error, sizeof error);
        if (upload) {
            status = upload(request, session, account);
        } else {
            session->set_error(session, error);
            status = ACTSHARE_STATUS_FAILED;
        }
    }
    free(text);
    return status;
}
