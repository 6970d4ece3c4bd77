/* Icons of outside origin: a provider's image is an icon name or an absolute file. */
#pragma once

#include <gtk/gtk.h>

/* Shows `image` (an icon name, or an absolute path of an image file) in `widget`, or
 * `fallback` (an icon name) when it is empty. */
void as_icon_set(GtkImage *widget, const char *image, const char *fallback);
