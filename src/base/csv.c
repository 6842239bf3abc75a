/* csv.c - see csv.h. */
#include "base/csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const csv_column_t columns[CSV_NCOLS] = {
#define CSV_ENTRY_(kind, field, name, meaning) {name, CSV_##kind, offsetof(csv_row_t, field), meaning},
    CSV_COLUMNS(CSV_ENTRY_)
#undef CSV_ENTRY_
};

const csv_column_t *csv_column(size_t i) { return i < CSV_NCOLS ? &columns[i] : NULL; }

int csv_column_find(const char *name)
{
    for (size_t i = 0; i < CSV_NCOLS; i++)
        if (strcmp(columns[i].name, name) == 0)
            return (int)i;
    return -1;
}

csv_row_t csv_row_empty(void)
{
    csv_row_t r;
    for (size_t i = 0; i < CSV_NCOLS; i++) {
        char *p = (char *)&r + columns[i].offset;
        if (columns[i].kind == CSV_TEXT)
            *(const char **)p = NULL;
        else if (columns[i].kind == CSV_COUNT)
            *(uint64_t *)p = CSV_ABSENT;
        else
            *(double *)p = NAN;
    }
    return r;
}

int csv_write_header(FILE *f)
{
    for (size_t i = 0; i < CSV_NCOLS; i++)
        fprintf(f, "%s%s", i ? "," : "", columns[i].name);
    fputs("\r\n", f);
    return ferror(f) ? -1 : 0;
}

/* A text field, quoted (with doubled quotes) only when it needs to be. */
static void put_text(FILE *f, const char *s)
{
    if (!s)
        return;
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The shortest of 15, 16 or 17 significant digits that reads back as the same double
 * (0.9 rather than 0.90000000000000002; 17 digits always round-trip). */
static void put_double(FILE *f, double x)
{
    if (isnan(x))
        return;
    char buf[40];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    fputs(buf, f);
}

int csv_write_row(FILE *f, const csv_row_t *r)
{
    for (size_t i = 0; i < CSV_NCOLS; i++) {
        const char *p = (const char *)r + columns[i].offset;
        if (i)
            fputc(',', f);
        switch (columns[i].kind) {
        case CSV_TEXT:
            put_text(f, *(const char *const *)p);
            break;
        case CSV_COUNT:
            if (*(const uint64_t *)p != CSV_ABSENT)
                fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p);
            break;
        case CSV_REAL:
            put_double(f, *(const double *)p);
            break;
        case CSV_SECONDS:
            fprintf(f, "%.3f", *(const double *)p);
            break;
        }
    }
    fputs("\r\n", f);
    return ferror(f) ? -1 : 0;
}

void csv_print_columns(FILE *f, int markdown)
{
    if (markdown)
        fputs("| column | meaning |\n|---|---|\n", f);
    for (size_t i = 0; i < CSV_NCOLS; i++)
        fprintf(f, markdown ? "| `%s` | %s |\n" : "%-18s %s\n", columns[i].name,
                columns[i].meaning);
}

int csv_read_record(FILE *f, char *buf, size_t len, char **fields, size_t maxfields,
                    size_t *nfields)
{
    size_t used = 0, nf = 0;
    int quoted = 0, c, at_start = 1;
    if (len == 0 || maxfields == 0)
        return -1;
    fields[nf++] = buf;
    while ((c = getc(f)) != EOF) {
        at_start = 0;
        if (used + 1 >= len)
            return -1;
        if (quoted) {
            if (c != '"') {
                buf[used++] = (char)c;
                continue;
            }
            int next = getc(f);
            if (next == '"') {
                buf[used++] = '"';
                continue;
            }
            quoted = 0;
            if (next == EOF)
                break;
            c = next;
        } else if (c == '"') {
            quoted = 1;
            continue;
        }
        if (c == ',') {
            buf[used++] = '\0';
            if (nf == maxfields)
                return -1;
            fields[nf++] = buf + used;
        } else if (c == '\r') {
            if (getc(f) != '\n')
                return -1;
            buf[used] = '\0';
            *nfields = nf;
            return 1;
        } else {
            buf[used++] = (char)c;
        }
    }
    return at_start ? 0 : -1; /* EOF inside a record: torn */
}

/* A whole number or a double, the whole field; an empty field is absent. */
static int parse_field(const char *s, csv_kind_t kind, void *out)
{
    char *end;
    errno = 0;
    if (kind == CSV_COUNT) {
        if (*s == '\0') {
            *(uint64_t *)out = CSV_ABSENT;
            return 0;
        }
        if (*s < '0' || *s > '9')
            return -1;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || *end)
            return -1;
        *(uint64_t *)out = v;
        return 0;
    }
    if (*s == '\0') {
        *(double *)out = NAN;
        return 0;
    }
    double d = strtod(s, &end);
    if (*end || end == s)
        return -1;
    *(double *)out = d;
    return 0;
}

int csv_parse_row(char *const *fields, size_t nfields, csv_row_t *r)
{
    if (nfields != CSV_NCOLS)
        return -1;
    for (size_t i = 0; i < CSV_NCOLS; i++)
        if (columns[i].kind != CSV_TEXT &&
            parse_field(fields[i], columns[i].kind, (char *)r + columns[i].offset))
            return -1;
    return 0;
}
