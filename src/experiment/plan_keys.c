/* plan_keys.c - the real keys of a planned row (plan.h): a library's hash of a key set
 * (plan_real_keys), a key file (plan_key_file) and a hash split's (plan_split_keys), with
 * the row's lookups and filters capped by what the key set holds. */
#include "experiment/plan.h"

#include <stdio.h>
#include <string.h>

#include "estimate/estimator.h"
#include "hashes/hashes.h"

/* The row's lookups a filter and its filters within its key set's bounds: a filter's
 * queries (filter-bench's n: more filters, not more lookups, where more are wanted) and,
 * where its queries are bounded in all (a file's lines after the inserted ones), the
 * batches of the one filter they allow, each query asked once: at most Q / L filters
 * before one would be asked twice (keyset_plan_queries). The precision rule's growth of
 * L is capped the same way (simulate.c, lookups_cap). */
static void cap_queries(exp_row_t *row)
{
    uint64_t fmax = keyset_plan_queries(&row->keys, row->precision > 0,
                                        &row->lookups_per_filter);
    if (row->filters > fmax)
        row->filters = fmax;
    if (row->max_filters > fmax)
        row->max_filters = fmax;
}

/* Opens row's key set of a kind named by parameter (not a path), caps its queries and
 * checks them, and writes what its show says of it to shown: 0, or 2 with err. */
static int open_keys(exp_row_t *row, const keyset_kind_t *kind, const char *param,
                     char *shown, size_t shownlen, char *err, size_t errlen)
{
    if (keyset_open(&row->keys, kind, 0, row->n, param, err, errlen) != KEYSET_OK)
        return 2;
    cap_queries(row);
    if (keyset_check(&row->keys, row->lookups_per_filter, err, errlen) != KEYSET_OK)
        return 2;
    if (kind->show)
        kind->show(&row->keys, 0, shown, shownlen);
    return 0;
}

/* A key file's first line that is not UTF-8, for a library whose keys are text, which
 * its adapter refuses as a str key (docs/adapter.md): 0, or -1 with the line in err. */
static int file_not_text(const keyset_t *ks, const char *lib, char *err, size_t errlen)
{
    const uint8_t *p = ks->map, *end = ks->map + ks->size;
    for (unsigned long long line = 1; p < end; line++) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        len -= len > 0 && p[len - 1] == '\r';
        if (!hash_utf8_valid(p, len)) {
            snprintf(err, errlen, "key file %s:%llu: not UTF-8, and %s's keys are text (its "
                     "adapter refuses the line too)", ks->path, line, lib);
            return -1;
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}

int plan_key_file(exp_row_t *row, const keyset_kind_t *kind, const char *path,
                  const char *shown, char *err, size_t errlen)
{
    if (keyset_open(&row->keys, kind, 0, row->n, path, err, errlen) ||
        keyset_check(&row->keys, kind->min_queries, err, errlen) ||
        (row->words && row->words->kinds & KEY_TEXT && row->keys.map &&
         file_not_text(&row->keys, row->library->name, err, errlen))) {
        /* keyset_close keeps the kind: plan_rows_free may close it again, harmlessly */
        keyset_close(&row->keys);
        return 2;
    }
    snprintf(row->label, sizeof row->label, "%s; keys %s %s; hash %s", row->library->name,
             kind->name, shown, row->words->hash);
    cap_queries(row);
    return 0;
}


int plan_real_keys(exp_row_t *row, const library_t *lib, const keyset_kind_t *kind,
                   const char *param, char *err, size_t errlen)
{
    const library_words_t *w = lib->words;
    if (!w) {
        snprintf(err, errlen, "library %s has no real hash in bloomsim: %s", lib->name,
                 lib->words_skipped ? lib->words_skipped : "not covered");
        return 2;
    }
    if (!(w->kinds & kind->kinds)) {
        if (kind->kinds == KEY_BYTES)
            snprintf(err, errlen, "library %s hashes text only: %s keys are bytes", lib->name,
                     kind->name);
        else
            snprintf(err, errlen, "library %s does not hash %s keys", lib->name, kind->name);
        return 2;
    }
    char shown[KEYSET_PREFIX_MAX + 32] = "";
    /* a path is opened by plan_key_file */
    if (!kind->param_path && open_keys(row, kind, param, shown, sizeof shown, err, errlen))
        return 2;
    row->words = w;
    row->est = &est_lookups;
    snprintf(row->label, sizeof row->label, "%s; keys %s%s; hash %s", lib->name, kind->name,
             shown, w->hash);
    return 0;
}

int plan_split_keys(exp_row_t *row, const split_t *split, const keyset_kind_t *kind,
                    const char *param, char *err, size_t errlen)
{
    char shown[KEYSET_PREFIX_MAX + 32] = "";
    if (kind->param_path) {
        snprintf(err, errlen, "splits take no key file");
        return 2;
    }
    if (open_keys(row, kind, param, shown, sizeof shown, err, errlen))
        return 2;
    row->words = &split->words;
    row->est = &est_lookups;
    snprintf(row->label, sizeof row->label, "split %s; keys %s%s; hash %s", split->name,
             kind->name, shown, split->words.hash);
    return 0;
}
