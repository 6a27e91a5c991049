/* plugin.c: the library dlopen_runpath.c loads by its bare name: a
 * function to hook in a module loaded later, calling through its own GOT a
 * function hooked that way (sh_plt, short_lib.S). */
#include "../corpus.h"

int sh_plt(int x);

__attribute__((visibility("default"))) HOOKED int plugin_work(int x)
{
    return sh_plt(x) * 2;
}
