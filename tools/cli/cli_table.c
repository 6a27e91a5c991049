/* The CLI's result printer: typed cells stored compactly (text in one
 * arena), rendered as aligned tables, CSV (RFC 4180 quoting) or JSON; or,
 * for a streamed table, printed row by row as they complete. */
#include "cli_table.h"
#include "duration_text.h"
#include "escape.h"
#include "grow_array.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell {
    bool null;
    bool ns; /* v.i holds nanoseconds of a seconds column */
    int indent;
    union {
        int64_t i;
        double d;
        size_t text; /* offset in the arena */
    } v;
} cell;

typedef struct column {
    char *name;
    col_kind kind;
} column;

struct table {
    report *report;
    char *name;
    bool record;
    bool streamed;   /* rows printed as they complete (report_rows) */
    size_t rows_out; /* rows printed so far */
    column *cols;
    size_t n_cols, cap_cols;
    cell *cells;
    size_t n_cells, cap_cells;
    char *arena;
    size_t arena_len, arena_cap;
};

struct report {
    table **tables;
    size_t n, cap;
    FILE *out;
    table_format fmt;
    const char *sort;
    long top;
};

static void out_of_memory(void)
{
    fputs("scope: out of memory\n", stderr);
    exit(2);
}

static void *xmalloc(size_t size)
{
    void *q = malloc(size ? size : 1);
    if (!q)
        out_of_memory();
    return q;
}

/* scope_grow_array(), exiting when out of memory. */
static void xgrow(void **p, size_t *cap, size_t need, size_t size)
{
    if (scope_grow_array(p, cap, need, size) != 0)
        out_of_memory();
}

