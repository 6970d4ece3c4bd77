// Compiles the public header as plain C, so an error in it fails the build here
// rather than in a plugin author's project.
#include "actshare/provider.h"

_Static_assert(sizeof(actshare_item) == 64, "actshare_item layout is part of the ABI");
// ABI 2 ended at decline (72 bytes); ABI 3 appends add_target and target after it.
_Static_assert(offsetof(actshare_request, decline) == 64, "actshare_request layout is part of the ABI");
_Static_assert(offsetof(actshare_request, add_target) == 72, "ABI 3 fields follow ABI 2's");
_Static_assert(sizeof(actshare_request) == 88, "actshare_request layout is part of the ABI");
_Static_assert(sizeof(actshare_target) == 40, "actshare_target layout is part of the ABI");
