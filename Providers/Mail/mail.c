/*
 * Mail: the items as one MIME message — texts and URLs in the body (HTML as
 * multipart/alternative with a plain rendering), files as attachments — delivered into
 * a Maildir, an mbox or the system MTA — or, by default, handed to the user's mail client,
 * whose compose window opens with them (Client/mail-client.c). Nothing is ever
 * half-delivered: see maildir.c and mbox.c. The spool is `spool: auto | client | sendmail |
 * maildir:PATH | mbox:PATH`; `auto` (the default) is the client where actshare knows it,
 * else sendmail where there is an MTA. See docs/MAIL.md.
 */
#include "mail.h"

#include "client.h"
#include "request.h"
#include "sibling.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t mail_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t mail_send(const actshare_request *request, actshare_session *session);

/* Mail is offered for whatever its manifest accepts; this hook only says, while actshare
 * explains (`--explain` sets ACTSHARE_TRACE), where Mail would go and why. Otherwise it
 * answers at once: a list does not pay for GIO. */
int32_t mail_can_perform(const actshare_request *request) {
    const char *trace = getenv("ACTSHARE_TRACE");
    if (!trace || !*trace || strcmp(trace, "0") == 0) return 1;
    const char *spool = request_option(request, "spool");
    if (!spool || !*spool) spool = "auto";
    char said[1200], why[900] = "";
    if (strcmp(spool, "auto") == 0 || strcmp(spool, "client") == 0) {
        int (*choose)(char *, size_t) =
            (int (*)(char *, size_t))sibling_symbol((const void *)mail_can_perform, MAIL_CLIENT_LIBRARY, "mail_client_choose", why, sizeof why);
        if (choose && choose(why, sizeof why) == MAIL_CLIENT_OPENED) {
            snprintf(said, sizeof said, "%s", why);
        } else if (strcmp(spool, "client") == 0) {
            snprintf(said, sizeof said, "Mail would fail: %s", why);
        } else if (access(MAIL_SENDMAIL, X_OK) == 0) {
            snprintf(said, sizeof said, "Mail sends through %s: %s", MAIL_SENDMAIL, why);
        } else {
            snprintf(said, sizeof said, "Mail has nowhere to go: %s, and there is no mail server (%s)", why, MAIL_SENDMAIL);
        }
    } else {
        snprintf(said, sizeof said, "Mail delivers to the spool %s", spool);
    }
    actshare_decline(request, said);
    return 1;
}

/* Hands the message to the user's mail client: MAIL_CLIENT_OPENED (and the session told),
 * MAIL_CLIENT_NONE with `error` saying why there is none, or a failure with `error` set. */
static int open_client(const actshare_request *request, actshare_session *session, const mail_draft *draft, char *error,
                       size_t error_size) {
    int (*compose)(const actshare_request *, const mail_draft *, char *, size_t, char *, size_t) =
        (int (*)(const actshare_request *, const mail_draft *, char *, size_t, char *, size_t))sibling_symbol(
            (const void *)mail_send, MAIL_CLIENT_LIBRARY, "mail_client_compose", error, error_size);
    if (!compose) return MAIL_CLIENT_FAILED;
    char said[600] = "";
    int result = compose(request, draft, said, sizeof said, error, error_size);
    if (result == MAIL_CLIENT_OPENED) session->return_item(session, ACTSHARE_ITEM_TEXT, said, NULL);
    return result;
}

/* `user@host` with the full name from the password database, when nothing is configured. */
static void default_sender(buffer *out) {
    const char *email = getenv("EMAIL");
    if (email && *email) {
        buffer_append_string(out, email);
        return;
    }
    struct passwd *user = getpwuid(getuid());
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    const char *login = user && user->pw_name ? user->pw_name : "user";
    char name[256] = "";
    if (user && user->pw_gecos) snprintf(name, sizeof name, "%.*s", (int)strcspn(user->pw_gecos, ","), user->pw_gecos);
    if (name[0] && strpbrk(name, "<>\"") == NULL) buffer_append_format(out, "%s <%s@%s>", name, login, host);
    else buffer_append_format(out, "%s@%s", login, host);
}

static int refuse(actshare_session *session, int32_t status, const char *message) {
    session->set_error(session, message);
    return status;
}

int spool_failure(int error_number) {
    int unusable = error_number == EACCES || error_number == EPERM || error_number == ENOENT || error_number == ENOTDIR ||
                   error_number == EROFS || error_number == EISDIR;
    return unusable ? SPOOL_UNUSABLE : -1;
}

