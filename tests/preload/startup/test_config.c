/* test_config.c: Check unit tests for preload/startup/config.c: every kind of good
 * line, every error message with its line number, includes (nesting,
 * recursion, depth), SCOPE_FUNCTIONS, matching rules and size parsing. */
#include <check.h>

#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clone_names.h"
#include "config.h"

static char tmpdir[64];
static char err[512];
static struct scope_config cfg;

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/scope-test-config-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    scope_config_init(&cfg);
    err[0] = '\0';
}

static void teardown(void)
{
    scope_config_free(&cfg);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes text to tmpdir/name and returns the full path (static buffer). */
static const char *write_conf(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

static int load(const char *text)
{
    return scope_config_load_string(&cfg, "t.conf", text, err, sizeof err);
}

static const char *pattern_text(size_t i)
{
    ck_assert_uint_lt(i, cfg.npatterns);
    return cfg.patterns[i].text;
}

START_TEST(test_defaults)
{
    ck_assert_str_eq(cfg.output_file, "profiling_data.h5");
    ck_assert_uint_eq(cfg.buffer_bytes, 8u << 20);
    ck_assert_int_eq(cfg.profile_mode, 0);
    ck_assert_uint_eq(cfg.npatterns, 0);
    ck_assert_ptr_null(cfg.path);
}
END_TEST

/* [output] mode: the last one given wins */
START_TEST(test_mode)
{
    ck_assert_int_eq(load("[output]\nmode = profile\n"), 0);
    ck_assert_int_eq(cfg.profile_mode, 1);
    ck_assert_int_eq(load("[output]\nmode=trace\n"), 0);
    ck_assert_int_eq(cfg.profile_mode, 0);
}
END_TEST

/* [output] min_duration in ns, units ns, us, ms, s; trace_limit in bytes */
START_TEST(test_output_limits)
{
    ck_assert_int_eq(cfg.min_duration_ns, 0);
    ck_assert_int_eq(cfg.trace_limit_bytes, 0);
    ck_assert_int_eq(load("[output]\nmin_duration = 2us\ntrace_limit = 1G\n"), 0);
    ck_assert_int_eq(cfg.min_duration_ns, 2000);
    ck_assert_int_eq(cfg.trace_limit_bytes, 1LL << 30);
    ck_assert_int_eq(scope_parse_duration("500ns"), 500);
    ck_assert_int_eq(scope_parse_duration("1.5ms"), 1500000);
    ck_assert_int_eq(scope_parse_duration("3s"), 3000000000LL);
    ck_assert_int_eq(scope_parse_duration("0.4ns"), -1);
    ck_assert_int_eq(scope_parse_duration("2"), -1);
    ck_assert_int_eq(scope_parse_duration("us"), -1);
    ck_assert_int_eq(scope_parse_duration("2 us"), -1);
    ck_assert_int_eq(scope_parse_duration("2d"), -1);
}
END_TEST

START_TEST(test_good_lines)
{
    const char *text =
        "# a comment\n"
        "early\n"
        "\n"
        "[output]\n"
        "file = out_%p.h5   # trailing comment\n"
        "buffer=512k\n"
        "  [ functions ]  \n"
        "solve\n"
        "\tKSP*\t# glob\n"
        "re:^Vec(Set|Get)Values$\n"
        "libpetsc.so:MatMult\n"
        "Solver::run\n"
        "!*_private\n"
        "!libfoo.so:re:^x\n"
        "a#b\n";
    ck_assert_int_eq(load(text), 0);
    ck_assert_str_eq(cfg.output_file, "out_%p.h5");
    ck_assert_uint_eq(cfg.buffer_bytes, 512 * 1024);
    ck_assert_uint_eq(cfg.npatterns, 9);

    static const struct {
        const char *text, *library;
        enum scope_pattern_kind kind;
        bool exclude;
        int line;
    } want[] = {
        {"early", NULL, SCOPE_PATTERN_EXACT, false, 2},
        {"solve", NULL, SCOPE_PATTERN_EXACT, false, 8},
        {"KSP*", NULL, SCOPE_PATTERN_GLOB, false, 9},
        {"^Vec(Set|Get)Values$", NULL, SCOPE_PATTERN_REGEX, false, 10},
        {"MatMult", "libpetsc.so", SCOPE_PATTERN_EXACT, false, 11},
        {"Solver::run", NULL, SCOPE_PATTERN_EXACT, false, 12},
        {"*_private", NULL, SCOPE_PATTERN_GLOB, true, 13},
        {"^x", "libfoo.so", SCOPE_PATTERN_REGEX, true, 14},
        {"a#b", NULL, SCOPE_PATTERN_EXACT, false, 15},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct scope_pattern *p = &cfg.patterns[i];
        ck_assert_str_eq(p->text, want[i].text);
        if (want[i].library)
            ck_assert_str_eq(p->library, want[i].library);
        else
            ck_assert_ptr_null(p->library);
        ck_assert_int_eq(p->kind, want[i].kind);
        ck_assert_int_eq(p->exclude, want[i].exclude);
        ck_assert_int_eq(p->line, want[i].line);
        ck_assert_str_eq(p->source, "t.conf");
        ck_assert_uint_eq(p->matches, 0);
        ck_assert(p->kind == SCOPE_PATTERN_REGEX ? p->regex != NULL : p->regex == NULL);
    }
}
END_TEST

START_TEST(test_load_adds)
{
    ck_assert_int_eq(load("a\n[output]\nfile = x.h5\n"), 0);
    ck_assert_int_eq(load("b\n[output]\nfile = y.h5\n"), 0);
    ck_assert_uint_eq(cfg.npatterns, 2);
    ck_assert_str_eq(pattern_text(1), "b");
    ck_assert_str_eq(cfg.output_file, "y.h5");
    /* No trailing newline, CRLF-free last line. */
    ck_assert_int_eq(load("c"), 0);
    ck_assert_str_eq(pattern_text(2), "c");
}
END_TEST

/* Each bad text and the exact message (or its start, for regerror text). */
static const struct {
    const char *text;
    const char *message;
    bool prefix_only;
} bad_lines[] = {
    {"[bogus]\n", "t.conf:1: unknown section '[bogus]'", false},
    {"\n[output]\nfoo = 1\n", "t.conf:3: unknown key 'foo' in [output]", false},
    {"[output]\n# c\nfile =   # nothing\n", "t.conf:3: missing value for 'file'", false},
    {"[output]\nbuffer = 8X\n",
     "t.conf:2: bad size '8X' for 'buffer' (expected e.g. 4096, 512k, 8M, 1G)", false},
    {"[output]\nbuffer = 0\n",
     "t.conf:2: bad size '0' for 'buffer' (expected e.g. 4096, 512k, 8M, 1G)", false},
    {"[output]\nmode = Profile\n",
     "t.conf:2: bad mode 'Profile' (expected trace or profile)", false},
    {"[output]\nmin_duration = 2\n",
     "t.conf:2: bad duration '2' for 'min_duration' (expected e.g. 500ns, 2us, 1ms)", false},
    {"[output]\ntrace_limit = 1T\n",
     "t.conf:2: bad size '1T' for 'trace_limit' (expected e.g. 64M, 1G)", false},
    {"a\nb\n[output\n", "t.conf:3: unterminated section header '[output'", false},
    {"[functions] solve\n", "t.conf:1: unexpected text after section header: '[functions] solve'",
     false},
    {"ok\nre:(unclosed\n", "t.conf:2: bad regular expression 're:(unclosed': ", true},
    {"[output]\nsolve\n", "t.conf:2: expected 'key = value' in [output], got 'solve'", false},
    {"colour = red\n", "t.conf:1: unknown key 'colour' in [functions]", false},
    {"x\n\n!\n", "t.conf:3: empty pattern '!'", false},
    {"libm.so:\n", "t.conf:1: empty pattern 'libm.so:'", false},
    {"include =\n", "t.conf:1: missing value for 'include'", false},
    {"\ninclude = no-such-file-anywhere.conf\n",
     "t.conf:2: include file 'no-such-file-anywhere.conf' not found", false},
};

START_TEST(test_bad_line)
{
    ck_assert_int_eq(load(bad_lines[_i].text), -1);
    if (bad_lines[_i].prefix_only)
        ck_assert_msg(strncmp(err, bad_lines[_i].message, strlen(bad_lines[_i].message)) == 0,
                      "got '%s'", err);
    else
        ck_assert_str_eq(err, bad_lines[_i].message);
}
END_TEST

START_TEST(test_error_truncated_buffer)
{
    char small[8];
    ck_assert_int_eq(scope_config_load_string(&cfg, "t.conf", "[bogus]", small, sizeof small),
                     -1);
    ck_assert_str_eq(small, "t.conf:");
    ck_assert_int_eq(scope_config_load_string(&cfg, "t.conf", "[bogus]", NULL, 0), -1);
}
END_TEST

START_TEST(test_load_file_and_includes)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", tmpdir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    write_conf("sub/b.conf", "from_b\n");
    write_conf("sub/a.conf", "[output]\nfile = a.h5\ninclude = b.conf\n[functions]\nfrom_a\n");
    const char *main_path = write_conf("main.conf", "first\ninclude = sub/a.conf\nlast\n");
    char main_copy[256];
    snprintf(main_copy, sizeof main_copy, "%s", main_path);

    ck_assert_int_eq(scope_config_load_file(&cfg, main_copy, err, sizeof err), 0);
    ck_assert_str_eq(cfg.path, main_copy);
    ck_assert_str_eq(cfg.output_file, "a.h5");
    ck_assert_uint_eq(cfg.npatterns, 4);
    ck_assert_str_eq(pattern_text(0), "first");
    ck_assert_str_eq(pattern_text(1), "from_b");
    ck_assert_str_eq(pattern_text(2), "from_a");
    ck_assert_str_eq(pattern_text(3), "last");
    ck_assert_int_eq(cfg.patterns[1].line, 1);
    ck_assert_ptr_nonnull(strstr(cfg.patterns[1].source, "sub/b.conf"));
    ck_assert_int_eq(cfg.patterns[3].line, 3);
    ck_assert_str_eq(cfg.patterns[3].source, main_copy);
}
END_TEST

START_TEST(test_include_absolute_and_from_string)
{
    char abs[256];
    snprintf(abs, sizeof abs, "%s", write_conf("abs.conf", "absolute\n"));
    char text[512];
    snprintf(text, sizeof text, "include = %s\n", abs);
    ck_assert_int_eq(load(text), 0);
    ck_assert_uint_eq(cfg.npatterns, 1);
    ck_assert_str_eq(pattern_text(0), "absolute");
}
END_TEST

START_TEST(test_include_error_names_included_file)
{
    write_conf("bad.conf", "fine\n\n[nope]\n");
    const char *path = write_conf("top.conf", "include = bad.conf\n");
    ck_assert_int_eq(scope_config_load_file(&cfg, path, err, sizeof err), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s/bad.conf:3: unknown section '[nope]'", tmpdir);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_include_recursion)
{
    write_conf("b.conf", "include = a.conf\n");
    char path[256];
    snprintf(path, sizeof path, "%s", write_conf("a.conf", "x\ninclude = b.conf\n"));
    ck_assert_int_eq(scope_config_load_file(&cfg, path, err, sizeof err), -1);
    char want[1024];
    snprintf(want, sizeof want,
             "%s/b.conf:1: include recursion: '%s/a.conf' is already being read", tmpdir, tmpdir);
    ck_assert_str_eq(err, want);

    scope_config_free(&cfg);
    snprintf(path, sizeof path, "%s", write_conf("self.conf", "include = self.conf\n"));
    ck_assert_int_eq(scope_config_load_file(&cfg, path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "self.conf:1: include recursion"));
}
END_TEST

/* Writes f0.conf ... f{n}.conf, each including the next: n includes. */
static const char *write_chain(int n)
{
    for (int i = n; i >= 0; i--) {
        char name[32], text[64];
        snprintf(name, sizeof name, "f%d.conf", i);
        if (i == n)
            snprintf(text, sizeof text, "leaf\n");
        else
            snprintf(text, sizeof text, "include = f%d.conf\n", i + 1);
        write_conf(name, text);
    }
    static char path[256];
    snprintf(path, sizeof path, "%s/f0.conf", tmpdir);
    return path;
}

START_TEST(test_include_depth)
{
    ck_assert_int_eq(scope_config_load_file(&cfg, write_chain(8), err, sizeof err), 0);
    ck_assert_uint_eq(cfg.npatterns, 1);
    scope_config_free(&cfg);
    ck_assert_int_eq(scope_config_load_file(&cfg, write_chain(9), err, sizeof err), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s/f8.conf:1: includes nested deeper than 8 at 'f9.conf'",
             tmpdir);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_missing_file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/absent.conf", tmpdir);
    ck_assert_int_eq(scope_config_load_file(&cfg, path, err, sizeof err), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s: cannot open '%s': No such file or directory", path, path);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_env_list)
{
    ck_assert_int_eq(scope_config_add_functions(&cfg, " solve , KSP* ,,re:^a$,\t!x ,", err,
                                                sizeof err), 0);
    ck_assert_uint_eq(cfg.npatterns, 4);
    ck_assert_str_eq(pattern_text(0), "solve");
    ck_assert_int_eq(cfg.patterns[1].kind, SCOPE_PATTERN_GLOB);
    ck_assert_int_eq(cfg.patterns[2].kind, SCOPE_PATTERN_REGEX);
    ck_assert(cfg.patterns[3].exclude);
    ck_assert_str_eq(pattern_text(3), "x");
    ck_assert_str_eq(cfg.patterns[0].source, "SCOPE_FUNCTIONS");
    ck_assert_int_eq(cfg.patterns[0].line, 0);

    ck_assert_int_eq(scope_config_add_functions(&cfg, "", err, sizeof err), 0);
    ck_assert_int_eq(scope_config_add_functions(&cfg, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(cfg.npatterns, 4);
    /* a comma before a digit continues an argument list */
    ck_assert_int_eq(scope_config_add_functions(&cfg, "f args=1,3 retval,g args=2", err,
                                                sizeof err), 0);
    ck_assert_uint_eq(cfg.npatterns, 6);
    ck_assert_str_eq(pattern_text(4), "f");
    ck_assert_uint_eq(scope_config_values(&cfg, 4), 0x45);
    ck_assert_str_eq(pattern_text(5), "g");
    ck_assert_uint_eq(scope_config_values(&cfg, 5), 0x2);

    ck_assert_int_eq(scope_config_add_functions(&cfg, "ok, re:[z", err, sizeof err), -1);
    ck_assert_msg(strncmp(err, "SCOPE_FUNCTIONS: bad regular expression 're:[z': ", 49) == 0,
                  "got '%s'", err);
}
END_TEST

START_TEST(test_match_order_and_excludes)
{
    ck_assert_int_eq(load("KSP*\n!KSPSolve\nre:^KSPSolve$\n!*_private\nsolve\n"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "KSPCreate", "/x/app"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "KSPSolve", "/x/app"), 2);
    ck_assert_int_eq(scope_config_match(&cfg, "KSP_private", "/x/app"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "solve", "/x/app"), 4);
    ck_assert_int_eq(scope_config_match(&cfg, "unrelated", "/x/app"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "KSPView", NULL), 0);
    /* KSP* matched four names, two of which later patterns took away */
    ck_assert_uint_eq(cfg.patterns[0].matches, 4);
    ck_assert_uint_eq(cfg.patterns[1].matches, 0);
    ck_assert_uint_eq(cfg.patterns[2].matches, 1);
    ck_assert_uint_eq(cfg.patterns[3].matches, 0);
    ck_assert_uint_eq(cfg.patterns[4].matches, 1);
}
END_TEST

/* Anchored regexes rule names out by their literal prefix first: the
 * matches are those of regexec alone, whatever follows the prefix. */
START_TEST(test_match_regex_prefix)
{
    ck_assert_int_eq(load("re:^MPI_(Send|Recv)$\nre:^ab*c\nre:^x|y$\nre:^p[|(]q|r\n"
                          "re:^[]z]w\nre:^k\\.l\n"), 0);
    ck_assert_uint_eq(cfg.patterns[0].regex_prefix, 4);   /* "MPI_" */
    ck_assert_uint_eq(cfg.patterns[1].regex_prefix, 1);   /* "a": b may be absent */
    ck_assert_uint_eq(cfg.patterns[2].regex_prefix, 0);   /* an alternative at the top */
    ck_assert_uint_eq(cfg.patterns[3].regex_prefix, 0);   /* '|' after a bracket with '(' */
    ck_assert_uint_eq(cfg.patterns[4].regex_prefix, 0);
    ck_assert_uint_eq(cfg.patterns[5].regex_prefix, 1);   /* "k", then an escape */
    ck_assert_int_eq(scope_config_match(&cfg, "MPI_Send", "/x/app"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "MPI_Bcast", "/x/app"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "PMPI_Send", "/x/app"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "ac", "/x/app"), 1);
    ck_assert_int_eq(scope_config_match(&cfg, "abbbc", "/x/app"), 1);
    ck_assert_int_eq(scope_config_match(&cfg, "yy", "/x/app"), 2);
    ck_assert_int_eq(scope_config_match(&cfg, "xr", "/x/app"), 3);   /* "r" anywhere */
    ck_assert_int_eq(scope_config_match(&cfg, "]w", "/x/app"), 4);
    ck_assert_int_eq(scope_config_match(&cfg, "k.l", "/x/app"), 5);
    ck_assert_int_eq(scope_config_match(&cfg, "kxl", "/x/app"), -1);
}
END_TEST

START_TEST(test_match_library_scope)
{
    ck_assert_int_eq(load("libpetsc.so:MatMult\n!libm.so:*\nsin\n!libc.so.6:sin\n"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "MatMult", "/usr/lib/libpetsc.so.3.18"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "MatMult", "libpetsc.so"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "MatMult", "/usr/lib/libpetsc_real.so"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "MatMult", "/opt/libpetsc.so.d/libother.so"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "MatMult", "/x/app"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "MatMult", NULL), -1);
    /* The later exact "sin" overrides the library exclude, then libc's is excluded. */
    ck_assert_int_eq(scope_config_match(&cfg, "sin", "/lib/x86_64-linux-gnu/libm.so.6"), 2);
    ck_assert_int_eq(scope_config_match(&cfg, "sin", "/lib/x86_64-linux-gnu/libc.so.6"), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "sin", "/x/app"), 2);
    ck_assert_int_eq(scope_config_match(&cfg, "cos", "/lib/x86_64-linux-gnu/libm.so.6"), -1);
    ck_assert_uint_eq(cfg.patterns[0].matches, 2);
    ck_assert_uint_eq(cfg.patterns[2].matches, 3);   /* libc's sin matched, then excluded */
}
END_TEST

/* A stand-in demangler: the test needs no C++ runtime. */
static char *fake_demangle(const char *symbol)
{
    if (strcmp(symbol, "_ZN6Solver3runEl") == 0)
        return strdup("Solver::run(long)");
    if (strcmp(symbol, "_ZN6Solver3runEd") == 0)
        return strdup("Solver::run(double)");
    if (strcmp(symbol, "_ZNK6Solver4sizeEv") == 0)
        return strdup("Solver::size() const");
    if (strcmp(symbol, "_ZN3FooclEv") == 0)
        return strdup("Foo::operator()()");
    if (strcmp(symbol, "_ZL5weighRK4pair.isra.0") == 0)
        return strdup("weigh(pair const&) [clone .isra.0]");
    return NULL;
}

static int demangled_count;

static char *counting_demangle(const char *symbol)
{
    demangled_count++;
    if (strcmp(symbol, "_Z5solvei") == 0)
        return strdup("solve(int)");
    if (strcmp(symbol, "_ZSt9terminatev") == 0)
        return strdup("std::terminate()");
    return strdup("Foo::bar()");
}

/* An exact pattern of identifiers demangles only names that hold them all;
 * std names, which the mangling abbreviates, are always demangled. */
START_TEST(test_match_demangle_spared)
{
    ck_assert_int_eq(load("solve\n"), 0);
    cfg.demangle = counting_demangle;
    demangled_count = 0;
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN3Foo3barEv", NULL), -1);
    ck_assert_int_eq(demangled_count, 0);
    ck_assert_int_eq(scope_config_match(&cfg, "_Z5solvei", NULL), 0);
    ck_assert_int_eq(demangled_count, 1);
    scope_config_free(&cfg);
    scope_config_init(&cfg);
    ck_assert_int_eq(load("std::terminate\n"), 0);
    cfg.demangle = counting_demangle;
    ck_assert_int_eq(scope_config_match(&cfg, "_ZSt9terminatev", NULL), 0);
    ck_assert_int_eq(demangled_count, 2);
    /* an exact name is made of whole words: "alloc", a part of
     * "allocator" but no word the demangler writes, must be in the name */
    scope_config_free(&cfg);
    scope_config_init(&cfg);
    ck_assert_int_eq(load("alloc\n"), 0);
    cfg.demangle = counting_demangle;
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN3Foo3barEv", NULL), -1);
    ck_assert_int_eq(demangled_count, 2);
}
END_TEST

/* A glob demangles only the names that hold the identifiers it spells out
 * (between its wildcards); words the demangler writes itself (types,
 * keywords, std names, numbers) rule nothing out. */
START_TEST(test_match_glob_demangle_spared)
{
    ck_assert_int_eq(load("Foo::*\n"), 0);
    cfg.demangle = counting_demangle;
    demangled_count = 0;
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN3Bar3bazEv", NULL), -1);
    scope_config_match(&cfg, "_ZN4Food3bazEv", NULL);   /* holds "Foo": demangled */
    ck_assert_int_eq(demangled_count, 1);
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN3Foo3barEv", NULL), 0);
    ck_assert_int_eq(demangled_count, 2);
    const char *always[] = {"*(int)\n", "*sign*\n", "std::*\n", "*operator*\n",
                            "*\\:*\n", "*<1>*\n"};
    for (size_t i = 0; i < sizeof always / sizeof *always; i++) {
        scope_config_free(&cfg);
        scope_config_init(&cfg);
        ck_assert_int_eq(load(always[i]), 0);
        cfg.demangle = counting_demangle;
        demangled_count = 0;
        scope_config_match(&cfg, "_Z5solvei", NULL);
        ck_assert_msg(demangled_count == 1, "%s did not demangle", always[i]);
    }
    scope_config_free(&cfg);
    scope_config_init(&cfg);
    ck_assert_int_eq(load("*(int)\n"), 0);
    cfg.demangle = counting_demangle;
    ck_assert_int_eq(scope_config_match(&cfg, "_Z5solvei", NULL), 0);
    scope_config_free(&cfg);
    scope_config_init(&cfg);
    /* "olver" must be there; the set, '?' and the short runs ("r", "n": in
     * "char", "int") rule nothing out */
    ck_assert_int_eq(load("*[Ss]olver::r?n*\n"), 0);
    cfg.demangle = counting_demangle;
    demangled_count = 0;
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN3Bar3runEv", NULL), -1);
    ck_assert_int_eq(demangled_count, 0);
    scope_config_match(&cfg, "_ZN6Solver3runEl", NULL);
    ck_assert_int_eq(demangled_count, 1);
}
END_TEST

START_TEST(test_match_cxx_demangled)
{
    ck_assert_int_eq(load("Solver::run\nSolver::size*\nFoo::operator()\n_Z3barv\nre:^(x|y)$\n"), 0);
    /* without a demangler C++ patterns match nothing, mangled ones still work */
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN6Solver3runEl", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "_Z3barv", NULL), 3);
    cfg.demangle = fake_demangle;
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN6Solver3runEl", NULL), 0);   /* every overload */
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN6Solver3runEd", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "_ZNK6Solver4sizeEv", NULL), 1);
    ck_assert_int_eq(scope_config_match(&cfg, "_ZN3FooclEv", NULL), 2);
    ck_assert_int_eq(scope_config_match(&cfg, "run", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "x", NULL), 4);   /* a regex with ( ) is no C++ */
    ck_assert_uint_eq(cfg.patterns[0].matches, 2);
}
END_TEST

START_TEST(test_display_names)
{
    ck_assert_int_eq(load("solve_impl_v2 as solve\nre:^assemble_[a-z]+$   as   assemble\nplain\n"), 0);
    ck_assert_str_eq(pattern_text(0), "solve_impl_v2");
    ck_assert_str_eq(cfg.patterns[0].display, "solve");
    ck_assert_str_eq(pattern_text(1), "^assemble_[a-z]+$");
    ck_assert_str_eq(cfg.patterns[1].display, "assemble");
    ck_assert_ptr_null(cfg.patterns[2].display);
    ck_assert_int_eq(scope_config_match(&cfg, "assemble_mass", NULL), 1);
    scope_config_free(&cfg);
    ck_assert_int_eq(load("ok\n!x as y\n"), -1);
    ck_assert_str_eq(err, "t.conf:2: 'as' wants one name after an included pattern: '!x as y'");
    scope_config_free(&cfg);
    ck_assert_int_eq(load("x as two words\n"), -1);
    ck_assert_str_eq(err, "t.conf:1: 'as' wants one name after an included pattern: 'x as two words'");
}
END_TEST

START_TEST(test_callsite_depth)
{
    ck_assert_int_eq(load("[functions]\nsolve depth=4\nre:^MPI_ as mpi\tdepth=1\nplain\n"
                          "solve_v2 as solve depth=0\n"), 0);
    ck_assert_int_eq(cfg.callsite_depth, 0);
    ck_assert_str_eq(pattern_text(0), "solve");
    ck_assert_str_eq(pattern_text(1), "^MPI_");
    ck_assert_str_eq(cfg.patterns[1].display, "mpi");
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 0), 4);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 1), 1);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 2), 0);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 3), 0);
    /* the section's depth is every pattern's that has none of its own */
    ck_assert_int_eq(load("[callsites]\ndepth = 2\n"), 0);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 0), 4);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 2), 2);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 3), 0);

    static const struct { const char *text, *message; } bad[] = {
        {"solve depth=17\n", "t.conf:1: bad call-site depth '17' (expected 0 to 16)"},
        {"solve depth=\n", "t.conf:1: bad call-site depth '' (expected 0 to 16)"},
        {"solve depth=-1\n", "t.conf:1: bad call-site depth '-1' (expected 0 to 16)"},
        {"!solve depth=2\n", "t.conf:1: 'depth=' wants an included pattern: '!solve'"},
        {"[callsites]\ndepth = two\n", "t.conf:2: bad call-site depth 'two' (expected 0 to 16)"},
        {"[callsites]\nwidth = 2\n", "t.conf:2: unknown key 'width' in [callsites]"},
        {"[callsites]\nsolve\n", "t.conf:2: expected 'key = value' in [callsites], got 'solve'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scope_config_free(&cfg);
        ck_assert_int_eq(load(bad[i].text), -1);
        ck_assert_str_eq(err, bad[i].message);
    }
}
END_TEST

