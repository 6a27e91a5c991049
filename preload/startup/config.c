/* config.c: parses scope's config file (README.md, "Config file") and the
 * SCOPE_FUNCTIONS list into patterns, and matches symbols against them.
 * Runs inside the preload constructor of someone else's program: it never
 * aborts and never prints; every failure is returned as a message in err. */
#include "call_values.h"
#include "clone_names.h"
#include "config.h"
#include "demangle.h"
#include "fail_message.h"
#include "grow_array.h"
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scope_build_config.h"

#define SCOPE_DEFAULT_BUFFER (8u << 20)
#define SCOPE_MAX_INCLUDE_DEPTH 8
#define SCOPE_ENV_SOURCE "SCOPE_FUNCTIONS"
#define SCOPE_READ_AT_LEAST 4096   /* free bytes in the buffer before each read of a file */

enum section { SECTION_FUNCTIONS, SECTION_OUTPUT, SECTION_CALLSITES };

/* The default output name is shared, never freed: init cannot fail. */
static char default_output[] = "profiling_data.h5";

/* Where an error is reported: "source:line: " prefix (line 0: no line). */
struct location {
    const char *source;
    int line;
};

/* The files being read, outermost first, to detect include recursion:
 * the top-level file and up to SCOPE_MAX_INCLUDE_DEPTH nested includes. */
struct include_stack {
    char *files[SCOPE_MAX_INCLUDE_DEPTH + 1];
    int depth;
};

struct parser {
    struct scope_config *cfg;
    struct include_stack *stack;
    const char *name;       /* file name used in messages and for includes */
    int level;              /* includes between the top-level text and this one */
    enum section section;
    struct location loc;
    char *err;
    size_t errlen;
};

static int parse_text(struct scope_config *cfg, struct include_stack *stack, int level,
                      const char *name, const char *text, char *err, size_t errlen);

/* Writes "source:line: message" (or "source: message") into err; returns -1. */
static int fail(char *err, size_t errlen, const struct location *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, const struct location *loc, const char *fmt, ...)
{
    char where[PATH_MAX + 16];
    if (loc->line > 0)
        snprintf(where, sizeof(where), "%s:%d", loc->source, loc->line);
    else
        snprintf(where, sizeof(where), "%s", loc->source);
    va_list ap;
    va_start(ap, fmt);
    scope_vfail(err, errlen, where, fmt, ap);
    va_end(ap);
    return -1;
}

/* Trims leading and trailing whitespace in place. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* Cuts a comment: '#' at the start or after whitespace. */
static void strip_comment(char *line)
{
    for (char *p = line; *p; p++) {
        if (*p == '#' && (p == line || isspace((unsigned char)p[-1]))) {
            *p = '\0';
            return;
        }
    }
}

void scope_config_init(struct scope_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->output_file = default_output;
    cfg->buffer_bytes = SCOPE_DEFAULT_BUFFER;
}

static void pattern_free(struct scope_pattern *p)
{
    free(p->text);
    free(p->library);
    free(p->display);
    free(p->source);
    free(p->mangled_pieces);
    if (p->regex) {
        regfree(p->regex);
        free(p->regex);
    }
}

void scope_config_free(struct scope_config *cfg)
{
    for (size_t i = 0; i < cfg->npatterns; i++)
        pattern_free(&cfg->patterns[i]);
    free(cfg->patterns);
    free(cfg->path);
    if (cfg->output_file != default_output)
        free(cfg->output_file);
    scope_config_init(cfg);
}

/* ---- sizes ---------------------------------------------------------- */

/* Multiplier for a size suffix ("", "k", "KiB", "mb" ...); 0 if unknown. */
static long long size_multiplier(const char *suffix)
{
    static const struct { const char *name; long long factor; } units[] = {
        {"", 1}, {"b", 1},
        {"k", 1LL << 10}, {"kb", 1LL << 10}, {"kib", 1LL << 10},
        {"m", 1LL << 20}, {"mb", 1LL << 20}, {"mib", 1LL << 20},
        {"g", 1LL << 30}, {"gb", 1LL << 30}, {"gib", 1LL << 30},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(suffix, units[i].name) == 0)
            return units[i].factor;
    return 0;
}

