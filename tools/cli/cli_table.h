/* The one result printer of the scope CLI: a report is a list of named
 * tables of typed cells, printed as an aligned text table, CSV or JSON.
 * Cells are typed so each format renders numbers its own way. A report
 * made of one long table (scope events) can have its rows printed as they
 * come (report_rows) instead of kept. */
#ifndef SCOPE_CLI_TABLE_H
#define SCOPE_CLI_TABLE_H

#include "scope_reader.h"

#include <stdio.h>

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } table_format;

typedef enum {
    COL_TEXT,     /* left-aligned string */
    COL_INT,      /* integer */
    COL_NUMBER,   /* any double: %.12g in tables, %.17g in CSV/JSON */
    COL_SECONDS,  /* seconds: %.6f in tables, %.9f in CSV/JSON */
    COL_DURATION, /* seconds: "4.16 ms" in tables, %.9f in CSV/JSON */
    COL_RATIO,    /* "1.60x" in tables, plain number elsewhere */
    COL_PERCENT,  /* a fraction: "17.3%" in tables, plain number elsewhere */
} col_kind;

typedef struct table table;
typedef struct report report;

/* A report for `out` in format fmt. sort (a column of the first table,
 * NULL = keep order; numbers descending, text ascending, stable) and top
 * (< 0 = all) apply to the first table. */
report *report_new(FILE *out, table_format fmt, const char *sort, long top);
void report_free(report *r);
/* A new table at the end of the report. A record table holds one row and
 * prints as "key value" lines (a JSON object instead of an array). */
table *report_table(report *r, const char *name, bool record);
/* The report's one and only table, for many rows: in CSV and JSON without
 * sort, each row is printed when its last cell is added and not kept. */
table *report_rows(report *r, const char *name);
void table_column(table *t, const char *name, col_kind kind);

/* Append cells left to right, row after row. NaN/inf numbers become null
 * ("-" in tables, empty in CSV). */
void table_text(table *t, const char *s);
void table_text_indent(table *t, const char *s, int indent); /* indent only in tables */
void table_int(table *t, int64_t v);
void table_num(table *t, double v);
/* A COL_SECONDS or COL_DURATION cell given in integer nanoseconds: printed
 * exactly ("12.000000345") in CSV and JSON. */
void table_ns(table *t, int64_t ns);
void table_null(table *t);

/* Print all tables (what report_rows printed already: only its end). -1
 * with err set for an unknown sort column. */
int report_print(report *r, scope_error *err);
/* Rows of the report's first table (before --top). */
size_t report_first_rows(const report *r);

#endif