START_TEST(test_recorded_values)
{
    ck_assert_int_eq(load("solve args=1,3 retval\nre:^MPI_ as mpi retval\tdepth=2 args=6\n"
                          "plain\nstep args=2\nretval\n"), 0);
    ck_assert_str_eq(pattern_text(0), "solve");
    ck_assert_uint_eq(scope_config_values(&cfg, 0), 0x1 | 0x4 | 0x40);
    ck_assert_str_eq(pattern_text(1), "^MPI_");
    ck_assert_str_eq(cfg.patterns[1].display, "mpi");
    ck_assert_uint_eq(scope_config_values(&cfg, 1), 0x20 | 0x40);
    ck_assert_int_eq(scope_config_callsite_depth(&cfg, 1), 2);
    ck_assert_uint_eq(scope_config_values(&cfg, 2), 0);
    ck_assert_uint_eq(scope_config_values(&cfg, 3), 0x2);
    ck_assert_str_eq(pattern_text(4), "retval");   /* alone it is a function's name */
    ck_assert_uint_eq(scope_config_values(&cfg, 4), 0);

    static const struct { const char *text, *message; } bad[] = {
        {"ok\nsolve args=0\n", "t.conf:2: bad argument list 'args=0' (expected numbers 1 to 6, "
                                "the integer registers, as in args=1,3)"},
        {"solve args=7\n", "t.conf:1: bad argument list 'args=7' (expected numbers 1 to 6, "
                           "the integer registers, as in args=1,3)"},
        {"solve args=x\n", "t.conf:1: bad argument list 'args=x' (expected numbers 1 to 6, "
                           "the integer registers, as in args=1,3)"},
        {"solve args=1,,3\n", "t.conf:1: bad argument list 'args=1,,3' (expected numbers 1 to "
                              "6, the integer registers, as in args=1,3)"},
        {"solve args=12\n", "t.conf:1: bad argument list 'args=12' (expected numbers 1 to 6, "
                            "the integer registers, as in args=1,3)"},
        {"solve args=1,\n", "t.conf:1: bad argument list 'args=1,' (expected numbers 1 to 6, "
                            "the integer registers, as in args=1,3)"},
        {"solve args=\n", "t.conf:1: empty argument list 'args=' (expected e.g. args=1,3)"},
        {"solve args=3,1,3\n", "t.conf:1: argument 3 listed twice in 'args=3,1,3'"},
        {"solve args=1 args=2\n", "t.conf:1: 'args=' given twice"},
        {"solve retval retval\n", "t.conf:1: 'retval' given twice"},
        {"solve depth=1 depth=2\n", "t.conf:1: 'depth=' given twice"},
        {"!solve args=1\n", "t.conf:1: 'args=' wants an included pattern: '!solve'"},
        {"!solve retval\n", "t.conf:1: 'retval' wants an included pattern: '!solve'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scope_config_free(&cfg);
        ck_assert_int_eq(load(bad[i].text), -1);
        ck_assert_str_eq(err, bad[i].message);
    }
}
END_TEST

START_TEST(test_match_fortran_underscore)
{
    ck_assert_int_eq(load("matmul\ndgemm_\nmat?\n"), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "matmul", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "matmul_", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "matmul__", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "matmulx", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "matmu", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "dgemm_", NULL), 1);
    ck_assert_int_eq(scope_config_match(&cfg, "dgemm", NULL), -1);
    /* Globs are taken literally: no extra underscore. */
    ck_assert_int_eq(scope_config_match(&cfg, "matx", NULL), 2);
    ck_assert_int_eq(scope_config_match(&cfg, "matx_", NULL), -1);
}
END_TEST