long long scope_parse_size(const char *text)
{
    if (!text || !isdigit((unsigned char)*text))
        return -1;
    long long value = 0;
    const char *p = text;
    for (; isdigit((unsigned char)*p); p++) {
        int digit = *p - '0';
        if (value > (LLONG_MAX - digit) / 10)
            return -1;
        value = value * 10 + digit;
    }
    long long factor = size_multiplier(p);
    if (factor == 0 || value == 0 || value > LLONG_MAX / factor)
        return -1;
    return value * factor;
}

long long scope_parse_duration(const char *text)
{
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    if (!text || !(isdigit((unsigned char)*text) || *text == '.'))
        return -1;
    char *rest;
    double value = strtod(text, &rest);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(rest, units[i].unit) != 0)
            continue;
        double ns = value * units[i].ns;
        return ns >= 1 && ns <= 86400e9 ? (long long)(ns + 0.5) : -1;
    }
    return -1;
}

/* ---- patterns ------------------------------------------------------- */

/* The literal characters every match of the POSIX extended regex `re`
 * begins with, when it is anchored by '^' (and has no '|' outside
 * parentheses, which could start an alternative anywhere): "MPI_" for
 * "^MPI_(Send|Recv)$". A character a quantifier follows is not counted;
 * bracket expressions are skipped when looking for '|'.
 * Lets a match be ruled out with one comparison instead of regexec. */
static size_t literal_prefix(const char *re)
{
    if (re[0] != '^')
        return 0;
    int depth = 0;
    for (const char *p = re; *p; p++) {
        if (*p == '[') {   /* a bracket expression: "[]a]" and "[^]a]" hold a ']' */
            p += p[1] == '^' ? 2 : 1;
            p += *p == ']';
            while (*p && *p != ']')
                p++;
            if (!*p)
                return 0;
        } else if (*p == '\\' && p[1])
            p++;
        else if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (*p == '|' && depth == 0)
            return 0;
    }
    size_t n = 0;
    while (re[1 + n] && !strchr(".[]()*+?{}|\\^$", re[1 + n]))
        n++;
    if (n > 0 && re[1 + n] && strchr("*?{", re[1 + n]))
        n--;
    return n;
}

/* Length of the "lib.so" scope of a pattern, or 0 when it has none. */
static size_t library_prefix_len(const char *text)
{
    const char *colon = strchr(text, ':');
    const char *so = strstr(text, ".so");
    return colon && so && so + 3 <= colon ? (size_t)(colon - text) : 0;
}

static int compile_regex(struct scope_pattern *pat, const struct location *loc,
                         char *err, size_t errlen)
{
    regex_t *re = malloc(sizeof *re);
    if (!re)
        return fail(err, errlen, loc, "out of memory");
    int rc = regcomp(re, pat->text, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[128];
        regerror(rc, re, why, sizeof why);
        free(re);
        return fail(err, errlen, loc, "bad regular expression 're:%s': %s", pat->text, why);
    }
    pat->regex = re;
    pat->regex_prefix = literal_prefix(pat->text);
    return 0;
}

/* A call-site depth, 0 .. SCOPE_CALLSITE_MAX_DEPTH, into *depth. */
static int parse_depth(const char *text, int *depth, const struct location *loc, char *err,
                       size_t errlen)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (!isdigit((unsigned char)*text) || *end != '\0' || errno || value > SCOPE_CALLSITE_MAX_DEPTH)
        return fail(err, errlen, loc, "bad call-site depth '%s' (expected 0 to %d)", text,
                    SCOPE_CALLSITE_MAX_DEPTH);
    *depth = (int)value;
    return 0;
}

/* The argument list of "args=1,3" (text after '=') into *mask (call_values.h). */
static int parse_args(const char *text, uint8_t *mask, const struct location *loc, char *err,
                      size_t errlen)
{
    if (*text == '\0')
        return fail(err, errlen, loc, "empty argument list 'args=' (expected e.g. args=1,3)");
    for (const char *p = text;; p++) {
        if (*p < '1' || *p > '0' + SCOPE_MAX_ARGS || (p[1] != ',' && p[1] != '\0'))
            return fail(err, errlen, loc,
                        "bad argument list 'args=%s' (expected numbers 1 to %d, the integer "
                        "registers, as in args=1,3)", text, SCOPE_MAX_ARGS);
        uint8_t bit = (uint8_t)(1u << (*p - '1'));
        if (*mask & bit)
            return fail(err, errlen, loc, "argument %c listed twice in 'args=%s'", *p, text);
        *mask |= bit;
        if (*++p == '\0')
            return 0;
    }
}

