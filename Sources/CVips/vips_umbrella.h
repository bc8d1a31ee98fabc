// The libvips C API, as installed by Debian's libvips-dev (pkg-config "vips").
#include <vips/vips.h>
// Whether libvips runs its orc vector paths (which VerticalReduction reproduces); not in vips.h.
#include <vips/vector.h>
