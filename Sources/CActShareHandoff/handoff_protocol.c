// Compiles the header as plain C, so an error in it fails the build here rather than
// only in the Hand Off provider.
#include "actshare/handoff_protocol.h"
