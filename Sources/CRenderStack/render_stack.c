#define _GNU_SOURCE
#include "render_stack.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The libraries, by soname: their dependencies (Pango, cairo, HarfBuzz, GLib) come with them.
static const char *const libraries[] = {"libvips.so.42", "libpangocairo-1.0.so.0", "libpangoft2-1.0.so.0"};
enum { library_count = sizeof libraries / sizeof libraries[0] };

static void *handles[library_count];
// Why loading failed; empty when it succeeded.
static char load_error[1024];
static char libvips_path[4096];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__) && defined(__linux__)

extern void *cardbake_render_stack_slots[];

static const char *const functions[] = {
#define RENDER_STACK_FUNCTION(name) #name,
#include "render_stack_functions.h"
#undef RENDER_STACK_FUNCTION
};
enum { function_count = sizeof functions / sizeof functions[0] };

static void bind_functions(void) {
    for (int index = 0; index < function_count; index++) {
        void *function = NULL;
        for (int library = 0; library < library_count && !function; library++)
            function = dlsym(handles[library], functions[index]);
        if (!function) {
            snprintf(load_error, sizeof load_error, "%s is in none of the render stack's libraries",
                     functions[index]);
            return;
        }
        cardbake_render_stack_slots[index] = function;
    }
}

#else

static void bind_functions(void) {
}

#endif

static void load(void) {
    for (int library = 0; library < library_count; library++) {
        handles[library] = dlopen(libraries[library], RTLD_NOW | RTLD_GLOBAL);
        if (!handles[library]) {
            snprintf(load_error, sizeof load_error, "%s", dlerror());
            return;
        }
    }
    struct link_map *map = NULL;
    if (dlinfo(handles[0], RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        snprintf(libvips_path, sizeof libvips_path, "%s", map->l_name);
    bind_functions();
}

const char *cardbake_render_stack_libvips_path(void) {
    return libvips_path[0] ? libvips_path : NULL;
}

void cardbake_render_stack_load_or_exit(void) {
    pthread_once(&once, load);
    if (load_error[0]) {
        fprintf(stderr, "cardbake: cannot load libvips and Pango: %s\n", load_error);
        exit(127);
    }
}
