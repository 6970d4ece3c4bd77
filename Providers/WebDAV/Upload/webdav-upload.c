/*
 * Upload's upload part: the items sent to a WebDAV folder (Nextcloud, ownCloud, any
 * WebDAV server) with libcurl, the password from the Secret Service (libsecret), and the
 * links to what was uploaded put on the clipboard (through Copy's library) and returned.
 *
 * Nothing half-sent ever has a real name on the server: each item goes up under a hidden
 * partial name (".NAME.actshare-partial-XXXXXXXX"; a folder as a tree under one), then is
 * moved to its name with `MOVE` and `Overwrite: F`, or to "name (1).ext", "name (2).ext"…
 * while the server answers that the name is taken (412). A failure or a cancel deletes
 * the partial one (if the server still answers). Files are streamed from their
 * descriptors, so memory stays bounded whatever their size.
 *
 * HTTPS only, unless the account says `insecure: true`. The server's certificate is
 * checked against the system's CAs; with a `pin` ("sha256//BASE64" of its public key,
 * curl's form), that key alone is trusted instead (a self-signed server of one's own).
 * Redirects are never followed: a 3xx is reported with where it points.
 *
 * A link is Nextcloud's (a public share made through its OCS API) when the account's URL
 * is a Nextcloud files URL (…/remote.php/dav/files/USER/…) and the server makes one;
 * else the account's `link` followed by the name; else none (the upload's URL is said).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "buffer.h"
#include "sibling.h"
#include "webdav.h"

#include <curl/curl.h>
#include <json-c/json.h>
#include <libsecret/secret.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <unistd.h>

/* The deepest folder tree sent, the most names tried for one item. */
#define MAX_DEPTH 64
#define MAX_TRIES 1000
/* A server that sends or takes less than a byte a second for this long has stopped. */
#define STALL_SECONDS 60L
#define CONNECT_SECONDS 30L

/* The Secret Service's schema for upload passwords: one per server folder, user and pin.
 * The pin is part of it because the accounts reach this library as an option, which
 * whoever runs the activity may give (`-o accounts=`, an app through D-Bus): an account
 * copied with a pin of someone else's key must not get the password stored for the one
 * whose certificate the system's CAs vouch for, and send it to them. */
