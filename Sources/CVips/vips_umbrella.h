// The libvips C API, as installed by Debian's libvips-dev (pkg-config "vips").
#include <vips/vips.h>
