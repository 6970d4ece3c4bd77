/*
 * AsTargetTile: a target in one of the choose page's rows: its AsTargetButton, which
 * performs the activity its provider declares first of those that offer it, and under it
 * a smaller button for each other activity of the same provider offering the same target
 * (Hand Off's device, and Copy to Device onto that device's clipboard).
 *
 * Signals:
 *   chosen (activity type, target id)   one of its buttons was pressed
 */
#pragma once

#include "as-request.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_TARGET_TILE (as_target_tile_get_type())
G_DECLARE_FINAL_TYPE(AsTargetTile, as_target_tile, AS, TARGET_TILE, GtkBox)

GtkWidget *as_target_tile_new(const AsActivity *activity, const AsTarget *target);
/* Adds a smaller button for `activity` to the same target. */
void as_target_tile_add_activity(AsTargetTile *self, const AsActivity *activity, const AsTarget *target);
/* Whether the tile is for target `id` of `provider`. */
gboolean as_target_tile_is(AsTargetTile *self, const char *provider, const char *id);

G_END_DECLS