/* One option of a pattern line ("depth=2", "args=1,3", "retval") into pat;
 * 1 when `word` is none (it belongs to the pattern), 0, or -1 on error. */
static int take_option(struct scope_pattern *pat, const char *word, const struct location *loc,
                       char *err, size_t errlen)
{
    static const char *const names[] = {"depth=", "args=", "retval"};
    size_t which = 0;
    while (which < 3 && strncmp(word, names[which], strlen(names[which])) != 0)
        which++;
    if (which == 3 || (which == 2 && word[6] != '\0'))
        return 1;
    int given = which == 0 ? pat->depth >= 0 : which == 1 ? (pat->values & ~SCOPE_VALUE_RETVAL) != 0
                                                          : (pat->values & SCOPE_VALUE_RETVAL) != 0;
    if (given)
        return fail(err, errlen, loc, "'%s' given twice", names[which]);
    if (which == 0)
        return parse_depth(word + 6, &pat->depth, loc, err, errlen);
    if (which == 1)
        return parse_args(word + 5, &pat->values, loc, err, errlen);
    pat->values |= SCOPE_VALUE_RETVAL;
    return 0;
}

/* Takes the trailing options (" depth=N", " args=1,3", " retval", in any
 * order) off spec, in place, into pat. */
static int cut_options(struct scope_pattern *pat, char *spec, const struct location *loc,
                       char *err, size_t errlen)
{
    pat->depth = -1;
    for (;;) {
        char *last = strrchr(spec, ' ');
        char *tab = strrchr(spec, '\t');
        last = tab > last ? tab : last;
        if (!last)
            return 0;
        int rc = take_option(pat, last + 1, loc, err, errlen);
        if (rc != 0)
            return rc > 0 ? 0 : -1;
        *last = '\0';
        trim(spec);
    }
}

/* Words the demangler writes that a mangled name does not spell out: the
 * std names the mangling abbreviates (St, Sa, Sb, Ss, Si, So, Sd), builtin
 * types, qualifiers and operators it encodes in letters, and the text it
 * gives names that have none. Every other run of identifier characters of
 * a demangled name is (part of) an identifier the mangled name holds as
 * is: a length and the identifier. */
static const char *const demangler_words[] = {
    "std", "allocator", "basic_string", "string", "basic_istream", "istream", "basic_ostream",
    "ostream", "basic_iostream", "iostream", "char_traits",
    "void", "wchar_t", "bool", "char", "char8_t", "char16_t", "char32_t", "signed", "unsigned",
    "short", "int", "long", "__int128", "float", "double", "__float128", "_Float16", "_Float32",
    "_Float64", "_Float128", "_Float32x", "_Float64x", "decimal32", "decimal64", "decimal128",
    "half", "auto", "decltype", "nullptr", "true", "false", "_Complex", "_Imaginary",
    "const", "volatile", "restrict", "__restrict", "noexcept", "throw", "transaction_safe",
    "operator", "new", "delete", "sizeof", "alignof", "typeid", "const_cast", "static_cast",
    "dynamic_cast", "reinterpret_cast", "co_await",
    "anonymous", "namespace", "lambda", "unnamed", "type", "vtable", "for", "VTT", "typeinfo",
    "name", "guard", "variable", "covariant", "return", "thunk", "to", "non", "virtual",
    "construction", "in", "reference", "temporary", "TLS", "init", "function", "wrapper",
    "hidden", "alias", "clone", "transaction", "abi", "template", "parameter", "object",
    "literal", "java", "Java", "JArray", "resource", "struct", "union", "enum",
};

/* Whether `piece` (a run of identifier characters of a pattern) could come
 * from a demangled name's text that its mangled name does not hold: be
 * such a word, or, in a glob (whose wildcards may extend it), part of one. */
static bool may_be_demangler_text(const char *piece, bool whole)
{
    if (piece[0] >= '0' && piece[0] <= '9')
        return true;   /* numbers: template arguments, discriminators */
    for (size_t w = 0; w < sizeof demangler_words / sizeof *demangler_words; w++)
        if (whole ? strcmp(demangler_words[w], piece) == 0 : strstr(demangler_words[w], piece) != NULL)
            return true;
    return false;
}

