/*
 * AsTargetButton: a target in one of the choose page's rows (a device, a person, an
 * application): its icon, title and subtitle, named for a screen reader by what pressing
 * it does ("Hand Off: beta, not reachable now…"). One click performs the activity to it.
 */
#pragma once

#include "as-request.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_TARGET_BUTTON (as_target_button_get_type())
G_DECLARE_FINAL_TYPE(AsTargetButton, as_target_button, AS, TARGET_BUTTON, GtkButton)

/* What a person is told a target of `activity_title` is: "TITLE: TARGET" and ", SUBTITLE". */
char *as_target_describe(const char *activity_title, const AsTarget *target);

GtkWidget *as_target_button_new(const AsActivity *activity, const AsTarget *target);

G_END_DECLS
