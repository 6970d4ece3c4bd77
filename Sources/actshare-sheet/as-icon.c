#include "as-icon.h"

void as_icon_set(GtkImage *widget, const char *image, const char *fallback) {
    if (image && image[0] == '/') {
        gtk_image_set_from_file(widget, image);
    } else {
        gtk_image_set_from_icon_name(widget, image && *image ? image : fallback);
    }
}
