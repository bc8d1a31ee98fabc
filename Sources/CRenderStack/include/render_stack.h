// Loading the render stack (libvips, Pango, cairo, HarfBuzz, GLib) when it is first needed.
#ifndef CARDBAKE_RENDER_STACK_H
#define CARDBAKE_RENDER_STACK_H

/// Loads the render stack's libraries and binds the functions cardbake calls, once per process
/// (where they are linked as usual, finds them loaded). A process that cannot load them cannot go
/// on: it prints the dynamic loader's message and exits 127, as the loader does for a library
/// missing at start. The first call of any of the functions does this too.
void cardbake_render_stack_load_or_exit(void);

/// The path of the libvips file this process loaded; call only after
/// ``cardbake_render_stack_load_or_exit``. NULL if the loader did not say. Static storage.
const char *cardbake_render_stack_libvips_path(void);

#endif
