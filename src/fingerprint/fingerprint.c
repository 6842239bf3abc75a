/* fingerprint.c - see fingerprint.h: the generic functions, each calling the family's
 * op (fingerprint/NAME.c), and the helpers the families share. Nothing here knows a
 * family: the quotient family's machinery is quotient_family.c and kept_bits.c, the
 * cuckoo filter's cuckoo.c. */
#include "fingerprint/fingerprint.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fp_strerror(int status)
{
    switch (status) {
    case FP_OK: return "ok";
    case FP_EBITS: return "fingerprint bits outside what the filter takes (quotient 1 to 64; "
                          "InfiniFilter and Aleph 2 to 64, one bit marks the entry's age; "
                          "cuckoo 1 to 32)";
    case FP_ERATE: return "no fingerprint the filter takes meets the rate";
    case FP_EBIG: return "the filter would need more than 2^40 slots or 128 hash bits";
    case FP_ERESERVE: return "a capacity, bucket size, max iterations or expansion the "
                             "library refuses";
    default: return "unknown error";
    }
}

size_t fp_text(char *buf, size_t len, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, fmt, ap);
    va_end(ap);
    return at + (w > 0 ? (size_t)w : 0);
}

double fp_one_minus_pow(double x, double n)
{
    return x >= 1 ? 1.0 : -expm1(n * log1p(-x));
}

/* ---- the design and its schedule ---- */

int fp_design(const fp_filter_t *f, uint64_t n, double p, double threshold, unsigned bits,
              fp_design_t *d)
{
    return f->ops->design(f, n, p, threshold, bits, d);
}

int fp_takes_reserve(const fp_filter_t *f) { return f->ops->reserve; }

int fp_run(const fp_filter_t *f, const fp_design_t *d, uint64_t n, fp_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->filter = f;
    s->d = *d;
    s->keys = n;
    int st = f->ops->run(s);
    if (st == FP_OK)
        f->ops->space(s);
    return st;
}

unsigned fp_new_bits(const fp_state_t *s) { return s->filter->ops->new_bits(s); }

double fp_exact(const fp_state_t *s) { return s->filter->ops->exact(s); }

double fp_places(const fp_state_t *s) { return s->filter->ops->places(s); }

double fp_between_var(const fp_state_t *s) { return s->filter->ops->between_var(s); }

int fp_entry_of(const fp_state_t *s, size_t g, pcg_u128 h, fp_entry_t *e)
{
    return s->filter->ops->entry_of ? s->filter->ops->entry_of(s, g, h, e) : -1;
}

size_t fp_describe(const fp_state_t *s, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    return s->filter->ops->describe(s, buf, len);
}

int fp_takes_threshold(const fp_filter_t *f) { return f->ops->takes_threshold; }

/* ---- one built filter: the family's table, and what it refused ---- */

struct fp_work {
    const fp_ops_t *ops;
    void *table;
    uint64_t refused;
};

double fp_work_bytes(const fp_state_t *s) { return s->filter->ops->table_bytes(s); }

int fp_work_alloc(fp_work_t **wp, const fp_state_t *s)
{
    fp_work_t *w = calloc(1, sizeof *w);
    *wp = w;
    if (!w)
        return -1;
    w->ops = s->filter->ops;
    return w->ops->table_alloc(&w->table, s);
}

void fp_work_free(fp_work_t *w)
{
    if (!w)
        return;
    if (w->table)
        w->ops->table_free(w->table);
    free(w);
}

uint64_t fp_work_refused(const fp_work_t *w) { return w->refused; }

int fp_build(fp_work_t *w, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll)
{
    w->refused = 0;
    return w->ops->build(w->table, s, r, poll, &w->refused);
}

uint64_t fp_lookups(const fp_work_t *w, const fp_state_t *s, pcg32_t *r, uint64_t L,
                    const scheme_poll_t *poll)
{
    return w->ops->lookups(w->table, s, r, L, poll);
}

double fp_conditional(fp_work_t *w, const fp_state_t *s, const scheme_poll_t *poll)
{
    return w->ops->conditional ? w->ops->conditional(w->table, s, poll) : NAN;
}

int fp_has_conditional(const fp_filter_t *f) { return f->ops->conditional != NULL; }

const char *fp_refusal(const fp_filter_t *f, int status)
{
    return status == FP_EBITS && f->bits_refusal   ? f->bits_refusal
           : status == FP_ERATE && f->rate_refusal ? f->rate_refusal
           : status == FP_ERESERVE && f->reserve_refusal ? f->reserve_refusal
                                                   : fp_strerror(status);
}