static void *xcalloc(size_t size)
{
    return memset(xmalloc(size), 0, size);
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

report *report_new(FILE *out, table_format fmt, const char *sort, long top)
{
    report *r = xcalloc(sizeof(report));
    *r = (report){.out = out, .fmt = fmt, .sort = sort, .top = top};
    return r;
}

void report_free(report *r)
{
    for (size_t i = 0; r && i < r->n; i++) {
        table *t = r->tables[i];
        for (size_t c = 0; c < t->n_cols; c++)
            free(t->cols[c].name);
        free(t->cols);
        free(t->cells);
        free(t->arena);
        free(t->name);
        free(t);
    }
    if (r)
        free(r->tables);
    free(r);
}

table *report_table(report *r, const char *name, bool record)
{
    table *t = xcalloc(sizeof *t);
    t->report = r;
    t->name = xstrdup(name);
    t->record = record;
    xgrow((void **)&r->tables, &r->cap, r->n + 1, sizeof *r->tables);
    r->tables[r->n++] = t;
    return t;
}

void table_column(table *t, const char *name, col_kind kind)
{
    xgrow((void **)&t->cols, &t->cap_cols, t->n_cols + 1, sizeof *t->cols);
    t->cols[t->n_cols++] = (column){xstrdup(name), kind};
}

static void stream_row(table *t);

table *report_rows(report *r, const char *name)
{
    table *t = report_table(r, name, false);
    t->streamed = r->n == 1 && r->fmt != FORMAT_TABLE && !r->sort;
    return t;
}

/* Called after each cell: a streamed table prints a completed row. */
static void cell_added(table *t)
{
    if (t->streamed && t->n_cells == t->n_cols)
        stream_row(t);
}

static cell *new_cell(table *t)
{
    xgrow((void **)&t->cells, &t->cap_cells, t->n_cells + 1, sizeof *t->cells);
    cell *c = &t->cells[t->n_cells++];
    memset(c, 0, sizeof *c);
    return c;
}

void table_text_indent(table *t, const char *s, int indent)
{
    size_t n = strlen(s) + 1;
    xgrow((void **)&t->arena, &t->arena_cap, t->arena_len + n, 1);
    cell *c = new_cell(t);
    c->indent = indent;
    c->v.text = t->arena_len;
    memcpy(t->arena + t->arena_len, s, n);
    t->arena_len += n;
    cell_added(t);
}

void table_text(table *t, const char *s) { table_text_indent(t, s, 0); }

void table_int(table *t, int64_t v)
{
    new_cell(t)->v.i = v;
    cell_added(t);
}

void table_null(table *t)
{
    new_cell(t)->null = true;
    cell_added(t);
}

void table_num(table *t, double v)
{
    cell *c = new_cell(t);
    c->null = !isfinite(v);
    c->v.d = v;
    cell_added(t);
}

void table_ns(table *t, int64_t ns)
{
    cell *c = new_cell(t);
    c->ns = true;
    c->v.i = ns;
    cell_added(t);
}

static size_t n_rows(const table *t);

size_t report_first_rows(const report *r)
{
    return r->n ? n_rows(r->tables[0]) : 0;
}

static size_t n_rows(const table *t)
{
    return t->n_cols ? t->n_cells / t->n_cols : 0;
}

static const cell *cell_at(const table *t, size_t row, size_t col)
{
    return &t->cells[row * t->n_cols + col];
}

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The last `width` decimal digits of v at out, two at a time. */
static void put_digits(char *out, uint64_t v, size_t width)
{
    for (; width >= 2; width -= 2, v /= 100)
        memcpy(out + width - 2, &digit_pairs[2 * (v % 100)], 2);
    if (width)
        out[0] = (char)('0' + v % 10);
}

/* Decimal digits of v at out (no terminator); returns their number. */
static size_t put_uint(char *out, uint64_t v)
{
    size_t n = 1;
    for (uint64_t p = 10; n < 20 && v >= p; p *= 10)
        n++;
    put_digits(out, v, n);
    return n;
}

static size_t render_int(char *buf, int64_t v)
{
    size_t n = 0;
    if (v < 0)
        buf[n++] = '-';
    n += put_uint(buf + n, v < 0 ? -(uint64_t)v : (uint64_t)v);
    buf[n] = '\0';
    return n;
}

/* ns as seconds with 9 decimals, exactly: what %.9f shows of ns / 1e9. */
static size_t render_ns_seconds(char *buf, int64_t ns)
{
    uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
    size_t n = 0;
    if (ns < 0)
        buf[n++] = '-';
    n += put_uint(buf + n, a / 1000000000u);
    buf[n++] = '.';
    put_digits(buf + n, a % 1000000000u, 9);
    buf[n + 9] = '\0';
    return n + 9;
}

/* Render one non-text cell (numbers) for a format; returns its length. */
static size_t render_number(const column *col, const cell *c, table_format fmt, char *buf,
                            size_t size)
{
    bool human = fmt == FORMAT_TABLE;
    if (c->ns) {
        if (!human)
            return render_ns_seconds(buf, c->v.i);
        cell seconds = {.v.d = (double)c->v.i / 1e9};
        return render_number(col, &seconds, fmt, buf, size);
    }
    switch (col->kind) {
    case COL_INT:
        return render_int(buf, c->v.i);
    case COL_NUMBER:
        snprintf(buf, size, human ? "%.12g" : "%.17g", c->v.d);
        break;
    case COL_SECONDS:
        snprintf(buf, size, human ? "%.6f" : "%.9f", c->v.d);
        break;
    case COL_DURATION:
        if (human)
            duration_text(buf, size, c->v.d);
        else
            snprintf(buf, size, "%.9f", c->v.d);
        break;
    case COL_RATIO:
        snprintf(buf, size, human ? "%.2fx" : "%.6f", c->v.d);
        break;
    case COL_PERCENT:
        snprintf(buf, size, human ? "%.1f%%" : "%.6f", human ? c->v.d * 100 : c->v.d);
        break;
    case COL_TEXT:
        buf[0] = '\0';
        break;
    }
    return strlen(buf);
}

/* Text of a cell for the table format (indent applied) into buf. */
static const char *table_cell_text(const table *t, size_t row, size_t col, char *buf,
                                   size_t size)
{
    const cell *c = cell_at(t, row, col);
    if (c->null)
        return "-";
    if (t->cols[col].kind != COL_TEXT) {
        render_number(&t->cols[col], c, FORMAT_TABLE, buf, size);
        return buf;
    }
    if (c->indent == 0)
        return t->arena + c->v.text;
    snprintf(buf, size, "%*s%s", 2 * c->indent, "", t->arena + c->v.text);
    return buf;
}

static void print_aligned(const table *t, const size_t *rows, size_t nr, FILE *out)
{
    char buf[1024];
    size_t *width = xmalloc(t->n_cols * sizeof *width);
    for (size_t c = 0; c < t->n_cols; c++) {
        width[c] = strlen(t->cols[c].name);
        for (size_t i = 0; i < nr; i++) {
            size_t w = strlen(table_cell_text(t, rows[i], c, buf, sizeof buf));
            width[c] = w > width[c] ? w : width[c];
        }
    }
    for (size_t i = 0; i <= nr; i++) {
        for (size_t c = 0; c < t->n_cols; c++) {
            const char *s = i == 0 ? t->cols[c].name
                                   : table_cell_text(t, rows[i - 1], c, buf, sizeof buf);
            bool left = t->cols[c].kind == COL_TEXT;
            bool last = c + 1 == t->n_cols;
            if (c > 0)
                fputs("  ", out);
            if (left && last)
                fputs(s, out);
            else
                fprintf(out, left ? "%-*s" : "%*s", (int)width[c], s);
        }
        fputc('\n', out);
    }
    free(width);
}

static void print_record(const table *t, FILE *out)
{
    char buf[1024];
    size_t w = 0;
    for (size_t c = 0; c < t->n_cols; c++)
        w = strlen(t->cols[c].name) > w ? strlen(t->cols[c].name) : w;
    for (size_t c = 0; n_rows(t) > 0 && c < t->n_cols; c++)
        fprintf(out, "%-*s  %s\n", (int)w, t->cols[c].name, table_cell_text(t, 0, c, buf, sizeof buf));
}

static void csv_string(const char *s, FILE *out)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* One cell in CSV or JSON. */
static void print_value(const table *t, size_t row, size_t col, table_format fmt, FILE *out)
{
    const cell *c = cell_at(t, row, col);
    char buf[64];
    if (c->null) {
        if (fmt == FORMAT_JSON)
            fputs("null", out);
    } else if (t->cols[col].kind == COL_TEXT) {
        (fmt == FORMAT_JSON ? escape_json : csv_string)(t->arena + c->v.text, out);
    } else {
        fwrite(buf, 1, render_number(&t->cols[col], c, fmt, buf, sizeof buf), out);
    }
}

static void csv_header(const table *t, FILE *out)
{
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c > 0)
            fputc(',', out);
        csv_string(t->cols[c].name, out);
    }
    fputc('\n', out);
}