/* GCC's clones answer to their function's name; parts and cold fragments
 * do not. */
START_TEST(test_match_clones)
{
    ck_assert_int_eq(load("descend\nweigh(pair const&)\nsolve*\n"), 0);
    cfg.demangle = fake_demangle;
    ck_assert_int_eq(scope_config_match(&cfg, "descend.constprop.0", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.isra.12", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.lto_priv.0", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.isra.0.constprop.1", NULL), 0);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.part.0", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.cold", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.isra.x", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "descend.constprop", NULL), -1);
    ck_assert_int_eq(scope_config_match(&cfg, "_ZL5weighRK4pair.isra.0", NULL), 1);
    ck_assert_int_eq(scope_config_match(&cfg, "solve_a.isra.0", NULL), 2);
    ck_assert_uint_eq(scope_clone_base_length("descend.isra.0.constprop.1"), 7);
    ck_assert_uint_eq(scope_clone_base_length("f(int) [clone .isra.0] [clone .constprop.2]"), 6);
    ck_assert_uint_eq(scope_clone_base_length("f(int) [clone .cold]"), 20);
    ck_assert_uint_eq(scope_clone_base_length(".isra.0"), 7);
}
END_TEST

static const struct {
    const char *text;
    long long bytes;
} sizes[] = {
    {"4096", 4096}, {"1", 1}, {"512k", 512LL << 10}, {"512K", 512LL << 10},
    {"8M", 8LL << 20}, {"8m", 8LL << 20}, {"1G", 1LL << 30}, {"2KiB", 2048},
    {"3MiB", 3LL << 20}, {"3mib", 3LL << 20}, {"1gib", 1LL << 30}, {"5kb", 5120},
    {"7MB", 7LL << 20}, {"10b", 10}, {"9223372036854775807", 9223372036854775807LL},
    {"0", -1}, {"0k", -1}, {"", -1}, {"M", -1}, {"8X", -1}, {"8 M", -1}, {"-1", -1},
    {"+1", -1}, {" 8", -1}, {"8M ", -1}, {"1.5G", -1}, {"8Mi", -1}, {"8MiBs", -1},
    {"9223372036854775808", -1}, {"8589934592G", -1}, {"99999999999999999999999", -1},
};

