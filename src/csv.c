/* csv.c - see csv.h. Lines end in CRLF as RFC 4180 specifies. */
#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {
    "experiment", "scheme", "m", "n", "k", "bits_per_key", "estimator", "filters",
    "lookups", "false_positives", "rate", "stderr", "ci_low", "ci_high", "formula",
    "formula_finite", "exact", "scheme_exact", "ratio_formula", "ratio_exact", "z_exact",
    "rate_times_m", "seconds", "seed",
    /* designs and stacks */
    "design_keys", "design_rate", "load", "fill", "n_est", "n_est_error", "n_est_spread",
    "rate_over_design", "first_capacity", "growth", "tightening", "layers", "total_bits",
    "single_bits", "bits_ratio", "layers_consulted", "bound",
    /* schemes with a model */
    "model", "ratio_model",
};

int csv_write_header(FILE *f)
{
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        fprintf(f, "%s%s", i ? "," : "", columns[i]);
    fputs("\r\n", f);
    return ferror(f) ? -1 : 0;
}

/* A text field, quoted (with doubled quotes) only when it needs to be. */
static void put_text(FILE *f, const char *s)
{
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
    fputc(',', f);
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
    put_text(f, r->experiment);
    fputc(',', f);
    put_text(f, r->scheme);
    fprintf(f, ",%llu,%llu,%u", (unsigned long long)r->m, (unsigned long long)r->n, r->k);
    put_double(f, r->bits_per_key);
    fputc(',', f);
    put_text(f, r->estimator);
    fprintf(f, ",%llu", (unsigned long long)r->filters);
    if (r->counted)
        fprintf(f, ",%llu,%llu", (unsigned long long)r->lookups,
                (unsigned long long)r->false_positives);
    else
        fputs(",,", f);
    const double v[] = {r->rate, r->stderr_, r->ci_low, r->ci_high, r->formula,
                        r->formula_finite, r->exact, r->scheme_exact, r->ratio_formula,
                        r->ratio_exact, r->z_exact, r->rate_times_m};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        put_double(f, v[i]);
    fprintf(f, ",%.3f,%llu", r->seconds, (unsigned long long)r->seed);
    for (size_t i = 0; i < CSV_NEXTRA; i++)
        put_double(f, r->extra.v[i]);
    fputs("\r\n", f);
    return ferror(f) ? -1 : 0;
}