/* One CSV line, put together in a buffer and written at once (millions of
 * rows for scope events); text that needs quoting goes through csv_string. */
static void csv_row(const table *t, size_t row, FILE *out)
{
    char line[1024];
    size_t n = 0;
    for (size_t c = 0; c < t->n_cols; c++) {
        const cell *cl = cell_at(t, row, c);
        if (sizeof line - n < 128) {
            fwrite(line, 1, n, out);
            n = 0;
        }
        if (c > 0)
            line[n++] = ',';
        if (cl->null)
            continue;
        if (t->cols[c].kind != COL_TEXT) {
            n += render_number(&t->cols[c], cl, FORMAT_CSV, line + n, sizeof line - n);
            continue;
        }
        const char *text = t->arena + cl->v.text;
        size_t len = strlen(text);
        if (len < sizeof line - n - 1 && !strpbrk(text, ",\"\r\n")) {
            memcpy(line + n, text, len);
            n += len;
        } else {
            fwrite(line, 1, n, out);
            n = 0;
            csv_string(text, out);
        }
    }
    line[n++] = '\n';
    fwrite(line, 1, n, out);
}

static void print_csv(const table *t, const size_t *rows, size_t nr, FILE *out)
{
    csv_header(t, out);
    for (size_t i = 0; i < nr; i++)
        csv_row(t, rows[i], out);
}

static void json_object(const table *t, size_t row, FILE *out)
{
    fputc('{', out);
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c > 0)
            fputs(", ", out);
        escape_json(t->cols[c].name, out);
        fputs(": ", out);
        print_value(t, row, c, FORMAT_JSON, out);
    }
    fputc('}', out);
}

/* An array element: the i-th row of the output is t's row `row`. */
static void json_element(const table *t, size_t i, size_t row, FILE *out)
{
    fputs(i ? ",\n  " : "\n  ", out);
    json_object(t, row, out);
}

static void print_json(const table *t, const size_t *rows, size_t nr, FILE *out)
{
    if (t->record) {
        if (nr > 0)
            json_object(t, rows[0], out);
        else
            fputs("{}", out);
        return;
    }
    fputc('[', out);
    for (size_t i = 0; i < nr; i++)
        json_element(t, i, rows[i], out);
    fputs(nr ? "\n]" : "]", out);
}

/* What comes before a table's rows (and, in JSON, the report's "{"). */
static void table_begin(const table *t, size_t index, FILE *out)
{
    const report *r = t->report;
    if (r->fmt == FORMAT_JSON) {
        fputs(index ? ",\n" : "{\n", out);
        escape_json(t->name, out);
        fputs(": ", out);
    } else if (r->n > 1) {
        fprintf(out, index ? "\n%s%s\n" : "%s%s\n", r->fmt == FORMAT_CSV ? "# " : "", t->name);
    }
}

