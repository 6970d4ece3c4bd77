/* libyaml (Debian's libyaml-dev), the YAML parser under actshare's manifests and config. */
#include <yaml.h>