static const SecretSchema password_schema = {
    "org.actshare.Upload",
    SECRET_SCHEMA_NONE,
    {{"url", SECRET_SCHEMA_ATTRIBUTE_STRING}, {"user", SECRET_SCHEMA_ATTRIBUTE_STRING}, {"pin", SECRET_SCHEMA_ATTRIBUTE_STRING}, {NULL, 0}},
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

typedef struct upload {
    CURL *curl;
    const webdav_account *account;
    actshare_session *session;
    char *password;
    uint64_t total, sent, sending; /* bytes, for the progress; `sending` within the current PUT */
    char error[1600];
    int cancelled;
    int cleaning; /* removing a partial upload: not to be cut short by the cancel that caused it */
} upload;

/* A body being sent: from a descriptor, or from memory. */
typedef struct body {
    int fd;
    const char *bytes;
    size_t length, offset;
} body;

static size_t read_body(char *out, size_t size, size_t count, void *data) {
    body *source = data;
    if (source->fd >= 0) {
        ssize_t got;
        do {
            got = read(source->fd, out, size * count);
        } while (got < 0 && errno == EINTR);
        return got < 0 ? CURL_READFUNC_ABORT : (size_t)got;
    }
    size_t length = source->length - source->offset < size * count ? source->length - source->offset : size * count;
    memcpy(out, source->bytes + source->offset, length);
    source->offset += length;
    return length;
}

static size_t discard(char *bytes, size_t size, size_t count, void *data) {
    (void)bytes;
    buffer *kept = data;
    if (kept && kept->length < 65536) buffer_append(kept, bytes, size * count);
    return size * count;
}

static int on_progress(void *data, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total, curl_off_t uploaded) {
    (void)download_total, (void)downloaded, (void)upload_total;
    upload *u = data;
    if (!u->cleaning && u->session->is_cancelled(u->session)) {
        u->cancelled = 1;
        return 1;
    }
    u->sending = (uint64_t)uploaded;
    if (u->total) {
        double fraction = (double)(u->sent + u->sending) / (double)u->total;
        u->session->progress(u->session, fraction > 0.99 ? 0.99 : fraction);
    }
    return 0;
}

/* The URL of `name` (percent-encoded) in the folder URL `folder`, with '/' for a folder. */
static void url_of(upload *u, const char *folder, const char *name, int collection, buffer *out) {
    char *escaped = curl_easy_escape(u->curl, name, 0);
    buffer_append_format(out, "%s%s%s", folder, escaped ? escaped : "", collection ? "/" : "");
    curl_free(escaped);
}

/* What a failed request means, in words, into u->error. */
static void say_failure(upload *u, const char *what, CURLcode code, long status, const char *location) {
    const webdav_account *a = u->account;
    if (u->cancelled) snprintf(u->error, sizeof u->error, "cancelled");
    else if ((code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_PINNEDPUBKEYNOTMATCH) && *a->pin)
        snprintf(u->error, sizeof u->error, "%s's server did not show the key its pin names (%s): it is not the server you set up, "
                 "or its key changed", a->name, a->pin);
    else if (code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE)
        snprintf(u->error, sizeof u->error, "%s's server has a certificate this computer does not trust (%s): if the server is "
                 "your own, put the pin of its key in the account (docs/CONFIG.md, uploads)", a->name, curl_easy_strerror(code));
    else if (code == CURLE_OPERATION_TIMEDOUT)
        snprintf(u->error, sizeof u->error, "%s's server stopped answering while %s (nothing for %ld s)", a->name, what, STALL_SECONDS);
    else if (code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST)
        snprintf(u->error, sizeof u->error, "cannot reach %s's server (%s)", a->name, curl_easy_strerror(code));
    else if (code != CURLE_OK)
        snprintf(u->error, sizeof u->error, "%s failed while %s: %s", a->name, what, curl_easy_strerror(code));
    else if (status == 401)
        snprintf(u->error, sizeof u->error, "%s's server refused the password of %s (401): store the right one with "
                 "actshare uploads login %s", a->name, a->user, a->name);
    else if (status == 403)
        snprintf(u->error, sizeof u->error, "%s may not write in %s (403 Forbidden)", a->user, a->url);
    else if (status == 404 || status == 409)
        snprintf(u->error, sizeof u->error, "the folder %s is not on %s's server (%ld): check the account's url", a->url, a->name, status);
    else if (status == 507)
        snprintf(u->error, sizeof u->error, "%s has no room left for this (507 Insufficient Storage)", a->name);
    else if (status >= 300 && status < 400)
        snprintf(u->error, sizeof u->error, "%s's server sends uploads elsewhere (%ld to %s), which actshare does not follow: "
                 "put that URL in the account", a->name, status, location ? location : "no address");
    else
        snprintf(u->error, sizeof u->error, "%s's server answered %ld while %s", a->name, status, what);
}

/* One request: its HTTP status, or -1 with u->error set (a transfer that failed). */
static long perform(upload *u, const char *method, const char *url, struct curl_slist *headers, body *source, uint64_t length,
                    buffer *answer, const char *what) {
    CURL *curl = u->curl;
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, *u->account->insecure == 't' ? "https,http" : "https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_USERNAME, u->account->user);
    curl_easy_setopt(curl, CURLOPT_PASSWORD, u->password);
    curl_easy_setopt(curl, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, CONNECT_SECONDS);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, STALL_SECONDS);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "actshare");
    if (*u->account->pin) {
        /* The pinned key alone is trusted: a server of one's own, self-signed. */
        curl_easy_setopt(curl, CURLOPT_PINNEDPUBLICKEY, u->account->pin);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, u);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (source) {
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_body);
        curl_easy_setopt(curl, CURLOPT_READDATA, source);
        curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)length);
    }
    if (strcmp(method, "PUT") != 0 || !source) curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    u->sending = 0;
    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (code != CURLE_OK) {
        say_failure(u, what, code, 0, NULL);
        return -1;
    }
    return status;
}