START_TEST(test_parse_size)
{
    ck_assert_msg(scope_parse_size(sizes[_i].text) == sizes[_i].bytes, "'%s' gave %lld",
                  sizes[_i].text, scope_parse_size(sizes[_i].text));
}
END_TEST

START_TEST(test_parse_size_null)
{
    ck_assert_int_eq(scope_parse_size(NULL), -1);
}
END_TEST

START_TEST(test_free_reinitialises)
{
    ck_assert_int_eq(load("[output]\nfile = a.h5\nbuffer = 1G\n[functions]\nre:x\ny\n"), 0);
    scope_config_free(&cfg);
    ck_assert_uint_eq(cfg.npatterns, 0);
    ck_assert_ptr_null(cfg.patterns);
    ck_assert_str_eq(cfg.output_file, "profiling_data.h5");
    ck_assert_uint_eq(cfg.buffer_bytes, 8u << 20);
    /* A failed load leaves a config that frees cleanly. */
    ck_assert_int_eq(load("a\nre:(\n"), -1);
    scope_config_free(&cfg);
    scope_config_free(&cfg);
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_good_lines);
    tcase_add_test(tc, test_mode);
    tcase_add_test(tc, test_output_limits);
    tcase_add_test(tc, test_load_adds);
    tcase_add_loop_test(tc, test_bad_line, 0, sizeof bad_lines / sizeof bad_lines[0]);
    tcase_add_test(tc, test_error_truncated_buffer);
    tcase_add_test(tc, test_load_file_and_includes);
    tcase_add_test(tc, test_include_absolute_and_from_string);
    tcase_add_test(tc, test_include_error_names_included_file);
    tcase_add_test(tc, test_include_recursion);
    tcase_add_test(tc, test_include_depth);
    tcase_add_test(tc, test_callsite_depth);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_env_list);
    tcase_add_test(tc, test_match_order_and_excludes);
    tcase_add_test(tc, test_match_regex_prefix);
    tcase_add_test(tc, test_match_demangle_spared);
    tcase_add_test(tc, test_match_glob_demangle_spared);
    tcase_add_test(tc, test_match_library_scope);
    tcase_add_test(tc, test_match_fortran_underscore);
    tcase_add_test(tc, test_match_cxx_demangled);
    tcase_add_test(tc, test_match_clones);
    tcase_add_test(tc, test_display_names);
    tcase_add_test(tc, test_recorded_values);
    tcase_add_loop_test(tc, test_parse_size, 0, sizeof sizes / sizeof sizes[0]);
    tcase_add_test(tc, test_parse_size_null);
    tcase_add_test(tc, test_free_reinitialises);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return scope_check_run(config_suite());
}
