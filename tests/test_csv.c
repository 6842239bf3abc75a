/* test_csv.c - the result table (csv.h): the column list is consistent, a written row
 * reads back field for field (RFC 4180 quoting, round-trip doubles, empty fields for
 * absent values), and the record reader keeps whole records and refuses torn ones. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"

/* Names unique, each found by csv_column_find at its own index; the header is the
 * names in order. */
static void test_columns(void)
{
    for (size_t i = 0; i < CSV_NCOLS; i++) {
        const csv_column_t *c = csv_column(i);
        assert(c && c->name[0] && c->meaning[0]);
        assert(csv_column_find(c->name) == (int)i);
        assert(strchr(c->meaning, '|') == NULL); /* would break the markdown table */
    }
    assert(csv_column(CSV_NCOLS) == NULL && csv_column_find("no_such_column") == -1);
    assert(csv_column_find("stderr") == CSV_COL_stderr_ && csv_column_find("seconds") == CSV_COL_seconds);
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert(csv_write_header(f) == 0);
    fclose(f);
    char want[4096] = "";
    for (size_t i = 0; i < CSV_NCOLS; i++) {
        strcat(want, i ? "," : "");
        strcat(want, csv_column(i)->name);
    }
    strcat(want, "\r\n");
    assert(strcmp(buf, want) == 0);
    printf("%d columns, names unique, header in order\n", CSV_NCOLS);
}

/* Doubles that need 15, 16 and 17 digits, tiny and huge values, NaN (empty), absent
 * counts (empty), text needing quotes: written, read back, equal. */
static void test_round_trip(void)
{
    csv_row_t r = csv_row_empty();
    r.experiment = "quote \"this\", and that";
    r.scheme = "line\r\nbreak";
    r.estimator = "lookups";
    r.m = UINT64_C(18446744073709551614); /* CSV_ABSENT - 1 */
    r.n = 0;
    r.k = 7;
    r.bits_per_key = 0.1 + 0.2;  /* 17 digits */
    r.rate = 0.9;                /* 15 digits suffice */
    r.stderr_ = 1.0 / 3.0;
    r.formula = 4.9406564584124654e-324; /* the smallest subnormal */
    r.exact = 1.7976931348623157e308;
    r.seconds = 12.3456;
    r.seed = 42;
    char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w+");
    assert(csv_write_row(f, &r) == 0);
    fprintf(f, "torn,row");
    rewind(f);
    char rec[8192], *field[CSV_NCOLS + 1];
    size_t nf;
    assert(csv_read_record(f, rec, sizeof rec, field, CSV_NCOLS + 1, &nf) == 1);
    assert(nf == CSV_NCOLS);
    assert(strcmp(field[CSV_COL_experiment], r.experiment) == 0);
    assert(strcmp(field[CSV_COL_scheme], r.scheme) == 0);
    assert(strcmp(field[CSV_COL_lookups], "") == 0 && strcmp(field[CSV_COL_rate], "0.9") == 0);
    assert(strcmp(field[CSV_COL_seconds], "12.346") == 0);
    csv_row_t back = csv_row_empty();
    assert(csv_parse_row(field, nf, &back) == 0);
    assert(back.m == r.m && back.n == 0 && back.k == 7 && back.seed == 42);
    assert(back.lookups == CSV_ABSENT && back.false_positives == CSV_ABSENT);
    assert(back.bits_per_key == r.bits_per_key && back.rate == r.rate);
    assert(back.stderr_ == r.stderr_ && back.formula == r.formula && back.exact == r.exact);
    assert(isnan(back.ci_low) && isnan(back.model));
    /* The torn last record (no CRLF) is refused, then the end of the file. */
    assert(csv_read_record(f, rec, sizeof rec, field, CSV_NCOLS + 1, &nf) == -1);
    assert(csv_read_record(f, rec, sizeof rec, field, CSV_NCOLS + 1, &nf) == 0);
    fclose(f);
    printf("a row with quoted text, 17-digit, subnormal and absent values reads back equal\n");
}

/* Malformed input: a number field that is not one, too many fields, an open quote. */
static void test_refusals(void)
{
    char *field[CSV_NCOLS + 1];
    char rec[256];
    size_t nf;
    for (size_t i = 0; i < CSV_NCOLS; i++)
        field[i] = "";
    field[CSV_COL_m] = "12x";
    csv_row_t r = csv_row_empty();
    assert(csv_parse_row(field, CSV_NCOLS, &r) == -1);
    field[CSV_COL_m] = "-1";
    assert(csv_parse_row(field, CSV_NCOLS, &r) == -1);
    field[CSV_COL_m] = "12";
    field[CSV_COL_rate] = "0.5.5";
    assert(csv_parse_row(field, CSV_NCOLS, &r) == -1);
    field[CSV_COL_rate] = "0.5";
    assert(csv_parse_row(field, CSV_NCOLS, &r) == 0 && r.m == 12 && r.rate == 0.5);
    assert(csv_parse_row(field, CSV_NCOLS - 1, &r) == -1);
    const char *bad[] = {"a,b,c\r\n", "\"open,quote\r\n", "bare\nline\r\n"};
    const size_t maxf[] = {2, 8, 8};
    const int want[] = {-1, -1, 1};
    for (size_t i = 0; i < 3; i++) {
        FILE *f = fmemopen((void *)bad[i], strlen(bad[i]), "r");
        int got = csv_read_record(f, rec, sizeof rec, field, maxf[i], &nf);
        printf("record %zu: %d (want %d)\n", i, got, want[i]);
        assert(got == want[i]);
        fclose(f);
    }
    /* A record longer than the buffer is refused, not cut. */
    FILE *f = fmemopen("0123456789,0123456789\r\n", 23, "r");
    assert(csv_read_record(f, rec, 12, field, 8, &nf) == -1);
    fclose(f);
    printf("malformed numbers, field counts, open quotes and long records refused\n");
}

int main(void)
{
    test_columns();
    test_round_trip();
    test_refusals();
    return 0;
}
