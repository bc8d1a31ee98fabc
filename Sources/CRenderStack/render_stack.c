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
static const char *load_error;
static char message[1024];
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

static int bind_functions(void) {
    for (int index = 0; index < function_count; index++) {
        void *function = NULL;
        for (int library = 0; library < library_count && !function; library++)
            function = dlsym(handles[library], functions[index]);
        if (!function) {
            snprintf(message, sizeof message, "%s is in none of %s, %s, %s", functions[index], libraries[0],
                     libraries[1], libraries[2]);
            return -1;
        }
        cardbake_render_stack_slots[index] = function;
    }
    return 0;
}

#else

static int bind_functions(void) {
    return 0;
}

#endif

static void load(void) {
    for (int library = 0; library < library_count; library++) {
        handles[library] = dlopen(libraries[library], RTLD_NOW | RTLD_GLOBAL);
        if (!handles[library]) {
            snprintf(message, sizeof message, "%s", dlerror());
            load_error = message;
            return;
        }
    }
    struct link_map *map = NULL;
    if (dlinfo(handles[0], RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        snprintf(libvips_path, sizeof libvips_path, "%s", map->l_name);
    if (bind_functions() != 0)
        load_error = message;
}


const char *cardbake_render_stack_libvips_path(void) {
    return libvips_path[0] ? libvips_path : NULL;
}

void cardbake_render_stack_load_or_exit(void) {
    pthread_once(&once, load);
    if (load_error) {
        fprintf(stderr, "cardbake: cannot load libvips and Pango: %s\n", load_error);
        exit(127);
    }
}