/* Whether `status` is a success for a write. Any other is said into u->error. */
static int succeeded(upload *u, long status, const char *what) {
    if (status < 0) return 0;
    if (status >= 200 && status < 300) return 1;
    char *location = NULL;
    curl_easy_getinfo(u->curl, CURLINFO_REDIRECT_URL, &location);
    say_failure(u, what, CURLE_OK, status, location);
    return 0;
}

/* Removes the partial `url` (a file or a tree), as far as the server still answers. */
static void remove_partial(upload *u, const char *url) {
    char saved[sizeof u->error];
    memcpy(saved, u->error, sizeof saved);
    u->cleaning = 1;
    perform(u, "DELETE", url, NULL, NULL, 0, NULL, "removing a partial upload");
    u->cleaning = 0;
    memcpy(u->error, saved, sizeof saved);
}

/* PUTs the file open as `fd` (`length` bytes) to `url`: 0, or -1 with u->error set. */
static int put_file(upload *u, const char *url, int fd, uint64_t length, const char *name) {
    body source = {fd, NULL, 0, 0};
    struct curl_slist *headers = curl_slist_append(NULL, "If-None-Match: *");
    char what[400];
    snprintf(what, sizeof what, "sending %s", name);
    long status = perform(u, "PUT", url, headers, &source, length, NULL, what);
    curl_slist_free_all(headers);
    u->sent += u->sending;
    return succeeded(u, status, what) ? 0 : -1;
}

/* Sends the folder open as `directory` into the collection `url` (made already). */
static int put_tree(upload *u, int directory, const char *url, int depth) {
    if (depth > MAX_DEPTH) {
        snprintf(u->error, sizeof u->error, "a folder is more than %d levels deep", MAX_DEPTH);
        return -1;
    }
    DIR *listing = fdopendir(dup(directory));
    if (!listing) {
        snprintf(u->error, sizeof u->error, "cannot read a folder: %s", strerror(errno));
        return -1;
    }
    int failed = 0;
    for (struct dirent *entry; !failed && (entry = readdir(listing));) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        struct stat status;
        if (fstatat(directory, entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0) continue;
        buffer child = {0};
        url_of(u, url, entry->d_name, S_ISDIR(status.st_mode), &child);
        if (S_ISDIR(status.st_mode)) {
            int inner = openat(directory, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            long made = inner >= 0 ? perform(u, "MKCOL", child.bytes, NULL, NULL, 0, NULL, "making a folder") : -1;
            if (inner < 0) snprintf(u->error, sizeof u->error, "cannot open the folder %s: %s", entry->d_name, strerror(errno));
            failed = !succeeded(u, made, "making a folder") || put_tree(u, inner, child.bytes, depth + 1) != 0;
            if (inner >= 0) close(inner);
        } else if (S_ISREG(status.st_mode)) {
            int fd = openat(directory, entry->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) {
                snprintf(u->error, sizeof u->error, "cannot read %s: %s", entry->d_name, strerror(errno));
                failed = 1;
            } else {
                failed = put_file(u, child.bytes, fd, (uint64_t)status.st_size, entry->d_name) != 0;
                close(fd);
            }
        } else {
            char said[600];
            snprintf(said, sizeof said, "%s was left out: it is a link, FIFO, device or socket, not a file", entry->d_name);
            u->session->log(u->session, ACTSHARE_LOG_WARNING, said);
        }
        buffer_free(&child);
    }
    closedir(listing);
    return failed ? -1 : 0;
}

/* "name (n).ext" for try n (0: the name itself). */
static void numbered(const char *name, int n, buffer *out) {
    if (n == 0) {
        buffer_append_string(out, name);
        return;
    }
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name) dot = name + strlen(name);
    buffer_append_format(out, "%.*s (%d)%s", (int)(dot - name), name, n, dot);
}

/* Moves the partial `from` to `name` in the account's folder, or the first free
 * "name (n).ext": the name it took, or NULL with u->error set. */
