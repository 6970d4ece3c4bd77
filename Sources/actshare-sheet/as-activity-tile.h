/*
 * AsActivityTile: one activity in the choose page's grid: its icon and its title, at most
 * two lines, cut in the middle with the whole title in the tooltip and the accessible name.
 */
#pragma once

#include "as-request.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_ACTIVITY_TILE (as_activity_tile_get_type())
G_DECLARE_FINAL_TYPE(AsActivityTile, as_activity_tile, AS, ACTIVITY_TILE, GtkFlowBoxChild)

GtkWidget *as_activity_tile_new(const AsActivity *activity);
const char *as_activity_tile_get_activity_type(AsActivityTile *self);
/* Whether the title holds `needle` (casefolded). */
gboolean as_activity_tile_matches(AsActivityTile *self, const char *needle);

G_END_DECLS
