// gettext for Swift: Glibc's module map does not bring libintl.h.
#include "CActShareSystem.h"

#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

void cactshare_localization_set_up(const char *domain, const char *directory) {
    // Messages only: numbers and sorting stay as the code writes them (JSON, traces).
    setlocale(LC_MESSAGES, "");
    if (directory) bindtextdomain(domain, directory);
    bind_textdomain_codeset(domain, "UTF-8");
}

const char *cactshare_translate(const char *domain, const char *message) {
    return dgettext(domain, message);
}

const char *cactshare_translate_plural(const char *domain, const char *one, const char *many, unsigned long count) {
    return dngettext(domain, one, many, count);
}

// Counted up whenever catalogs change: glibc then forgets the lookups it cached.
extern int _nl_msg_cat_cntr;

const char *cactshare_translate_into(const char *domain, const char *message, const char *language) {
    char *saved_language = getenv("LANGUAGE") ? strdup(getenv("LANGUAGE")) : NULL;
    char *saved_locale = strdup(setlocale(LC_MESSAGES, NULL));
    // LANGUAGE counts only outside the C locale.
    if (saved_locale && strcmp(saved_locale, "C") == 0) setlocale(LC_MESSAGES, "C.UTF-8");
    setenv("LANGUAGE", language, 1);
    ++_nl_msg_cat_cntr;
    const char *translated = dgettext(domain, message);
    if (saved_language) {
        setenv("LANGUAGE", saved_language, 1);
    } else {
        unsetenv("LANGUAGE");
    }
    if (saved_locale) setlocale(LC_MESSAGES, saved_locale);
    ++_nl_msg_cat_cntr;
    free(saved_language);
    free(saved_locale);
    return translated;
}