static char *move_into_place(upload *u, const char *from, const char *name, int collection) {
    for (int n = 0; n < MAX_TRIES; n++) {
        buffer candidate = {0}, to = {0}, destination = {0};
        numbered(name, n, &candidate);
        url_of(u, u->account->url, candidate.bytes, collection, &to);
        buffer_append_format(&destination, "Destination: %s", to.bytes);
        struct curl_slist *headers = curl_slist_append(NULL, destination.bytes);
        headers = curl_slist_append(headers, "Overwrite: F");
        long status = perform(u, "MOVE", from, headers, NULL, 0, NULL, "naming the upload");
        curl_slist_free_all(headers);
        buffer_free(&to);
        buffer_free(&destination);
        if (status == 412) {
            buffer_free(&candidate);
            continue;
        }
        if (!succeeded(u, status, "naming the upload")) {
            buffer_free(&candidate);
            return NULL;
        }
        return candidate.bytes;
    }
    snprintf(u->error, sizeof u->error, "%s and %d names like it are taken on %s", name, MAX_TRIES, u->account->name);
    return NULL;
}

/* The name a text goes up as: its first line, cut to 60 characters, ".txt". */
static void text_name(const char *text, buffer *out) {
    size_t kept = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && *c != '\n' && *c != '\r' && kept < 60; c++, kept++) {
        if (*c < 0x20 || *c == 0x7f || *c == '/' || *c == '\\') buffer_append_string(out, " ");
        else buffer_append(out, (const char *)c, 1);
    }
    while (out->length && out->bytes[out->length - 1] == ' ') out->bytes[--out->length] = '\0';
    if (!out->length || out->bytes[0] == '.') buffer_append_string(out, "Text");
    buffer_append_string(out, ".txt");
}

/* Sends one item under a partial name, then moves it into place: the name it took, or
 * NULL with u->error set (the partial one removed). */
static char *send_item(upload *u, const actshare_item *item) {
    buffer name = {0}, partial = {0}, partial_url = {0};
    int collection = 0, fd = -1;
    struct stat status;
    if (item->kind == ACTSHARE_ITEM_TEXT) {
        text_name(item->text ? item->text : "", &name);
    } else {
        const char *slash = strrchr(item->path, '/');
        buffer_append_string(&name, slash && slash[1] ? slash + 1 : item->path);
        fd = open(item->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0 || fstat(fd, &status) != 0 || (!S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode))) {
            snprintf(u->error, sizeof u->error, "cannot send %s: %s", item->path,
                     fd < 0 ? strerror(errno) : "it is not a file or a folder");
            if (fd >= 0) close(fd);
            buffer_free(&name);
            return NULL;
        }
        collection = S_ISDIR(status.st_mode);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    unsigned int random_bits = 0;
    getrandom(&random_bits, sizeof random_bits, 0);
    buffer_append_format(&partial, ".%s.actshare-partial-%08x", name.bytes, random_bits);
    url_of(u, u->account->url, partial.bytes, collection, &partial_url);
    int failed;
    if (item->kind == ACTSHARE_ITEM_TEXT) {
        const char *text = item->text ? item->text : "";
        body source = {-1, text, strlen(text), 0};
        struct curl_slist *headers = curl_slist_append(NULL, "If-None-Match: *");
        long put = perform(u, "PUT", partial_url.bytes, headers, &source, source.length, NULL, "sending the text");
        curl_slist_free_all(headers);
        u->sent += source.length;
        failed = !succeeded(u, put, "sending the text");
    } else if (collection) {
        long made = perform(u, "MKCOL", partial_url.bytes, NULL, NULL, 0, NULL, "making a folder");
        failed = !succeeded(u, made, "making a folder") || put_tree(u, fd, partial_url.bytes, 1) != 0;
    } else {
        failed = put_file(u, partial_url.bytes, fd, (uint64_t)status.st_size, name.bytes) != 0;
    }
    if (fd >= 0) close(fd);
    char *placed = failed ? NULL : move_into_place(u, partial_url.bytes, name.bytes, collection);
    if (!placed) remove_partial(u, partial_url.bytes);
    buffer_free(&name);
    buffer_free(&partial);
    buffer_free(&partial_url);
    return placed;
}

