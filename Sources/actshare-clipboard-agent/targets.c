/* Which of an owner's targets (X atoms' names or Wayland MIME types: the same strings)
 * are offered to a device, and what marks a secret. Both back ends read through this. */
#include "agent.h"

#include <stdlib.h>
#include <string.h>

/* Targets that are about the selection, not its content: never offered to a device. */
static const char *const meta_targets[] = {
    "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INSERT_PROPERTY", "INSERT_SELECTION",
    "COMPOUND_TEXT", /* a legacy encoding: UTF8_STRING says the same */
    "CLIPBOARD_MANAGER",
};

/* Targets only password managers set: whatever else is offered is a secret. */
static const char *const concealed_targets[] = {
    "application/x-nspasteboard-concealed-type",
    "ExcludeClipboardContentFromMonitorProcessing",
};

static int listed(const char *name, const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(name, names[i]) == 0) return 1;
    }
    return 0;
}

size_t targets_choose(const char *const *names, size_t count, size_t *chosen, long *hint, int *concealed) {
    size_t kept = 0;
    long image = -1;
    *hint = -1;
    *concealed = 0;
    for (size_t i = 0; i < count; i++) {
        const char *name = names[i];
        if (listed(name, concealed_targets, sizeof concealed_targets / sizeof *concealed_targets)) {
            *concealed = 1;
        } else if (strcmp(name, PASSWORD_HINT_TARGET) == 0) {
            *hint = (long)i;
        } else if (listed(name, meta_targets, sizeof meta_targets / sizeof *meta_targets)) {
            continue;
        } else if (strncmp(name, "image/", 6) == 0) {
            /* Of the images, one: PNG if offered (every reader takes it), else the first (a
             * GTK source converts one image into ten formats, each read costs a conversion). */
            if (image >= 0 && strcmp(name, "image/png") == 0) {
                chosen[image] = i;
            } else if (image < 0 && kept < AGENT_MAX_TARGETS) {
                image = (long)kept;
                chosen[kept++] = i;
            }
        } else if (kept < AGENT_MAX_TARGETS) {
            chosen[kept++] = i;
        }
    }
    return kept;
}

int hint_is_secret(const unsigned char *hint, uint32_t length) { return length >= 6 && memcmp(hint, "secret", 6) == 0; }

void reading_free(reading *r) {
    for (size_t i = 0; i < r->count; i++) free(r->list[i].data);
    memset(r, 0, sizeof *r);
}
