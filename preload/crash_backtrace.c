/* crash_backtrace.c: the faulting thread's backtrace (see crash_backtrace.h). */
#define UNW_LOCAL_ONLY
#include "crash_backtrace.h"
#include "runtime.h"
#include "signal_text.h"
#include "thread_state.h"

#include <dlfcn.h>
#include <libunwind.h>

#define SYMBOL_OF(fn) SYMBOL_STRING(fn)
#define SYMBOL_STRING(fn) #fn

static struct {
    __typeof__(unw_init_local2) *init_local2;
    __typeof__(unw_step) *step;
    __typeof__(unw_get_reg) *get_reg;
    __typeof__(unw_get_proc_name) *get_proc_name;
} unw;

enum { MAX_FRAMES = 64 };

int scope_crash_backtrace_load(void)
{
    void *lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    unw.init_local2 = (__typeof__(unw.init_local2))dlsym(lib, SYMBOL_OF(unw_init_local2));
    unw.step = (__typeof__(unw.step))dlsym(lib, SYMBOL_OF(unw_step));
    unw.get_reg = (__typeof__(unw.get_reg))dlsym(lib, SYMBOL_OF(unw_get_reg));
    unw.get_proc_name = (__typeof__(unw.get_proc_name))dlsym(lib, SYMBOL_OF(unw_get_proc_name));
    if (unw.init_local2 && unw.step && unw.get_reg && unw.get_proc_name)
        return 0;
    unw.init_local2 = NULL;
    return -1;
}

/* The open hooked call whose return address sat just below caller_sp,
 * that is the one the frame unwound last belongs to; -1 if none. */
static long open_hook_returning_to(unw_word_t caller_sp)
{
    const struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE)
        return -1;
    for (const struct scope_shadow_frame *f = t->sp_base; f < t->sp; f++)
        if ((unw_word_t)(uintptr_t)(f->slot + 1) == caller_sp)
            return (long)f->hook;
    return -1;
}

static void print_frame(int depth, unw_word_t ip, const char *name, unw_word_t offset,
                        long hook)
{
    char line[512];
    size_t n = scope_text_append(line, 0, sizeof(line), "scope:   #");
    n = scope_text_append_int(line, n, sizeof(line), depth);
    n = scope_text_append(line, n, sizeof(line), " ");
    n = scope_text_append_hex(line, n, sizeof(line), ip);
    n = scope_text_append(line, n, sizeof(line), " ");
    n = scope_text_append(line, n, sizeof(line), name[0] ? name : "??");
    if (name[0]) {
        n = scope_text_append(line, n, sizeof(line), "+");
        n = scope_text_append_hex(line, n, sizeof(line), offset);
    }
    if (hook >= 0 && (size_t)hook < scope_rt.nhooks) {
        n = scope_text_append(line, n, sizeof(line), "   <- hooked, open: ");
        n = scope_text_append(line, n, sizeof(line), scope_rt.hooks[hook].name);
    }
    n = scope_text_append(line, n, sizeof(line), "\n");
    scope_text_write(line, n);
}

void scope_crash_backtrace_print(void *context)
{
    if (!unw.init_local2) {
        static const char none[] = "scope:   (no backtrace: libunwind.so.8 not loaded)\n";
        scope_text_write(none, sizeof(none) - 1);
        return;
    }
    scope_shadow_unhook();   /* real return addresses, so the unwinder can pass */
    unw_cursor_t cursor;
    if (unw.init_local2(&cursor, (unw_context_t *)context, UNW_INIT_SIGNAL_FRAME) != 0)
        return;
    for (int depth = 0; depth < MAX_FRAMES; depth++) {
        unw_word_t ip = 0, offset = 0, caller_sp = 0;
        char name[256];
        unw.get_reg(&cursor, UNW_REG_IP, &ip);
        if (unw.get_proc_name(&cursor, name, sizeof(name), &offset) != 0)
            name[0] = '\0';
        int more = unw.step(&cursor) > 0;
        long hook = -1;
        if (more) {
            unw.get_reg(&cursor, UNW_REG_SP, &caller_sp);
            hook = open_hook_returning_to(caller_sp);
        }
        print_frame(depth, ip, name, offset, hook);
        if (!more)
            break;
    }
}
