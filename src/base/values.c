/* values.c - see values.h. */
#include "base/values.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The decimal number s, whole, with blanks around it; VALUES_UNDERFLOW when a nonzero
 * number rounds to 0. strtod sets ERANGE for subnormal results too (glibc does for
 * 1e-310): those are numbers. */
int values_real(const char *s, double *out)
{
    s = skip_blanks(s);
    if (strpbrk(s, "xXpP")) /* no hexadecimal floats (nor inf, nan: their letters) */
        return VALUES_BAD;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    int range = errno == ERANGE;
    if (end == s || *skip_blanks(end) != '\0' || !isfinite(d))
        return VALUES_BAD;
    *out = d;
    return range && d == 0 ? VALUES_UNDERFLOW : VALUES_OK;
}

int values_count(const char *s, uint64_t *out)
{
    char digits[64];
    size_t nd = 0;
    s = skip_blanks(s);
    if (*s == '\0')
        return VALUES_BAD;
    int plain = 1;
    for (const char *p = s; *p && *p != ' ' && *p != '\t'; p++) {
        if (*p >= '0' && *p <= '9') {
            if (nd + 1 >= sizeof digits)
                return VALUES_BAD;
            digits[nd++] = *p;
        } else if (*p != '_') {
            plain = 0;
            break;
        } else if (p == s || p[-1] < '0' || p[-1] > '9' || p[1] < '0' || p[1] > '9') {
            return VALUES_BAD; /* one _ between digits: 1__0000 and _1 are typing errors */
        }
    }
    if (plain) {
        if (nd == 0 || *skip_blanks(s + strcspn(s, " \t")) != '\0')
            return VALUES_BAD;
        digits[nd] = '\0';
        errno = 0;
        unsigned long long v = strtoull(digits, NULL, 10);
        if (errno == ERANGE)
            return VALUES_BAD;
        *out = v;
        return VALUES_OK;
    }
    double d;
    if (values_real(s, &d) != VALUES_OK || !(d >= 0) || d > 9007199254740992.0 ||
        d != floor(d))
        return VALUES_BAD;
    *out = (uint64_t)d;
    return VALUES_OK;
}
