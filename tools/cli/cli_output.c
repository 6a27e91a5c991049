/* Output files of the CLI (-o): written under a temporary name in the
 * target's directory and renamed into place once complete, so that a
 * failed or interrupted write never leaves a truncated file. */
#include "cli.h"
#include "selection.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *temp_name(const char *path)
{
    size_t n = strlen(path) + sizeof ".XXXXXX";
    char *tmp = malloc(n);
    if (tmp)
        snprintf(tmp, n, "%s.XXXXXX", path);
    return tmp;
}

/* The temporary names of the open output files (few: one per command). */
static struct {
    FILE *file;
    char *tmp;
} opened[4];

FILE *cli_output_open(const char *path, scope_error *err)
{
    if (!path)
        return stdout;
    size_t slot = 0;
    while (slot < 4 && opened[slot].file)
        slot++;
    char *tmp = slot < 4 ? temp_name(path) : NULL;
    int fd = tmp ? mkstemp(tmp) : -1;
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        snprintf(err->message, sizeof err->message, "cannot write '%s': %s", path,
                 strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* mkstemp's 0600 is for secrets, not plots */
    opened[slot].file = out;
    opened[slot].tmp = tmp;
    return out;
}

int cli_output_close(FILE *out, const char *path, bool failed, scope_error *err)
{
    if (out == stdout) {
        if (!failed && fflush(out) != 0) {
            snprintf(err->message, sizeof err->message, "cannot write the output: %s",
                     strerror(errno));
            return -1;
        }
        return failed ? -1 : 0;
    }
    size_t slot = 0;
    while (slot < 4 && opened[slot].file != out)
        slot++;
    if (slot == 4)
        return -1;
    char *tmp = opened[slot].tmp;
    opened[slot].file = NULL;
    bool write_error = ferror(out) != 0;
    int saved = errno;
    if (fclose(out) != 0 || write_error) {
        if (!failed)
            snprintf(err->message, sizeof err->message, "cannot write '%s': %s", path,
                     strerror(write_error ? saved : errno));
        failed = true;
    }
    if (!failed && rename(tmp, path) != 0) {
        snprintf(err->message, sizeof err->message, "cannot write '%s': %s", path,
                 strerror(errno));
        failed = true;
    }
    if (failed)
        unlink(tmp);
    free(tmp);
    return failed ? -1 : 0;
}

FILE *cli_open_selection_output(const scope_file *f, const cli_options *opt, scope_filter *flt,
                                scope_error *err)
{
    size_t n_ranks = 0;
    if (cli_filter(f, opt, flt, err) < 0)
        return NULL;
    bool *keep = selected_regions(f, flt, err);
    int *ranks = keep ? selected_ranks(f, flt, &n_ranks, err) : NULL;
    size_t calls = 0;
    for (size_t r = 0; ranks && r < scope_region_count(f); r++)
        for (size_t k = 0; keep[r] && k < n_ranks; k++)
            calls += scope_region_calls(f, r, ranks[k]);
    free(keep);
    free(ranks);
    if (ranks && calls == 0) {
        snprintf(err->message, sizeof err->message,
                 "no calls to write: the selected regions are empty on the selected ranks");
        return NULL;
    }
    return ranks ? cli_output_open(opt->output, err) : NULL;
}
