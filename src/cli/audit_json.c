/* audit_json.c - the audits' --json objects (audit_json.h; docs/json.md). Each number
 * is the one the text prints (audit.c's print_audit, audit_exec.c's exec_print), at full
 * precision, with the check of the inserted keys and the verdict (audit.h). */
#include <math.h>
#include <stdio.h>

#include "cli/audit_json.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "estimate/simulate.h"
#include "keys/keys.h"
#include "rates/rate.h"

/* ln 2, which C11's math.h does not name. */
#define LN2 0.69314718055994530942

/* A reference rate beside the measured one, as the text's "uniform", "structure",
 * "model" and "formula" lines: the rate, measured over it, and how many standard errors
 * apart (null with no spread). Nothing when ref is NaN. */
static void put_reference(json_object *o, const char *key, double ref, double rate,
                          double stderr_)
{
    if (isnan(ref))
        return;
    json_object *v = json_out_obj(o, key);
    json_out_num(v, "rate", ref);
    json_out_num(v, "measured_over", rate / ref);
    json_out_num(v, "z", stderr_ > 0 ? (rate - ref) / stderr_ : NAN);
}

/* The measured rate and its interval, as the text's "measured" line. */
static json_object *put_measured(json_object *o, double rate, double lo, double hi,
                                 double se, uint64_t filters)
{
    json_object *v = json_out_obj(o, "measured");
    json_out_num(v, "rate", rate);
    json_out_num(v, "ci_low", lo);
    json_out_num(v, "ci_high", hi);
    json_out_num(v, "stderr", se);
    json_out_num(v, "rse", rate > 0 ? se / rate : 0.0);
    json_out_count(v, "filters", filters);
    return v;
}

/* A one-filter audit's stated range and its spread, as cli_print_range's lines; and
 * measured.exact (true: the rate is that range's exact count, its interval the rate
 * itself, its standard error 0). */
static void put_range(json_object *o, json_object *measured, const audit_range_t *g,
                      const keyset_t *ks)
{
    json_out_bool(measured, "exact", g->on != 0);
    if (!g->on)
        return;
    char key[128];
    json_object *v = json_out_obj(o, "query_range");
    json_out_count(v, "first", g->first);
    json_out_count(v, "queries", g->queries);
    cli_key_text(ks, 0, key, sizeof key);
    json_out_text(v, "first_key", key);
    cli_key_text(ks, g->queries - 1, key, sizeof key);
    json_out_text(v, "last_key", key);
    json_out_bool(v, "given", g->given != 0);
    if (!g->given)
        json_out_num(v, "planned_at", g->planned_at);
    if (g->wanted)
        json_out_count(v, "wanted", g->wanted);
    json_out_count(v, "false_positives", g->false_positives);
    json_out_num(v, "rate", g->rate);
    json_object *w = json_out_obj(o, "range_spread");
    json_out_count(w, "ranges", g->ranges);
    json_out_count(w, "per_range", g->per_range);
    json_out_num(w, "rate_min", g->lo);
    json_out_num(w, "rate_max", g->hi);
    json_out_num(w, "stdev", g->sd);
}

/* The interval over the promise, as the text's "ratio" line. */
static void put_ratio(json_object *o, double rate, double lo, double hi, double p)
{
    json_object *v = json_out_obj(o, "ratio");
    json_out_num(v, "rate", rate / p);
    json_out_num(v, "ci_low", lo / p);
    json_out_num(v, "ci_high", hi / p);
}

/* Why an audit LIBRARY's target was not reached, as its "target" line says it. */
static const char *library_shortfall(const exp_row_t *row, const csv_row_t *r)
{
    double rse = r->rate > 0 ? r->stderr_ / r->rate : INFINITY;
    if (rse <= r->rse_target)
        return "too_few_filters";
    uint64_t q = row_real_keys(row) ? keyset_queries_total(&row->keys) : UINT64_MAX;
    if (r->filters && r->lookups + r->lookups / r->filters > q)
        return "key_file_exhausted";
    return r->filters >= row->max_filters ? "max_filters" : "max_lookups";
}

