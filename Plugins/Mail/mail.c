/*
 * Mail: the items as one MIME message — texts and URLs in the body (HTML as
 * multipart/alternative with a plain rendering), files as attachments — delivered into
 * a Maildir, an mbox or the system MTA. Nothing is ever half-delivered: see maildir.c
 * and mbox.c. The spool is `spool: maildir:PATH | mbox:PATH | sendmail` (default
 * sendmail, as a share sheet's Mail sends). See docs/MAIL.md.
 */
#include "mail.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t mail_send(const actshare_request *request, actshare_session *session);

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
    if (!spool || !*spool) spool = "sendmail";
    int to_sendmail = strcmp(spool, "sendmail") == 0;
    const char *spool_path = NULL;
    if (strncmp(spool, "maildir:", 8) == 0 || strncmp(spool, "mbox:", 5) == 0) spool_path = strchr(spool, ':') + 1;
    if (!to_sendmail && (!spool_path || !*spool_path)) {
        snprintf(error, sizeof error, "unknown spool '%s': use maildir:PATH, mbox:PATH or sendmail", spool);
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
