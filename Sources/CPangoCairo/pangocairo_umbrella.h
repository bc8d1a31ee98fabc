// Pango laid out on cairo, and fontconfig, as installed with Debian's libpango1.0-dev.
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