/* The design and the promise of an audit LIBRARY. */
static void library_design(json_object *o, const library_t *lib, const audit_design_t *d)
{
    json_out_text(o, "library", lib->name);
    json_out_text(o, "version", lib->version);
    json_object *v = json_out_obj(o, "design");
    json_out_count(v, "n", d->n);
    json_out_num(v, "rate", d->p);
    json_out_num(v, "bits_per_key_given", d->bits_per_key);
    json_out_text(v, "sizing", lib->sizing->name);
    json_out_count(v, "m", d->m);
    json_out_num(v, "m_mib", (double)d->m / 8388608.0);
    json_out_count(v, "m_computed", d->m_computed);
    json_out_bool(v, "m_wrapped", d->m < d->m_computed);
    json_out_count(v, "k", d->k);
    json_out_text(v, "scheme", lib->scheme->name);
    json_out_num(o, "promise", d->p);
    json_out_bool(o, "promise_from_bits_per_key", !isnan(d->bits_per_key));
}

/* The check of the inserted keys and the verdict, as the text's "inserted" and "verdict"
 * lines; returns the exit status: print's failure, else the verdict's. */
static int put_outcome(json_object *o, const audit_check_t *c, const audit_verdict_t *v)
{
    if (c->filters) {
        json_object *f = json_out_obj(o, "false_negatives");
        json_out_count(f, "filters", c->filters);
        json_out_bool(f, "all", c->all != 0);
        json_out_count(f, "queried", c->queried);
        json_out_count(f, "absent", c->absent);
    }
    static const char *const words[] = {[AUDIT_PASS] = "pass", [AUDIT_FAIL] = "fail",
                                        [AUDIT_UNREACHED] = "target_not_reached"};
    json_out_text(o, "verdict", v->status >= 0 && v->status <= AUDIT_UNREACHED &&
                                        words[v->status] ? words[v->status] : "fail");
    json_out_text(o, "verdict_line", v->line);
    json_out_count(o, "exit_status", (uint64_t)v->status);
    int rc = json_out_print(o, "audit");
    return rc ? rc : v->status;
}

int audit_json_library(const library_t *lib, const audit_design_t *d, const exp_row_t *row,
                       const csv_row_t *r, int threads, uint64_t seed,
                       const audit_outcome_t *out, const audit_range_t *g)
{
    json_object *o = json_out_new("audit");
    library_design(o, lib, d);
    json_out_text(o, "hash_words", row_real_keys(row) ? "real" : "ideal");
    if (row_real_keys(row)) {
        char shown[4200] = "";
        if (row->keys.kind->show)
            row->keys.kind->show(&row->keys, 1, shown, sizeof shown);
        json_object *k = json_out_obj(o, "keys");
        json_out_text(k, "kind", row->keys.kind->name);
        json_out_text(k, "shown", shown);
        json_out_text(k, "bytes", row->words->key_bytes);
        json_out_text(k, "hash", row->words->hash);
    }
    json_object *m = put_measured(o, r->rate, r->ci_low, r->ci_high, r->stderr_,
                                  g->on ? 1 : r->filters);
    json_out_text(m, "estimator", row->est->name);
    put_range(o, m, g, &row->keys);
    if (sim_counts(row)) {
        json_out_count(m, "lookups", r->lookups);
        json_out_count(m, "false_positives", r->false_positives);
    }
    json_object *t = json_out_obj(o, "target");
    json_out_num(t, "precision", r->rse_target);
    json_out_bool(t, "met", r->target_met != 0);
    if (r->target_met == 0)
        json_out_text(t, "shortfall", library_shortfall(row, r));
    put_ratio(o, r->rate, r->ci_low, r->ci_high, d->p);
    put_reference(o, "uniform", d->uniform, r->rate, r->stderr_);
    put_reference(o, "structure", d->structure, r->rate, r->stderr_);
    put_reference(o, "model", d->model, r->rate, r->stderr_);
    json_out_text(o, "cause", lib->cause);
    json_out_text(o, "report", lib->report);
    json_out_num(o, "seconds", r->seconds);
    json_out_count(o, "threads", (uint64_t)threads);
    json_out_count(o, "seed", seed);
    return put_outcome(o, &out->check, &out->verdict);
}