/* A streamed table's completed row (held as row 0): print it, forget it. */
static void stream_row(table *t)
{
    const report *r = t->report;
    if (r->top < 0 || t->rows_out < (size_t)r->top) {
        if (t->rows_out == 0) {
            table_begin(t, 0, r->out);
            if (r->fmt == FORMAT_JSON)
                fputc('[', r->out);
            else
                csv_header(t, r->out);
        }
        if (r->fmt == FORMAT_JSON)
            json_element(t, t->rows_out, 0, r->out);
        else
            csv_row(t, 0, r->out);
        t->rows_out++;
    }
    t->n_cells = 0;
    t->arena_len = 0;
}

/* The end of a streamed table (all of it when it had no row). */
static void stream_end(const table *t)
{
    const report *r = t->report;
    if (t->rows_out == 0) {
        size_t none = 0;
        table_begin(t, 0, r->out);
        if (r->fmt == FORMAT_JSON)
            print_json(t, &none, 0, r->out);
        else
            csv_header(t, r->out);
    } else if (r->fmt == FORMAT_JSON) {
        fputs("\n]", r->out);
    }
}

typedef struct sort_ctx {
    const table *t;
    size_t col;
} sort_ctx;

static int cmp_rows(const void *a, const void *b, void *arg)
{
    const sort_ctx *sc = arg;
    size_t ra = *(const size_t *)a, rb = *(const size_t *)b;
    const cell *x = cell_at(sc->t, ra, sc->col), *y = cell_at(sc->t, rb, sc->col);
    col_kind kind = sc->t->cols[sc->col].kind;
    int d = 0;
    if (x->null != y->null)
        d = x->null ? 1 : -1; /* nulls last */
    else if (x->null)
        d = 0;
    else if (kind == COL_TEXT)
        d = strcmp(sc->t->arena + x->v.text, sc->t->arena + y->v.text);
    else if (kind == COL_INT || (x->ns && y->ns))
        d = (x->v.i < y->v.i) - (x->v.i > y->v.i);
    else
        d = (x->v.d < y->v.d) - (x->v.d > y->v.d);
    return d ? d : (ra > rb) - (ra < rb);
}

static int column_index(const table *t, const char *name, scope_error *err)
{
    for (size_t c = 0; c < t->n_cols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return (int)c;
    size_t len = (size_t)snprintf(err->message, sizeof err->message,
                                  "--sort: no column '%s' (columns:", name);
    for (size_t c = 0; c < t->n_cols && len < sizeof err->message; c++)
        len += (size_t)snprintf(err->message + len, sizeof err->message - len, " %s",
                                t->cols[c].name);
    if (len < sizeof err->message)
        snprintf(err->message + len, sizeof err->message - len, ")");
    return -1;
}

static void print_table(const table *t, const size_t *rows, size_t nr, table_format fmt,
                        FILE *out)
{
    if (fmt == FORMAT_JSON)
        print_json(t, rows, nr, out);
    else if (fmt == FORMAT_CSV)
        print_csv(t, rows, nr, out);
    else if (t->record)
        print_record(t, out);
    else
        print_aligned(t, rows, nr, out);
}

int report_print(report *r, scope_error *err)
{
    int sort_col = -1;
    FILE *out = r->out;
    if (r->n == 0) /* commands that wrote their own output */
        return 0;
    if (r->sort && (sort_col = column_index(r->tables[0], r->sort, err)) < 0)
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        const table *t = r->tables[i];
        if (t->streamed) {
            stream_end(t);
            continue;
        }
        size_t nr = n_rows(t);
        size_t *rows = xmalloc(nr * sizeof *rows);
        for (size_t j = 0; j < nr; j++)
            rows[j] = j;
        if (i == 0 && sort_col >= 0) {
            sort_ctx sc = {t, (size_t)sort_col};
            qsort_r(rows, nr, sizeof *rows, cmp_rows, &sc);
        }
        if (i == 0 && r->top >= 0 && (size_t)r->top < nr)
            nr = (size_t)r->top;
        table_begin(t, i, out);
        print_table(t, rows, nr, r->fmt, out);
        free(rows);
    }
    if (r->fmt == FORMAT_JSON)
        fputs("\n}\n", out);
    return 0;
}