/* The runs of identifier characters an exact or glob pattern spells out
 * (between its wildcards and other characters) that are no demangler
 * text: a demangled name the pattern matches holds each, and so does its
 * mangled name. '\0'-separated, ending in an empty one; NULL when none is
 * certain (a regex, a glob with escapes, only demangler text). */
static char *mangled_pieces_of(const struct scope_pattern *pat)
{
    static const char ident[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
    if (pat->kind == SCOPE_PATTERN_REGEX ||
        (pat->kind == SCOPE_PATTERN_GLOB && strchr(pat->text, '\\')))
        return NULL;
    char *out = malloc(strlen(pat->text) + 2), *o = out;
    if (!out)
        return NULL;
    for (const char *p = pat->text; *p;) {
        if (pat->kind == SCOPE_PATTERN_GLOB && *p == '[') {   /* a set: skipped whole */
            const char *close = p[1] ? strchr(p + 2, ']') : NULL;
            if (!close)
                break;
            p = close + 1;
            continue;
        }
        size_t len = strspn(p, ident);
        if (len == 0) {
            p++;
            continue;
        }
        memcpy(o, p, len);
        o[len] = '\0';
        if (!may_be_demangler_text(o, pat->kind == SCOPE_PATTERN_EXACT))
            o += len + 1;
        p += len;
    }
    *o = '\0';
    if (o == out) {
        free(out);
        return NULL;
    }
    return out;
}

/* Fills *pat from the text of one pattern, its depth already cut
 * ("!libfoo.so:re:^x", "solve_v2 as solve"). */
static int pattern_parse_text(struct scope_pattern *pat, const char *spec,
                              const struct location *loc, char *err, size_t errlen)
{
    const char *s = spec;
    pat->exclude = *s == '!';
    if (pat->exclude && pat->depth >= 0)
        return fail(err, errlen, loc, "'depth=' wants an included pattern: '%s'", spec);
    if (pat->exclude && pat->values)
        return fail(err, errlen, loc, "'%s' wants an included pattern: '%s'",
                    pat->values & ~SCOPE_VALUE_RETVAL ? "args=" : "retval", spec);
    s += pat->exclude;
    size_t liblen = library_prefix_len(s);
    if (liblen > 0) {
        pat->library = strndup(s, liblen);
        s += liblen + 1;
    }
    if (strncmp(s, "re:", 3) == 0) {
        pat->kind = SCOPE_PATTERN_REGEX;
        s += 3;
    } else {
        pat->kind = strpbrk(s, "*?[") ? SCOPE_PATTERN_GLOB : SCOPE_PATTERN_EXACT;
    }
    const char *as = strstr(s, " as ");
    if (as) {   /* "symbol as name" */
        const char *name = as + 4;
        while (*name == ' ' || *name == '\t')
            name++;
        if (pat->exclude || *name == '\0' || strpbrk(name, " \t"))
            return fail(err, errlen, loc, "'as' wants one name after an included pattern: '%s'",
                        spec);
        pat->display = strdup(name);
        if (!pat->display)
            return fail(err, errlen, loc, "out of memory");
        while (as > s && (as[-1] == ' ' || as[-1] == '\t'))
            as--;
    }
    pat->text = as ? strndup(s, (size_t)(as - s)) : strdup(s);
    pat->source = strdup(loc->source);
    if (!pat->text || !pat->source || (liblen > 0 && !pat->library))
        return fail(err, errlen, loc, "out of memory");
    if (*s == '\0')
        return fail(err, errlen, loc, "empty pattern '%s'", spec);
    if (pat->kind == SCOPE_PATTERN_REGEX)
        return compile_regex(pat, loc, err, errlen);
    pat->mangled_pieces = mangled_pieces_of(pat);
    if (pat->kind == SCOPE_PATTERN_GLOB) {   /* "ns::*": its literal start, then anything */
        pat->glob_prefix = strcspn(pat->text, "*?[\\");
        pat->glob_prefix_only = strcmp(pat->text + pat->glob_prefix, "*") == 0;
    }
    return 0;
}

/* Fills *pat from a whole pattern line ("solve as s depth=2 args=1 retval"). */
static int pattern_parse(struct scope_pattern *pat, const char *whole,
                         const struct location *loc, char *err, size_t errlen)
{
    memset(pat, 0, sizeof *pat);
    pat->line = loc->line;
    char *spec = strdup(whole);
    if (!spec)
        return fail(err, errlen, loc, "out of memory");
    int rc = cut_options(pat, spec, loc, err, errlen);
    if (rc == 0)
        rc = pattern_parse_text(pat, spec, loc, err, errlen);
    free(spec);
    return rc;
}

/* Parses spec and appends it to cfg's patterns. */
static int add_pattern(struct scope_config *cfg, const char *spec,
                       const struct location *loc, char *err, size_t errlen)
{
    struct scope_pattern pat;
    if (pattern_parse(&pat, spec, loc, err, errlen) != 0) {
        pattern_free(&pat);
        return -1;
    }
    if (scope_grow_array((void **)&cfg->patterns, &cfg->patterns_cap, cfg->npatterns + 1,
                         sizeof *cfg->patterns) != 0) {
        pattern_free(&pat);
        return fail(err, errlen, loc, "out of memory");
    }
    cfg->patterns[cfg->npatterns++] = pat;
    return 0;
}

int scope_config_add_functions(struct scope_config *cfg, const char *list,
                               char *err, size_t errlen)
{
    struct location loc = {SCOPE_ENV_SOURCE, 0};
    char *copy = strdup(list ? list : "");
    if (!copy)
        return fail(err, errlen, &loc, "out of memory");
    int rc = 0;
    /* items end at a comma, but for one followed by a digit: "f args=1,3,g" */
    for (char *item = copy, *end; item && rc == 0; item = end) {
        end = item;
        while ((end = strchr(end, ',')) && isdigit((unsigned char)end[1]))
            end++;
        if (end)
            *end++ = '\0';
        item = trim(item);
        if (*item)
            rc = add_pattern(cfg, item, &loc, err, errlen);
    }
    free(copy);
    return rc;
}

/* ---- matching ------------------------------------------------------- */

/* Is the module's basename `library`, possibly followed by a version? */
static bool library_matches(const char *library, const char *module_path)
{
    if (!module_path)
        return false;
    const char *slash = strrchr(module_path, '/');
    const char *base = slash ? slash + 1 : module_path;
    size_t len = strlen(library);
    return strncmp(base, library, len) == 0 && (base[len] == '\0' || base[len] == '.');
}

/* Exact names also match the Fortran-mangled name with a trailing '_'. */
static bool exact_matches(const char *pattern, const char *name)
{
    size_t len = strlen(pattern);
    return strncmp(name, pattern, len) == 0 &&
           (name[len] == '\0' || (name[len] == '_' && name[len + 1] == '\0'));
}

static bool text_matches(const struct scope_pattern *pat, const char *name)
{
    switch (pat->kind) {
    case SCOPE_PATTERN_EXACT:
        return exact_matches(pat->text, name);
    case SCOPE_PATTERN_GLOB:
        return strncmp(name, pat->text, pat->glob_prefix) == 0 &&
               (pat->glob_prefix_only || fnmatch(pat->text, name, 0) == 0);
    case SCOPE_PATTERN_REGEX:
        return strncmp(name, pat->text + 1, pat->regex_prefix) == 0 &&
               regexec(pat->regex, name, 0, NULL, 0) == 0;
    }
    return false;
}

/* The names a symbol answers to: as stored, without GCC's clone tags
 * ("solve" for "solve.isra.0"), and for C++ its demangled form with and
 * without the parameter list (computed on first need; clone tags dropped). */
struct symbol_names {
    const char *name;
    char *plain, *demangled, *base;
    bool tried, base_tried;
};

/* Whether an exact or glob pattern cannot match the demangled form of the
 * mangled `name`: it lacks one of the pattern's mangled_pieces. Spares
 * demangling (and loading the demangler) for the symbols, and the modules,
 * a pattern such as "ns::Cls::run" or "ns::*" does not select. */
static bool cannot_demangle_to(const struct scope_pattern *pat, const char *name)
{
    if (!pat->mangled_pieces)
        return false;
    for (const char *piece = pat->mangled_pieces; *piece; piece += strlen(piece) + 1)
        if (!strstr(name, piece))
            return true;
    return false;
}

char *scope_config_demangle(const struct scope_config *cfg, const char *name)
{
    char *d = cfg->demangle && strncmp(name, "_Z", 2) == 0 ? cfg->demangle(name) : NULL;
    if (d)
        d[scope_clone_base_length(d)] = '\0';
    return d;
}

static bool demangled_matches(const struct scope_config *cfg, const struct scope_pattern *pat,
                        struct symbol_names *n)
{
    if (!n->tried && cannot_demangle_to(pat, n->name))
        return false;
    if (!n->tried) {
        n->tried = true;
        n->demangled = scope_config_demangle(cfg, n->name);
    }
    if (!n->demangled)
        return false;
    if (text_matches(pat, n->demangled))
        return true;
    if (!n->base_tried) {   /* the name without its parameters, when first needed */
        n->base_tried = true;
        n->base = strndup(n->demangled, scope_demangled_base_length(n->demangled));
    }
    return n->base && text_matches(pat, n->base);
}

static bool pattern_matches(const struct scope_config *cfg, const struct scope_pattern *pat,
                            struct symbol_names *n, const char *module_path)
{
    if (pat->library && !library_matches(pat->library, module_path))
        return false;
    return text_matches(pat, n->name) || (n->plain && text_matches(pat, n->plain)) ||
           demangled_matches(cfg, pat, n);
}

int scope_config_match(struct scope_config *cfg, const char *name,
                       const char *module_path)
{
    return scope_config_match_demangled(cfg, name, module_path, NULL);
}

int scope_config_match_demangled(struct scope_config *cfg, const char *name,
                                 const char *module_path, char **demangled)
{
    int decided = -1;
    size_t plain = scope_clone_base_length(name);
    struct symbol_names n = {.name = name,
                             .plain = plain < strlen(name) ? strndup(name, plain) : NULL};
    for (size_t i = 0; i < cfg->npatterns; i++) {
        struct scope_pattern *pat = &cfg->patterns[i];
        if (!pattern_matches(cfg, pat, &n, module_path))
            continue;
        decided = pat->exclude ? -1 : (int)i;
        if (!pat->exclude)
            pat->matches++;   /* even if a later exclude removes it */
    }
    free(n.plain);
    if (demangled)
        *demangled = n.demangled;
    else
        free(n.demangled);
    free(n.base);
    return decided;
}

unsigned scope_config_values(const struct scope_config *cfg, int pattern)
{
    return cfg->patterns[pattern].values;
}

void scope_config_values_text(unsigned mask, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int slot = 0; slot < SCOPE_VALUE_SLOTS && at < len; slot++)
        if (mask & (1u << slot))
            at += (size_t)(slot < SCOPE_MAX_ARGS
                               ? snprintf(out + at, len - at, "%sarg%d", at ? "," : "", slot + 1)
                               : snprintf(out + at, len - at, "%sretval", at ? "," : ""));
}