/* The design of an audit --exec, as the adapter answered it, and its promise. */
static void exec_design(json_object *o, const audit_exec_run_t *r)
{
    const audit_exec_t *x = r->x;
    json_object *v = json_out_obj(o, "design");
    json_out_count(v, "n", x->n);
    int bits = audit_exec_bits_rate(x) > 0; /* by bits: no promise */
    json_out_num(v, "rate", bits ? NAN : x->p);
    json_out_num(v, "bits_per_key_given",
                 x->bits_per_key > 0 && !x->fingerprint_bits ? x->bits_per_key : NAN);
    if (x->fingerprint_bits)
        json_out_count(v, "fingerprint_bits_given", x->fingerprint_bits);
    json_out_bool(v, "m_hidden", r->m == 0);
    if (r->table_bits) { /* a fingerprint filter: its table, and what failed building it */
        json_out_count(v, "table_bits", r->table_bits);
        json_out_num(v, "table_bits_per_key", (double)r->table_bits / (double)x->n);
        json_object *f = json_out_obj(o, "failures");
        json_out_count(f, "inserts", r->failed);
        json_out_count(f, "retries", r->retries);
    }
    if (r->m) {
        json_out_count(v, "m", r->m);
        json_out_num(v, "bits_per_key", (double)r->m / (double)x->n);
        json_out_count(v, "k", r->k);
    }
    json_out_num(o, "promise", bits ? NAN : x->p);
    if (bits)
        json_out_num(o, x->fingerprint_bits ? "fingerprint_bits_rate" : "bits_per_key_rate",
                     audit_exec_bits_rate(x));
}

int audit_json_exec(const audit_exec_run_t *r, const char *name, const stats_summary_t *s,
                    int met, const audit_verdict_t *v, double secs)
{
    const audit_exec_t *x = r->x;
    json_object *o = json_out_new("audit --exec");
    json_object *a = json_out_obj(o, "adapter");
    json_out_text(a, "name", name);
    json_out_text(a, "cmd", x->cmd);
    exec_design(o, r);
    json_object *m = put_measured(o, s->rate, s->ci_low, s->ci_high, s->stderr_,
                                  r->range.on ? 1 : s->filters);
    json_out_count(m, "lookups_per_filter", r->L);
    json_out_count(m, "lookups", s->filters * r->L);
    json_out_count(m, "false_positives", s->false_positives);
    json_out_text(m, "interval", r->range.on ? "exact"
                                 : s->kind == STATS_BINOMIAL ? "binomial" : "spread");
    put_range(o, m, &r->range, x->keys);
    json_object *k = json_out_obj(o, "keys");
    json_out_text(k, "kind", x->keys ? x->keys_label : "random");
    json_out_text(k, "wire", ADAPTER_WIRE_NAMES[audit_exec_wire(x)]);
    json_out_count(k, "seed", x->seed);
    json_out_bool(k, "per_filter", audit_exec_per_filter(x));
    json_object *t = json_out_obj(o, "target");
    json_out_num(t, "precision", x->precision);
    json_out_bool(t, "met", met);
    if (!met)
        json_out_text(t, "shortfall", r->range.on || r->Fmax < x->max_filters
                                          ? "key_file_exhausted" : "max_filters");
    if (!audit_exec_bits_rate(x))
        put_ratio(o, s->rate, s->ci_low, s->ci_high, x->p);
    double exact = NAN;
    if (r->m && rate_exact(r->m, x->n, r->k, &exact) != RATE_OK)
        exact = NAN;
    put_reference(o, "formula", r->m ? rate_formula(r->m, x->n, r->k) : NAN, s->rate,
                  s->stderr_);
    put_reference(o, "uniform", exact, s->rate, s->stderr_);
    json_out_num(o, "seconds", secs);
    return put_outcome(o, &r->check, v);
}