/* Nextcloud's public link to `name` (a share through its OCS API), or NULL. */
static char *nextcloud_link(upload *u, const char *name) {
    const char *url = u->account->url, *dav = strstr(url, "/remote.php/dav/files/");
    if (!dav) return NULL;
    const char *folder = strchr(dav + strlen("/remote.php/dav/files/"), '/');
    if (!folder) return NULL;
    buffer api = {0}, form = {0}, answer = {0}, path = {0};
    buffer_append_format(&api, "%.*s/ocs/v2.php/apps/files_sharing/api/v1/shares?format=json", (int)(dav - url), url);
    char *decoded = curl_easy_unescape(u->curl, folder, 0, NULL);
    buffer_append_format(&path, "%s%s", decoded ? decoded : "/", name);
    curl_free(decoded);
    char *escaped = curl_easy_escape(u->curl, path.bytes, 0);
    buffer_append_format(&form, "shareType=3&path=%s", escaped ? escaped : "");
    curl_free(escaped);
    body source = {-1, form.bytes, form.length, 0};
    struct curl_slist *headers = curl_slist_append(NULL, "OCS-APIRequest: true");
    headers = curl_slist_append(headers, "Content-Type: application/x-www-form-urlencoded");
    char *link = NULL;
    long status = perform(u, "POST", api.bytes, headers, &source, form.length, &answer, "asking for a link");
    curl_slist_free_all(headers);
    if (status >= 200 && status < 300 && answer.length) {
        json_object *root = json_tokener_parse(answer.bytes), *ocs, *data, *value;
        if (root && json_object_object_get_ex(root, "ocs", &ocs) && json_object_object_get_ex(ocs, "data", &data) &&
            json_object_object_get_ex(data, "url", &value) && json_object_is_type(value, json_type_string)) {
            const char *found = json_object_get_string(value);
            if (strncmp(found, "https://", 8) == 0 || strncmp(found, "http://", 7) == 0) link = strdup(found);
        }
        json_object_put(root);
    }
    u->error[0] = '\0';
    buffer_free(&api);
    buffer_free(&form);
    buffer_free(&answer);
    buffer_free(&path);
    return link;
}

/* A session for Copy's library: it runs with its defaults, and a failure is kept, not
 * made the upload's. */
typedef struct quiet_session {
    actshare_session session;
    actshare_session *outer;
    char error[600];
} quiet_session;

static void quiet_progress(actshare_session *session, double fraction) { (void)session, (void)fraction; }
static void quiet_log(actshare_session *session, int32_t level, const char *message) {
    quiet_session *quiet = (quiet_session *)session;
    quiet->outer->log(quiet->outer, level, message);
}
static int32_t quiet_return(actshare_session *session, int32_t kind, const char *value, const char *type) {
    (void)session, (void)kind, (void)value, (void)type;
    return 0;
}
static const char *quiet_option(actshare_session *session, const char *name) { (void)session, (void)name; return NULL; }
static void quiet_error(actshare_session *session, const char *message) {
    quiet_session *quiet = (quiet_session *)session;
    snprintf(quiet->error, sizeof quiet->error, "%s", message ? message : "");
}
static int32_t quiet_cancelled(actshare_session *session) {
    quiet_session *quiet = (quiet_session *)session;
    return quiet->outer->is_cancelled(quiet->outer);
}

/* Puts the links on the clipboard through Copy's library, beside this one; says why not. */
static void copy_links(actshare_session *session, char **links, size_t count) {
    char error[600] = "";
    int32_t (*copy)(const actshare_request *, actshare_session *) = (int32_t (*)(const actshare_request *, actshare_session *))
        sibling_symbol((const void *)copy_links, "libclipboard.so", "clipboard_copy", error, sizeof error);
    actshare_item *items = calloc(count, sizeof *items);
    int32_t status = ACTSHARE_STATUS_FAILED;
    quiet_session quiet = {{ACTSHARE_ABI_VERSION, sizeof(actshare_session), NULL, quiet_progress, quiet_log, quiet_return,
                            quiet_option, quiet_error, quiet_cancelled}, session, ""};
    if (copy && items) {
        for (size_t i = 0; i < count; i++) {
            items[i] = (actshare_item){.kind = ACTSHARE_ITEM_URL, .uri = links[i], .content_type = "text/x-uri", .size = strlen(links[i])};
        }
        actshare_request request = {.abi_version = ACTSHARE_ABI_VERSION, .struct_size = sizeof request,
                                    .activity_type = "org.actshare.copy-to-clipboard", .item_count = count, .items = items};
        status = copy(&request, &quiet.session);
        if (status != ACTSHARE_STATUS_DONE) snprintf(error, sizeof error, "%s", quiet.error);
    }
    free(items);
    if (status != ACTSHARE_STATUS_DONE) {
        char said[800];
        snprintf(said, sizeof said, "the link was not put on the clipboard: %s", error[0] ? error : "Copy failed");
        session->log(session, ACTSHARE_LOG_WARNING, said);
    }
}

