/*
 * AsChoosePage: the first page: what is shared (an icon or a thumbnail, its name and
 * size; for several items the first names and the total), the activities' targets of
 * kind device and person in a row (docs/PLUGINS.md, "Targets"), those of kind app in a row
 * of their own, a search field, and the activities as a grid in offer order. The chosen
 * tile is shown selected.
 *
 * Signals: activity-chosen (type), target-chosen (type, target id).
 */
#pragma once

#include "as-request.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_CHOOSE_PAGE (as_choose_page_get_type())
G_DECLARE_FINAL_TYPE(AsChoosePage, as_choose_page, AS, CHOOSE_PAGE, GtkBox)

void as_choose_page_show_request(AsChoosePage *self, const AsRequest *request);
/* The search field, which typing anywhere in `window` reaches. */
void as_choose_page_capture_keys(AsChoosePage *self, GtkWidget *window);
/* Puts the keyboard on the first activity, selected: arrows move from there. */
void as_choose_page_focus_first(AsChoosePage *self);
/* Empties the search; FALSE if it was empty already. */
gboolean as_choose_page_clear_search(AsChoosePage *self);
/* Enter: the first activity the search matches, else the selected one; FALSE if none. */
gboolean as_choose_page_choose_current(AsChoosePage *self);
/* Space: part of a search under way (typed while a tile has the focus); FALSE if not. */
gboolean as_choose_page_type_space(AsChoosePage *self);
/* The grid's height is at most this many pixels; past it, it scrolls. */
void as_choose_page_set_max_grid_height(AsChoosePage *self, int height);

G_END_DECLS