int scope_config_callsite_depth(const struct scope_config *cfg, int pattern)
{
    int own = cfg->patterns[pattern].depth;
    return own >= 0 ? own : cfg->callsite_depth;
}

/* ---- files and includes --------------------------------------------- */

char *scope_config_file_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int error = 0;
    for (;;) {
        if (scope_grow_array((void **)&buf, &cap, len + SCOPE_READ_AT_LEAST, 1) != 0) {
            error = ENOMEM;
            break;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    if (!error && ferror(f))
        error = EIO;
    fclose(f);
    if (error) {
        free(buf);
        errno = error;
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static bool is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Finds an included file: absolute, next to the including file, then in
 * the installed and the source configs/ directories. Returns a malloc'd
 * path, or NULL when it is nowhere. */
static char *resolve_include(const char *including, const char *file)
{
    if (file[0] == '/')
        return is_regular_file(file) ? strdup(file) : NULL;
    char *copy = strdup(including);
    if (!copy)
        return NULL;
    const char *dirs[] = {dirname(copy), SCOPE_INSTALL_CONFIGDIR, SCOPE_SOURCE_CONFIGDIR};
    char *found = NULL;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && !found; i++) {
        char *candidate;
        if (asprintf(&candidate, "%s/%s", dirs[i], file) < 0)
            break;
        if (is_regular_file(candidate))
            found = candidate;
        else
            free(candidate);
    }
    free(copy);
    return found;
}

static bool stack_contains(const struct include_stack *stack, const char *real)
{
    for (int i = 0; i < stack->depth; i++)
        if (strcmp(stack->files[i], real) == 0)
            return true;
    return false;
}

/* Reads and parses one file, `level` includes deep, with `stack` holding
 * the files that include it; `loc` is where the file was named (for errors
 * about the file itself). */
static int load_nested(struct scope_config *cfg, struct include_stack *stack, int level,
                       const char *path, const struct location *loc,
                       char *err, size_t errlen)
{
    char *real = realpath(path, NULL);
    if (!real)
        return fail(err, errlen, loc, "cannot open '%s': %s", path, strerror(errno));
    if (stack_contains(stack, real)) {
        free(real);
        return fail(err, errlen, loc, "include recursion: '%s' is already being read", path);
    }
    struct stat st;
    if (stat(real, &st) == 0 && S_ISDIR(st.st_mode)) {
        free(real);
        return fail(err, errlen, loc, "'%s' is a directory, not a config file", path);
    }
    char *text = scope_config_file_text(path);
    if (!text) {
        int saved = errno;
        free(real);
        return fail(err, errlen, loc, "cannot read '%s': %s", path, strerror(saved));
    }
    stack->files[stack->depth++] = real;
    int rc = parse_text(cfg, stack, level, path, text, err, errlen);
    free(stack->files[--stack->depth]);
    free(text);
    return rc;
}

static int do_include(struct parser *p, const char *file)
{
    if (p->level >= SCOPE_MAX_INCLUDE_DEPTH)
        return fail(p->err, p->errlen, &p->loc, "includes nested deeper than %d at '%s'",
                    SCOPE_MAX_INCLUDE_DEPTH, file);
    char *path = resolve_include(p->name, file);
    if (!path)
        return fail(p->err, p->errlen, &p->loc, "include file '%s' not found", file);
    int rc = load_nested(p->cfg, p->stack, p->level + 1, path, &p->loc, p->err, p->errlen);
    free(path);
    return rc;
}

/* ---- lines ---------------------------------------------------------- */

/* "[name]" (comment already cut). */
static int parse_section(struct parser *p, char *line)
{
    char *close = strchr(line, ']');
    if (!close)
        return fail(p->err, p->errlen, &p->loc, "unterminated section header '%s'", line);
    if (*trim(close + 1) != '\0')
        return fail(p->err, p->errlen, &p->loc, "unexpected text after section header: '%s'",
                    line);
    *close = '\0';
    char *name = trim(line + 1);
    if (strcmp(name, "functions") == 0)
        p->section = SECTION_FUNCTIONS;
    else if (strcmp(name, "output") == 0)
        p->section = SECTION_OUTPUT;
    else if (strcmp(name, "callsites") == 0)
        p->section = SECTION_CALLSITES;
    else
        return fail(p->err, p->errlen, &p->loc, "unknown section '[%s]'", name);
    return 0;
}

/* Splits "key = value": returns the value and sets *key, or NULL when the
 * line does not start with an identifier followed by '='. */
static char *split_key(char *line, char **key)
{
    char *p = line;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    char *key_end = p;
    while (isspace((unsigned char)*p))
        p++;
    if (key_end == line || *p != '=')
        return NULL;
    *key_end = '\0';
    *key = line;
    return trim(p + 1);
}

int scope_parse_mode(const char *text)
{
    return strcmp(text, "trace") == 0 ? 0 : strcmp(text, "profile") == 0 ? 1 : -1;
}

static int set_output_key(struct parser *p, const char *key, const char *value)
{
    if (strcmp(key, "file") == 0) {
        char *copy = strdup(value);
        if (!copy)
            return fail(p->err, p->errlen, &p->loc, "out of memory");
        if (p->cfg->output_file != default_output)
            free(p->cfg->output_file);
        p->cfg->output_file = copy;
        return 0;
    }
    if (strcmp(key, "buffer") == 0) {
        long long bytes = scope_parse_size(value);
        if (bytes < 0 || (unsigned long long)bytes > SIZE_MAX)
            return fail(p->err, p->errlen, &p->loc,
                        "bad size '%s' for 'buffer' (expected e.g. 4096, 512k, 8M, 1G)", value);
        p->cfg->buffer_bytes = (size_t)bytes;
        return 0;
    }
    if (strcmp(key, "mode") == 0) {
        int mode = scope_parse_mode(value);
        if (mode < 0)
            return fail(p->err, p->errlen, &p->loc,
                        "bad mode '%s' (expected trace or profile)", value);
        p->cfg->profile_mode = mode;
        return 0;
    }
    if (strcmp(key, "min_duration") == 0) {
        long long ns = scope_parse_duration(value);
        if (ns < 0)
            return fail(p->err, p->errlen, &p->loc,
                        "bad duration '%s' for 'min_duration' (expected e.g. 500ns, 2us, 1ms)",
                        value);
        p->cfg->min_duration_ns = ns;
        return 0;
    }
    if (strcmp(key, "trace_limit") == 0) {
        long long bytes = scope_parse_size(value);
        if (bytes < 0)
            return fail(p->err, p->errlen, &p->loc,
                        "bad size '%s' for 'trace_limit' (expected e.g. 64M, 1G)", value);
        p->cfg->trace_limit_bytes = bytes;
        return 0;
    }
    return fail(p->err, p->errlen, &p->loc, "unknown key '%s' in [output]", key);
}

static int set_callsites_key(struct parser *p, const char *key, const char *value)
{
    if (strcmp(key, "depth") != 0)
        return fail(p->err, p->errlen, &p->loc, "unknown key '%s' in [callsites]", key);
    return parse_depth(value, &p->cfg->callsite_depth, &p->loc, p->err, p->errlen);
}

static int parse_key(struct parser *p, const char *key, const char *value)
{
    if (*value == '\0')
        return fail(p->err, p->errlen, &p->loc, "missing value for '%s'", key);
    if (strcmp(key, "include") == 0)
        return do_include(p, value);
    if (p->section == SECTION_OUTPUT)
        return set_output_key(p, key, value);
    if (p->section == SECTION_CALLSITES)
        return set_callsites_key(p, key, value);
    return fail(p->err, p->errlen, &p->loc, "unknown key '%s' in [functions]", key);
}

/* One line, comment already cut and whitespace trimmed, not empty. */
static int parse_line(struct parser *p, char *line)
{
    if (line[0] == '[')
        return parse_section(p, line);
    char *key;
    char *value = split_key(line, &key);
    if (value)
        return parse_key(p, key, value);
    if (p->section != SECTION_FUNCTIONS)
        return fail(p->err, p->errlen, &p->loc, "expected 'key = value' in [%s], got '%s'",
                    p->section == SECTION_OUTPUT ? "output" : "callsites", line);
    return add_pattern(p->cfg, line, &p->loc, p->err, p->errlen);
}

static int parse_text(struct scope_config *cfg, struct include_stack *stack, int level,
                      const char *name, const char *text, char *err, size_t errlen)
{
    struct parser p = {
        .cfg = cfg, .stack = stack, .name = name, .level = level, .section = SECTION_FUNCTIONS,
        .loc = {name, 0}, .err = err, .errlen = errlen,
    };
    const char *start = text;
    while (*start) {
        const char *end = strchrnul(start, '\n');
        p.loc.line++;
        char *line = strndup(start, (size_t)(end - start));
        if (!line)
            return fail(err, errlen, &p.loc, "out of memory");
        strip_comment(line);
        char *content = trim(line);
        int rc = *content ? parse_line(&p, content) : 0;
        free(line);
        if (rc != 0)
            return rc;
        start = *end ? end + 1 : end;
    }
    return 0;
}

int scope_config_load_string(struct scope_config *cfg, const char *name,
                             const char *text, char *err, size_t errlen)
{
    struct include_stack stack = {.depth = 0};
    return parse_text(cfg, &stack, 0, name, text, err, errlen);
}

int scope_config_load_file(struct scope_config *cfg, const char *path,
                           char *err, size_t errlen)
{
    struct location loc = {path, 0};
    if (!cfg->path && !(cfg->path = strdup(path)))
        return fail(err, errlen, &loc, "out of memory");
    struct include_stack stack = {.depth = 0};
    return load_nested(cfg, &stack, 0, path, &loc, err, errlen);
}
