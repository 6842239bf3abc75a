/* est_keys.c - the lookups estimator on real keys (docs/model.md, Key sets and real
 * hashes): a row whose keys are real (row_real_keys) inserts the n keys of its key set
 * (keys.h) and looks up L keys that were never inserted, each key through its library's
 * own hash into the words its scheme consumes (libraries/library_words.h), and counts the
 * false positives. The keys are streamed, never stored.
 *
 * Every such row is built and queried by all threads together, as the lookups
 * estimator's big rows are (est_lookups.c): filter f's inserts in chunks of
 * EST_CHUNK, chunk c the inserted keys [c EST_CHUNK, ...), its lookups the same
 * over the queried keys, from a base that is filter f's own. Which keys a chunk holds
 * depends on (row, f, c) alone and inserts are atomic ORs, so the bits and the count
 * are the same for any thread count.
 *
 * Which keys filter f takes (keyset_filter_keys): where each filter takes keys of its
 * own (keyset_kind_t.per_filter: random, uuid, filter-bench), those of stream f of the
 * key set (keys.h), inserted and queried keys alike, so that filters are independent
 * samples of the key set; the others' keys are the same in every filter (their filters
 * are one filter, built once a call and queried again), and filter f queries the keys
 * from f L on, so that the filters' queries are disjoint and their counts sum to a
 * binomial count on that one filter. The queries of a key set bounded in all (a file's
 * Q lines after the inserted ones) are taken cyclically: query j is its query j mod Q
 * (docs/model.md says what repeated queries mean).
 */
#include <omp.h>

#include "estimate/estimator.h"

/* Keys whose positions are computed before any is tested, so that their first probes'
 * words are fetched in parallel; schemes of k > KEYS_BATCH_K probes are tested key by
 * key. */
enum { KEYS_BATCH = 16, KEYS_BATCH_K = 64, KEYS_RING = 64 };

/* Insert the inserted keys [first, first + count) of stream `stream` into b, each
 * position prefetched for writing KEYS_RING positions ahead of its set: an atomic OR when
 * threads share b (shared), a plain one when one thread builds it. A locked OR also holds
 * back every later load, the key bytes the hash reads among them, so one thread alone
 * avoids it: the bits are the same. */
static void keys_insert(const exp_row_t *row, const keyset_t *ks, bits_t *b, uint64_t stream,
                        uint64_t first, uint64_t count, int shared)
{
    const probe_geom_t *g = &row->geom;
    key_stream_t s;
    key_stream_init(&s, ks, KEY_ROLE_INSERT, stream, first);
    uint64_t pos[SIZING_MAX_K], ring[KEYS_RING], queued = 0;
    rkey_t key;
    for (uint64_t j = 0; j < count && key_next(&s, &key); j++) {
        library_words_positions(row->words, row->scheme, g, &key, pos);
        for (unsigned i = 0; i < g->k; i++) {
            bits_prefetch(b, pos[i], 1);
            if (queued >= KEYS_RING) {
                if (shared)
                    bits_set_atomic(b, ring[queued % KEYS_RING]);
                else
                    bits_set(b, ring[queued % KEYS_RING]);
            }
            ring[queued++ % KEYS_RING] = pos[i];
        }
    }
    for (uint64_t q = queued > KEYS_RING ? queued - KEYS_RING : 0; q < queued; q++)
        bits_set_atomic(b, ring[q % KEYS_RING]);
}

/* Whether a key's k positions are all set. */
static int keys_all_set(const bits_t *b, const uint64_t *pos, unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        if (!bits_test(b, pos[i]))
            return 0;
    return 1;
}

/* The next queried key of s; the queries of a key set bounded in all (a file's lines)
 * wrap to its first. Other key sets end only past a filter's bound (filter-bench's n
 * queries), which the row's lookups never reach (plan_real_keys, lookups_cap): 0 there,
 * never another stream's keys. */
static int keys_next_query(key_stream_t *s, const keyset_t *ks, rkey_t *key)
{
    if (key_next(s, key))
        return 1;
    if (keyset_queries_total(ks) == UINT64_MAX)
        return 0;
    key_stream_init(s, ks, KEY_ROLE_QUERY, 0, 0);
    return key_next(s, key);
}