int32_t mail_send(const actshare_request *request, actshare_session *session) {
    char error[4600] = "";
    const char *spool = session->option(session, "spool");
    if (!spool || !*spool) spool = "auto";
    int to_client = strcmp(spool, "auto") == 0 || strcmp(spool, "client") == 0;
    int to_sendmail = strcmp(spool, "sendmail") == 0;
    const char *spool_path = NULL;
    if (strncmp(spool, "maildir:", 8) == 0 || strncmp(spool, "mbox:", 5) == 0) spool_path = strchr(spool, ':') + 1;
    if (!to_client && !to_sendmail && (!spool_path || !*spool_path)) {
        snprintf(error, sizeof error, "unknown spool '%s': use auto, client, sendmail, maildir:PATH or mbox:PATH", spool);
        return refuse(session, ACTSHARE_STATUS_BAD_INPUT, error);
    }
    char expanded[4200];
    if (spool_path && strncmp(spool_path, "~/", 2) == 0 && getenv("HOME")) {
        snprintf(expanded, sizeof expanded, "%s/%s", getenv("HOME"), spool_path + 2);
        spool_path = expanded;
    }

    message_fields fields = {0};
    buffer sender = {0}, subject = {0};
    const char *from = session->option(session, "from");
    if (!from || !*from) {
        default_sender(&sender);
        from = sender.bytes;
    }
    struct { const char *option; address_list *list; } lists[] = {
        {"to", &fields.to}, {"cc", &fields.cc}, {"bcc", &fields.bcc}};
    int32_t status = ACTSHARE_STATUS_DONE;
    if (address_parse(from, &fields.from, error, sizeof error) != 0 || fields.from.count != 1) {
        if (!error[0]) snprintf(error, sizeof error, "the sender must be one address, not '%s'", from);
        status = refuse(session, ACTSHARE_STATUS_BAD_INPUT, error);
        goto done;
    }
    for (size_t i = 0; i < 3; i++) {
        if (address_parse(session->option(session, lists[i].option), lists[i].list, error, sizeof error) != 0) {
            char message[4800];
            snprintf(message, sizeof message, "%s: %s", lists[i].option, error);
            status = refuse(session, ACTSHARE_STATUS_BAD_INPUT, message);
            goto done;
        }
    }
    if (to_client) {
        /* The client is given what the user gave: its own account is the sender otherwise. */
        const char *given_from = session->option(session, "from");
        const char *given_subject = request->subject && *request->subject ? request->subject : session->option(session, "subject");
        buffer body = {0};
        message_plain_body(request, &body);
        mail_draft draft = {
            .to = session->option(session, "to"), .cc = session->option(session, "cc"), .bcc = session->option(session, "bcc"),
            .from = given_from, .subject = given_subject, .body = body.bytes};
        if (!given_subject || !*given_subject) {
            message_default_subject(request, &subject);
            draft.subject = subject.bytes;
        }
        char why[1000] = "";
        int opened = open_client(request, session, &draft, why, sizeof why);
        buffer_free(&body);
        if (opened == MAIL_CLIENT_OPENED) goto done;
        if (opened != MAIL_CLIENT_NONE) {
            status = refuse(session, opened == MAIL_CLIENT_REFUSED ? ACTSHARE_STATUS_BAD_INPUT : ACTSHARE_STATUS_FAILED, why);
            goto done;
        }
        if (strcmp(spool, "client") == 0) {
            snprintf(error, sizeof error, "no mail client to open: %s. Set one for mailto links (your desktop's default "
                     "applications), or choose another spool: -o spool=sendmail, maildir:PATH or mbox:PATH", why);
            status = refuse(session, ACTSHARE_STATUS_BAD_INPUT, error);
            goto done;
        }
        if (access(MAIL_SENDMAIL, X_OK) != 0) {
            snprintf(error, sizeof error, "nowhere to send the mail: %s, and there is no mail server (%s). Set a mail client "
                     "for mailto links (your desktop's default applications), or choose a spool: -o spool=maildir:PATH or "
                     "mbox:PATH (or spool: in the config)", why, MAIL_SENDMAIL);
            status = refuse(session, ACTSHARE_STATUS_BAD_INPUT, error);
            goto done;
        }
        to_sendmail = 1;
        buffer_free(&subject);
        subject = (buffer){0};
    }
    if (to_sendmail && fields.to.count + fields.cc.count + fields.bcc.count == 0) {
        status = refuse(session, ACTSHARE_STATUS_BAD_INPUT, "no recipient: give one with -o to=ADDRESS (or cc, bcc, or in the config)");
        goto done;
    }
    const char *given_subject = request->subject && *request->subject ? request->subject : session->option(session, "subject");
    if (given_subject && *given_subject) {
        buffer_append_string(&subject, given_subject);
    } else {
        message_default_subject(request, &subject);
    }
    fields.subject = subject.bytes ? subject.bytes : "";
    fields.include_bcc = to_sendmail;

    buffer message = {0};
    char message_id[400];
    if (message_compose(request, &fields, &message, message_id, sizeof message_id, error, sizeof error) != 0) {
        status = refuse(session, ACTSHARE_STATUS_BAD_INPUT, error);
        buffer_free(&message);
        goto done;
    }
    if (session->is_cancelled(session)) {
        status = ACTSHARE_STATUS_CANCELLED;
        buffer_free(&message);
        goto done;
    }
    buffer where = {0};
    int delivered;
    if (to_sendmail) delivered = deliver_sendmail(&message, error, sizeof error);
    else if (spool[0] == 'm' && spool[1] == 'a') delivered = deliver_maildir(spool_path, &message, &where, error, sizeof error);
    else delivered = deliver_mbox(spool_path, fields.from.list[0].mailbox, &message, error, sizeof error);
    buffer_free(&message);
    if (delivered != 0) {
        status = refuse(session, delivered == SPOOL_UNUSABLE ? ACTSHARE_STATUS_BAD_INPUT : ACTSHARE_STATUS_FAILED, error);
    } else if (where.length) {
        session->return_item(session, ACTSHARE_ITEM_FILE, where.bytes, "message/rfc822");
    } else {
        buffer said = {0};
        if (to_sendmail) {
            buffer_append_format(&said, "<%s> sent through /usr/sbin/sendmail", message_id);
        } else {
            buffer_append_format(&said, "<%s> appended to the mbox %s", message_id, spool_path);
        }
        session->return_item(session, ACTSHARE_ITEM_TEXT, said.bytes, NULL);
        buffer_free(&said);
    }
    buffer_free(&where);
done:
    address_list_free(&fields.from);
    address_list_free(&fields.to);
    address_list_free(&fields.cc);
    address_list_free(&fields.bcc);
    buffer_free(&sender);
    buffer_free(&subject);
    return status;
}
