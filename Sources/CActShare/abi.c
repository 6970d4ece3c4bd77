// Compiles the public header as plain C, so an error in it fails the build here
// rather than in a plugin author's project.
#include "actshare/provider.h"

_Static_assert(sizeof(actshare_item) == 64, "actshare_item layout is part of the ABI");
_Static_assert(sizeof(actshare_request) == 72, "actshare_request layout is part of the ABI");
