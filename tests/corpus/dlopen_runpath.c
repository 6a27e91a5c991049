/* dlopen_runpath.c: dlopens libcorpus_plugin.so by its bare name, which
 * only this program's RUNPATH finds (libscope's dlopen must keep the
 * caller's RUNPATH), then calls its plugin_work 500 times; sh_plt is
 * called 500 times from here and 500 times from the plugin, whose GOT is
 * redirected when it is loaded. With CORPUS_DLMOPEN the plugin is loaded
 * by dlmopen into a new namespace, with copies of its own of libc and of
 * the library that defines sh_plt (hooked too when loaded). */
#define CORPUS_MAIN
#include "corpus.h"

#include <dlfcn.h>

int sh_plt(int x);

int main(void)
{
#ifdef CORPUS_DLMOPEN
    void *plugin = dlmopen(LM_ID_NEWLM, "libcorpus_plugin.so", RTLD_NOW);
#else
    void *plugin = dlopen("libcorpus_plugin.so", RTLD_NOW);
#endif
    CHECK(plugin, "dlopen: %s", dlerror());
    int (*work)(int) = (int (*)(int))dlsym(plugin, "plugin_work");
    CHECK(work, "dlsym: %s", dlerror());
    for (int i = 0; i < 500; i++) {
        int x = SEED + i;
        CHECK(work(x) == 2 * (x + 2), "plugin_work(%d)", x);
        CHECK(sh_plt(x) == x + 2, "sh_plt(%d)", x);
    }
    puts("dlopen_runpath: ok");
    return 0;
}
