#include "CActShareSystem.h"

#include <unistd.h>

extern char **environ;

char **cactshare_environ(void) { return environ; }
