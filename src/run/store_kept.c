/* store_kept.c - see store_kept.h. */
#include "run/store_kept.h"

#include <stdlib.h>
#include <string.h>

/* The fields bloomsim writes for r: r written as a record and read back (csv_write_row,
 * csv_read_record) into buf and field[0..CSV_NCOLS). 0, or -1 when memory is short. */
static int writer_fields(const csv_row_t *r, char *buf, size_t len, char **field)
{
    char *mem = NULL;
    size_t size = 0, nf = 0;
    FILE *w = open_memstream(&mem, &size);
    if (!w)
        return -1;
    int bad = csv_write_row(w, r) != 0;
    bad |= fclose(w) != 0;
    FILE *rd = bad ? NULL : fmemopen(mem, size, "rb");
    bad = !rd || csv_read_record(rd, buf, len, field, CSV_NCOLS + 1, &nf) != 1 ||
          nf != CSV_NCOLS;
    if (rd)
        fclose(rd);
    free(mem);
    return bad ? -1 : 0;
}

/* The first column of a record of CSV_NCOLS fields that does not parse as its kind:
 * each tried alone among empty ones (empty parses as absent); CSV_NCOLS when none. */
static size_t bad_field(char *const *field)
{
    char empty[] = "", *one[CSV_NCOLS];
    for (size_t c = 0; c < CSV_NCOLS; c++) {
        for (size_t j = 0; j < CSV_NCOLS; j++)
            one[j] = j == c ? field[c] : empty;
        csv_row_t r = csv_row_empty();
        if (csv_parse_row(one, CSV_NCOLS, &r) != 0)
            return c;
    }
    return CSV_NCOLS;
}

int store_check_kept(const char *raw, size_t rawlen, char *const *field, size_t nf,
                      const exp_row_t *row, csv_row_t *r, char *why, size_t len)
{
    const char *nul = memchr(raw, '\0', rawlen);
    if (nul) {
        snprintf(why, len, "a NUL byte in a kept row (got '%.*s')", (int)(nul - raw), raw);
        return 2;
    }
    *r = csv_row_empty();
    if (csv_parse_row(field, nf, r) != 0) {
        size_t c = nf == CSV_NCOLS ? bad_field(field) : CSV_NCOLS;
        if (c < CSV_NCOLS)
            snprintf(why, len, "%s does not parse in a kept row (got '%.200s')",
                     csv_column(c)->name, field[c]);
        else
            snprintf(why, len, "a kept row that does not parse: %zu fields, not %d (got "
                     "'%.*s')", nf, CSV_NCOLS, (int)strcspn(raw, "\r\n") < 200 ?
                     (int)strcspn(raw, "\r\n") : 200, raw);
        return 2;
    }
    if (strcmp(field[CSV_COL_scheme], row->scheme->name) != 0) {
        snprintf(why, len, "a kept row of scheme %s where this run writes %s (got '%s')",
                 field[CSV_COL_scheme], row->scheme->name, field[CSV_COL_scheme]);
        return 2;
    }
    csv_row_t t = *r;
    for (size_t c = 0; c < CSV_NCOLS; c++)
        if (csv_column(c)->kind == CSV_TEXT)
            *(const char **)((char *)&t + csv_column(c)->offset) = field[c];
    char buf[16384], *back[CSV_NCOLS + 1];
    for (size_t c = 0; writer_fields(&t, buf, sizeof buf, back) == 0 && c < CSV_NCOLS; c++)
        if (strcmp(back[c], field[c]) != 0) {
            snprintf(why, len, "%s is not as bloomsim writes it: '%.200s' (got '%.200s')",
                     csv_column(c)->name, back[c], field[c]);
            return 2;
        }
    if (r->false_positives != CSV_ABSENT && r->lookups != CSV_ABSENT && r->lookups > 0) {
        t.rate = (double)((long double)r->false_positives / (long double)r->lookups);
        if (t.rate != r->rate && writer_fields(&t, buf, sizeof buf, back) == 0) {
            snprintf(why, len, "rate does not follow from its counts: false_positives / "
                     "lookups = %llu / %llu = %s (got '%s')",
                     (unsigned long long)r->false_positives, (unsigned long long)r->lookups,
                     back[CSV_COL_rate], field[CSV_COL_rate]);
            return 2;
        }
    }
    return 0;
}