/* False positives among `count` queried keys of stream `stream` from query number
 * `first` on (taken modulo the queries of a key set bounded in all: a file's lines). */
static uint64_t keys_lookup(const exp_row_t *row, const keyset_t *ks, const bits_t *b,
                            uint64_t stream, uint64_t first, uint64_t count)
{
    const probe_geom_t *g = &row->geom;
    if (keyset_queries_total(ks) != UINT64_MAX) /* at least one: the caller checks */
        first %= keyset_queries_total(ks);
    key_stream_t s;
    key_stream_init(&s, ks, KEY_ROLE_QUERY, stream, first);
    uint64_t fp = 0;
    rkey_t key;
    if (g->k > KEYS_BATCH_K) {
        uint64_t pos[SIZING_MAX_K];
        for (uint64_t j = 0; j < count && keys_next_query(&s, ks, &key); j++) {
            library_words_positions(row->words, row->scheme, g, &key, pos);
            fp += (uint64_t)keys_all_set(b, pos, g->k);
        }
        return fp;
    }
    uint64_t pos[KEYS_BATCH][KEYS_BATCH_K];
    for (uint64_t j = 0; j < count; j += KEYS_BATCH) {
        unsigned nb = 0;
        for (; nb < KEYS_BATCH && j + nb < count && keys_next_query(&s, ks, &key); nb++) {
            library_words_positions(row->words, row->scheme, g, &key, pos[nb]);
            bits_prefetch(b, pos[nb][0], 0);
        }
        for (unsigned q = 0; q < nb; q++)
            fp += (uint64_t)keys_all_set(b, pos[q], g->k);
        if (nb < KEYS_BATCH && j + nb < count)
            break; /* no more keys: the caller checked there are enough */
    }
    return fp;
}

/* How many of the inserted keys [first, first + count) of stream `stream` have all their
 * positions set in b: each key hashed as keys_insert hashes it. */
static uint64_t keys_present(const exp_row_t *row, const keyset_t *ks, const bits_t *b,
                             uint64_t stream, uint64_t first, uint64_t count)
{
    const probe_geom_t *g = &row->geom;
    key_stream_t s;
    key_stream_init(&s, ks, KEY_ROLE_INSERT, stream, first);
    uint64_t pos[SIZING_MAX_K], yes = 0;
    rkey_t key;
    for (uint64_t j = 0; j < count && key_next(&s, &key); j++) {
        library_words_positions(row->words, row->scheme, g, &key, pos);
        yes += (uint64_t)keys_all_set(b, pos, g->k);
    }
    return yes;
}

/* Inserted keys an audit's sample queries in one run of consecutive ones. */
#define KEYS_CHECK_RUN UINT64_C(1024)

/* An audit's check of filter f of stream `stream` (row_out_t.absent): all its n inserted
 * keys where est_check_count says all, else est_check_count's number of them in runs of
 * KEYS_CHECK_RUN consecutive keys, each run's start uniform on [0, n - KEYS_CHECK_RUN]
 * from the generator of unit (seed, row, f) (which a key set's keys never draw from:
 * they are the key set's own), so that any part of a structured key set may be met.
 * Returns how many were reported absent; `threads` threads. */
static uint64_t keys_check(const row_run_t *run, const keyset_t *ks, const bits_t *b,
                           uint64_t f, uint64_t stream, int threads)
{
    const exp_row_t *row = run->row;
    const uint64_t n = row->n, check = est_check_count(n, row->lookups_per_filter);
    const int all = check == n;
    const uint64_t span = all ? EST_CHUNK : KEYS_CHECK_RUN;
    const uint64_t runs = (check + span - 1) / span;
    pcg32_t r;
    pcg32_unit(&r, run->seed, run->index, f);
    uint64_t yes = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : yes)
    for (uint64_t c = 0; c < runs; c++) {
        if (progress_stopped(run->stop))
            continue;
        uint64_t len = check - c * span < span ? check - c * span : span, first = c * span;
        if (!all) {
            pcg32_t cr;
            pcg32_subunit(&cr, &r, c);
            first = pcg32_below(&cr, n - KEYS_CHECK_RUN + 1);
        }
        yes += keys_present(row, ks, b, stream, first, len);
    }
    return check - yes;
}