int32_t webdav_upload(const actshare_request *request, actshare_session *session, const webdav_account *account) {
    if (strncmp(account->url, "https://", 8) != 0 && !(*account->insecure == 't' && strncmp(account->url, "http://", 7) == 0)) {
        session->set_error(session, "an upload account's url must start with https:// (or say insecure: true)");
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    GError *failure = NULL;
    char *password = secret_password_lookup_sync(&password_schema, NULL, &failure, "url", account->url, "user", account->user, "pin",
                                                  account->pin, NULL);
    char said[1200];
    if (failure || !password) {
        if (failure) snprintf(said, sizeof said, "cannot read %s's password from the Secret Service (is a keyring running?): %s",
                              account->name, failure->message);
        else snprintf(said, sizeof said, "no password for %s in the Secret Service (for this url, user and pin): store it with "
                      "actshare uploads login %s", account->name, account->name);
        g_clear_error(&failure);
        session->set_error(session, said);
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    upload u = {curl_easy_init(), account, session, password, 0, 0, 0, "", 0, 0};
    for (size_t i = 0; i < request->item_count; i++) u.total += request->items[i].size;
    char **names = calloc(request->item_count ? request->item_count : 1, sizeof *names);
    size_t placed = 0;
    int32_t status = ACTSHARE_STATUS_DONE;
    for (size_t i = 0; i < request->item_count && u.curl; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind != ACTSHARE_ITEM_FILE && item->kind != ACTSHARE_ITEM_TEXT) continue;
        char *name = send_item(&u, item);
        if (!name) {
            status = u.cancelled ? ACTSHARE_STATUS_CANCELLED : ACTSHARE_STATUS_FAILED;
            break;
        }
        names[placed++] = name;
    }
    if (!u.curl) {
        snprintf(u.error, sizeof u.error, "cannot start libcurl");
        status = ACTSHARE_STATUS_FAILED;
    }
    if (status == ACTSHARE_STATUS_DONE) {
        char **links = calloc(placed ? placed : 1, sizeof *links);
        size_t linked = 0;
        for (size_t i = 0; i < placed; i++) {
            char *link = nextcloud_link(&u, names[i]);
            if (!link && *account->link) {
                buffer made = {0};
                url_of(&u, account->link, names[i], 0, &made);
                link = made.bytes;
            }
            if (link) links[linked++] = link;
            else {
                buffer where = {0};
                url_of(&u, account->url, names[i], 0, &where);
                char line[2400];
                snprintf(line, sizeof line, "uploaded to %s", where.bytes);
                session->return_item(session, ACTSHARE_ITEM_TEXT, line, "text/plain");
                buffer_free(&where);
            }
        }
        for (size_t i = 0; i < linked; i++) session->return_item(session, ACTSHARE_ITEM_URL, links[i], "text/x-uri");
        if (linked) copy_links(session, links, linked);
        for (size_t i = 0; i < linked; i++) free(links[i]);
        free(links);
        session->progress(session, 1.0);
    } else if (status == ACTSHARE_STATUS_FAILED) {
        session->set_error(session, u.error);
    }
    for (size_t i = 0; i < placed; i++) free(names[i]);
    free(names);
    if (u.curl) curl_easy_cleanup(u.curl);
    secret_password_free(password);
    return status;
}

int webdav_store_password(const char *url, const char *user, const char *pin, const char *label, const char *password, char *error,
                          size_t error_size) {
    GError *failure = NULL;
    if (!secret_password_store_sync(&password_schema, SECRET_COLLECTION_DEFAULT, label, password, NULL, &failure, "url", url, "user",
                                    user, "pin", pin, NULL)) {
        snprintf(error, error_size, "cannot store the password in the Secret Service (is a keyring running?): %s",
                 failure ? failure->message : "it said no");
        g_clear_error(&failure);
        return -1;
    }
    return 0;
}
