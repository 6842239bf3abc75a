/* chain.c - see chain.h. */
#include "libraries/chain.h"

#include <math.h>
#include <stdio.h>

#include "rates/rate.h"

/* Link j's swallow-free rate at a keys added (a real: the integration's points). */
static double link_rate(const sizing_layer_t *l, double a)
{
    if (a <= 0)
        return 0;
    return pow(-expm1(-(double)l->k * a / (double)l->m), (double)l->k);
}

/* Keys inserted, on average, while link l goes from 0 to a keys added, the older links'
 * rate being R: the integral of 1 / (1 - s(x)) over [0, a], s(x) = 1 - (1 - R)(1 -
 * r(x)) (Simpson's rule on 256 panels; the integrand is smooth and rises slowly). */
static double keys_to_add(const sizing_layer_t *l, double R, double a)
{
    if (a <= 0)
        return 0;
    const int panels = 256;
    double h = a / panels, sum = 0;
    for (int i = 0; i <= panels; i++) {
        double x = h * i;
        double f = 1.0 / ((1 - R) * (1 - link_rate(l, x)));
        sum += f * (i == 0 || i == panels ? 1 : i % 2 ? 4 : 2);
    }
    return sum * h / 3;
}

int chain_check_whole(const chain_params_t *p, double max_expansion)
{
    if (!(p->expansion >= 1))
        return CHAIN_EEXPANSION;
    if (p->expansion != floor(p->expansion) || p->expansion > max_expansion)
        return CHAIN_EWHOLE;
    return SIZING_OK;
}

int chain_check(const library_chain_t *c, const chain_params_t *p)
{
    if (!(p->tightening > 0 && p->tightening < 1))
        return CHAIN_ETIGHTENING;
    if (!c->has_tightening && p->tightening != c->defaults.tightening)
        return CHAIN_ENOTIGHTENING;
    if (p->capacity == 0)
        return CHAIN_ECAPACITY;
    if (!(p->rate > 0 && p->rate < 1))
        return CHAIN_ERATE;
    if (!c->has_expansion && p->expansion != c->defaults.expansion)
        return CHAIN_ENOEXPANSION;
    return c->check ? c->check(p) : SIZING_OK;
}

int chain_links(const library_chain_t *c, const chain_params_t *p, uint64_t keys,
                sizing_layer_t *out, size_t *nlinks, double *swallowed)
{
    int st = chain_check(c, p);
    if (st != SIZING_OK)
        return st;
    double left = (double)keys, lost = 0, pass = 1; /* pass: 1 - the older links' rate */
    size_t j = 0;
    for (;;) {
        if (j == CHAIN_MAX_LINKS)
            return CHAIN_ELINKS;
        sizing_layer_t *l = &out[j];
        st = c->link(p, j, j ? &out[j - 1] : NULL, l);
        if (st != SIZING_OK)
            return st;
        double cap = (double)l->capacity;
        double full = c->swallows ? keys_to_add(l, 1 - pass, cap) : cap;
        j++;
        if (left <= full) { /* the newest link: a keys added where keys_to_add = left */
            double a = left;
            if (c->swallows) {
                double lo = 0, hi = cap;
                for (int it = 0; it < 60; it++) {
                    double mid = (lo + hi) / 2;
                    if (keys_to_add(l, 1 - pass, mid) < left)
                        lo = mid;
                    else
                        hi = mid;
                }
                a = (lo + hi) / 2;
            }
            l->n = (uint64_t)floor(a + 0.5);
            if (l->n > l->capacity)
                l->n = l->capacity;
            lost += left - a;
            if (l->n == 0 && j > 1) /* no key added yet: the library makes it on one */
                j--;
            break;
        }
        l->n = l->capacity;
        lost += full - cap;
        left -= full;
        pass *= 1 - link_rate(l, cap);
    }
    *nlinks = j;
    /* Below the bisection's and Simpson's precision (a part in 10^12 of the keys) is
     * none: one key into an empty chain swallows nothing, not 4e-16 of a key. */
    *swallowed = lost < 1e-12 * (double)keys ? 0 : lost;
    return SIZING_OK;
}

const char *chain_describe(const library_chain_t *c, const chain_params_t *p)
{
    static _Thread_local char buf[160];
    int w = snprintf(buf, sizeof buf, "capacity %llu, rate %.10g",
                     (unsigned long long)p->capacity, p->rate);
    if (c->has_expansion && w > 0 && (size_t)w < sizeof buf)
        w += snprintf(buf + w, sizeof buf - (size_t)w, ", expansion %.10g", p->expansion);
    if (c->has_tightening && w > 0 && (size_t)w < sizeof buf)
        snprintf(buf + w, sizeof buf - (size_t)w, ", tightening %.10g", p->tightening);
    return buf;
}

const char *chain_strerror(const library_chain_t *c, int status)
{
    const char *own = c && c->refusal ? c->refusal(status) : NULL;
    if (own)
        return own;
    switch (status) {
    case CHAIN_EEXPANSION:
        return "expansion must be at least 1";
    case CHAIN_EWHOLE:
        return "expansion must be a whole number";
    case CHAIN_ENOEXPANSION:
        return "this library's chain takes no expansion";
    case CHAIN_ECAPACITY:
        return "capacity must be at least 1";
    case CHAIN_ERATE:
        return "rate must be strictly between 0 and 1";
    case CHAIN_ELINKS:
        return "more than 1024 links (bloomsim's limit for a chain)";
    case CHAIN_EUNDERFLOW:
        return "the next link's rate is 0: the library refuses the link";
    case CHAIN_ETIGHTENING:
        return "tightening must be strictly between 0 and 1";
    case CHAIN_ENOTIGHTENING:
        return "this library's chain takes no tightening (its own is fixed)";
    case SIZING_EPROBES:
        return "the next link would need more than 1000 probes (bloomsim's limit)";
    default:
        return sizing_strerror(status);
    }
}

double chain_probes(const sizing_layer_t *links, size_t nlinks, double *links_asked)
{
    double pass = 1, probes = 0, asked = 0;
    for (size_t j = nlinks; j-- > 0;) {
        const sizing_layer_t *l = &links[j];
        double q = -expm1(-(double)l->k * (double)l->n / (double)l->m);
        double qk = pow(q, (double)l->k);
        asked += pass;
        probes += pass * (q < 1 ? (1 - qk) / (1 - q) : (double)l->k);
        pass *= 1 - qk; /* it says no: the next link is asked */
    }
    if (links_asked)
        *links_asked = asked;
    return probes;
}