/* Length of chunk c of a total split into EST_CHUNK pieces. */
static uint64_t keys_chunk_len(uint64_t total, uint64_t c)
{
    uint64_t first = c * EST_CHUNK;
    return total - first < EST_CHUNK ? total - first : EST_CHUNK;
}

/* One more chunk of a filter finished; thread 0 reports (and so ticks: a distributed
 * run's messages are answered between chunks, however long the filter). */
static void keys_chunk_done(progress_t *ps, int t, uint64_t *chunks, uint64_t all,
                            double per_filter, uint64_t done, uint64_t L, uint64_t n)
{
    uint64_t d;
#pragma omp atomic capture
    d = ++*chunks;
    if (t == 0)
        progress_report(ps, per_filter, (double)done + (double)d / (double)all, done,
                        done * L, done * n);
}

int est_keys_run_row(const row_run_t *run, bits_t *b, uint64_t f0, uint64_t F, uint64_t *done)
{
    const exp_row_t *row = run->row;
    const row_out_t *out = run->out;
    progress_t *ps = run->ps;
    atomic_int *stop = run->stop;
    const probe_geom_t *g = &row->geom;
    const uint64_t n = row->n, L = row->lookups_per_filter;
    const uint64_t nins = (n + EST_CHUNK - 1) / EST_CHUNK;
    const uint64_t nlook = (L + EST_CHUNK - 1) / EST_CHUNK;
    const double per_filter = est_row_work(row) / (double)row->filters;
    keyset_t ks = row->keys;
    ks.seed = run->seed; /* the run's: --seed gives other random and uuid keys */
    const int own = keyset_per_filter(&ks);
    /* No more threads than chunks: a small row's filters are one chunk of keys and one
     * of lookups, and waking idle threads for each would cost more than the filter. */
    const uint64_t most = nins > nlook ? nins : nlook;
    const int nth = most < (uint64_t)run->threads ? (int)most : run->threads;
    b->m = g->m;
    int built = 0; /* b holds the filter of keys that are the same in every filter */
    for (uint64_t f = f0; f < F && !progress_stopped(stop); f++) {
        uint64_t stream, qbase; /* which keys filter f takes */
        keyset_filter_keys(&ks, f, L, &stream, &qbase);
        const uint64_t ni = own || !built ? nins : 0; /* insert chunks this filter */
        uint64_t fp = 0;
        if (ni)
            bits_reset(b, g->m);
        uint64_t chunks = 0; /* finished, inserts and lookups */
#pragma omp parallel num_threads(nth)
        {
            const int t = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < ni; c++) {
                if (progress_stopped(stop))
                    continue;
                keys_insert(row, &ks, b, stream, c * EST_CHUNK, keys_chunk_len(n, c),
                            nth > 1);
                keys_chunk_done(ps, t, &chunks, ni + nlook, per_filter, *done, L, n);
            }
#pragma omp for schedule(dynamic, 1) reduction(+ : fp)
            for (uint64_t c = 0; c < nlook; c++) {
                if (progress_stopped(stop))
                    continue;
                fp += keys_lookup(row, &ks, b, stream, qbase + c * EST_CHUNK,
                                  keys_chunk_len(L, c));
                keys_chunk_done(ps, t, &chunks, ni + nlook, per_filter, *done, L, n);
            }
        }
        if (progress_stopped(stop))
            break;
        if (out->absent) /* each filter built is checked; the same keys' only once */
            out->absent[f] = ni ? keys_check(run, &ks, b, f, stream, nth) : EST_UNCHECKED;
        built = 1;
        out->counts[f] = fp;
        if (out->popcounts)
            out->popcounts[f] = bits_count(b);
        ++*done;
        progress_report(ps, per_filter, (double)*done, *done, *done * L, *done * n);
    }
    return progress_stopped(stop);
}
