/* test_adapter.c - the driver's side of the adapter protocol (adapter_client.h), against small
 * adapters written in sh: a sound session (hello, design, insert, query, quit and its
 * status), a design `? ?`, a refused design that leaves the adapter usable, and every
 * way an adapter can break: it dies, answers garbage, too few answers, a wrong count,
 * `error` outside a design, nothing within the timeout, or is stopped. Each error's
 * message is checked for the command it names. (tests/exec.sh drives the same code
 * through `bloomsim audit --exec`, and tests/adapters.sh through the real libraries.)
 */
#undef NDEBUG
#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/adapter_client.h"

/* A filter in sh: design answers "design 64 2" (or what $DESIGN says), a query answers
 * k mod 2 for each key k (odd keys "present"). */
static const char fake[] =
    "read l; echo 'hello 1 fake filter'\n"
    "while read c; do set -- $c; case $1 in\n"
    "  design) echo \"${DESIGN:-design 64 2}\" ;;\n"
    "  insert) i=0; while [ $i -lt $3 ]; do read k; i=$((i + 1)); done; echo \"inserted $3\" ;;\n"
    "  query) i=0; a=''; while [ $i -lt $3 ]; do read k; a=$a$((k % 2)); i=$((i + 1)); done;"
    "         echo \"${QUERY:-$a}\" ;;\n"
    "  quit) exit ${QUITSTATUS:-0} ;;\n"
    "esac; done\n";

/* The fake adapter's file (in a directory of the test's own), and its command. */
static char script[64], cmd[256];
static const char *with(const char *env)
{
    snprintf(cmd, sizeof cmd, "%s sh %s", env, script);
    return cmd;
}

static void test_sound(void)
{
    adapter_t a;
    char err[512] = "";
    uint64_t m, hits, keys[] = {1, 2, 3, 5, 7};
    unsigned k;
    assert(adapter_start(&a, with(""), NULL, 10, err, sizeof err) == ADAPTER_OK);
    assert(strcmp(a.name, "fake filter") == 0);
    assert(adapter_design(&a, 100, 0.01, 0, &m, &k, err, sizeof err) == ADAPTER_OK);
    assert(m == 64 && k == 2);
    assert(adapter_insert(&a, keys, 3, err, sizeof err) == ADAPTER_OK);
    assert(adapter_query(&a, keys, 5, &hits, err, sizeof err) == ADAPTER_OK);
    assert(hits == 4); /* 1, 3, 5 and 7 are odd */
    assert(adapter_query(&a, keys, 0, &hits, err, sizeof err) == ADAPTER_OK && hits == 0);
    int status;
    adapter_stop(&a, 0, &status);
    assert(status == 0);
    /* A status other than 0 after quit is reported to the caller. */
    assert(adapter_start(&a, with("QUITSTATUS=4"), NULL, 10, err, sizeof err) == ADAPTER_OK);
    adapter_stop(&a, 0, &status);
    assert(status == 4);
    /* Hidden m and k. */
    assert(adapter_start(&a, with("DESIGN='design ? ?'"), NULL, 10, err, sizeof err) ==
           ADAPTER_OK);
    assert(adapter_design(&a, 100, 0.01, 0, &m, &k, err, sizeof err) == ADAPTER_OK);
    assert(m == 0 && k == 0);
    adapter_stop(&a, 0, NULL);
}

/* Start the fake adapter with env, design, and run step (0 insert, 1 query); the status
 * of the step that fails and its message must contain want. */
static void expect(const char *env, int step, int status, const char *want)
{
    adapter_t a;
    char err[512] = "";
    uint64_t m, hits, keys[] = {1, 2, 3};
    unsigned k;
    int st = adapter_start(&a, with(env), NULL, 2, err, sizeof err);
    if (st == ADAPTER_OK)
        st = adapter_design(&a, 100, 0.01, 0, &m, &k, err, sizeof err);
    if (st == ADAPTER_OK)
        st = step == 0 ? adapter_insert(&a, keys, 3, err, sizeof err)
                       : adapter_query(&a, keys, 3, &hits, err, sizeof err);
    printf("%-40s -> %d: %s\n", env, st, err);
    assert(st == status);
    assert(strstr(err, want));
    adapter_stop(&a, st != ADAPTER_OK, NULL);
}

static void test_broken(void)
{
    expect("DESIGN='error too few keys'", 0, ADAPTER_REFUSED,
           "the adapter refuses 'design 100 0.01': too few keys");
    expect("DESIGN='design 64'", 0, ADAPTER_BROKEN,
           "answer to 'design 100 0.01' is not the protocol's (got 'design 64')");
    expect("DESIGN='design 0 2'", 0, ADAPTER_BROKEN, "is no filter: m = 0 bits, k = 2");
    expect("DESIGN='design 2 2'", 0, ADAPTER_BROKEN,
           "is no filter: m = 2 bits, k = 2 (want 0 < k < m <= 2^48)");
    expect("DESIGN='design 064 2'", 0, ADAPTER_BROKEN, "not the protocol's");
    expect("QUERY=01", 1, ADAPTER_BROKEN, "the adapter gave 2 answers to 'query u64 3', not 3");
    expect("QUERY=0101", 1, ADAPTER_BROKEN, "gave 4 answers");
    expect("QUERY=01x", 1, ADAPTER_BROKEN, "a byte other than 0 and 1 at 3 (got '01x')");
    expect("QUERY='error lost my filter'", 1, ADAPTER_BROKEN,
           "the adapter failed at 'query u64 3': lost my filter");
    expect("exit 3;", 0, ADAPTER_BROKEN, "status 3"); /* dies before its hello */
    /* A refused design leaves the adapter usable: the next design goes through. */
    adapter_t a;
    char err[512];
    uint64_t m;
    unsigned k;
    assert(adapter_start(&a, "read l; echo 'hello 1 x'; read l; echo 'error no'; read l; "
                             "echo 'design 8 1'; read l", NULL, 2, err, sizeof err) == ADAPTER_OK);
    assert(adapter_design(&a, 10, 0.5, 0, &m, &k, err, sizeof err) == ADAPTER_REFUSED);
    assert(adapter_design(&a, 10, 0, 1.5, &m, &k, err, sizeof err) == ADAPTER_OK && m == 8);
    adapter_stop(&a, 0, NULL);
    /* Nothing within the timeout; a stop while waiting. */
    assert(adapter_start(&a, "read l; echo 'hello 1 x'; read l; sleep 5", NULL, 0.3, err,
                         sizeof err) == ADAPTER_OK);
    assert(adapter_design(&a, 10, 0.5, 0, &m, &k, err, sizeof err) == ADAPTER_BROKEN);
    assert(strstr(err, "no answer to 'design 10 0.5' within 0.3 seconds"));
    adapter_stop(&a, 1, NULL);
    atomic_int stop = 0;
    assert(adapter_start(&a, "read l; echo 'hello 1 x'; read l; sleep 5", &stop, 0, err,
                         sizeof err) == ADAPTER_OK);
    atomic_store(&stop, SIGTERM);
    assert(adapter_design(&a, 10, 0.5, 0, &m, &k, err, sizeof err) == ADAPTER_STOPPED);
    adapter_stop(&a, 1, NULL);
    /* Not an adapter at all. */
    assert(adapter_start(&a, "echo hi", NULL, 2, err, sizeof err) == ADAPTER_BROKEN);
    assert(strstr(err, "answer to 'hello 1' is not the protocol's (got 'hi')"));
    adapter_stop(&a, 1, NULL);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* as audit --exec does (adapter_client.h) */
    char dir[] = "/tmp/test_adapter.XXXXXX";
    assert(mkdtemp(dir));
    snprintf(script, sizeof script, "%s/fake.sh", dir);
    FILE *f = fopen(script, "w");
    assert(f && fputs(fake, f) >= 0 && fclose(f) == 0);
    test_sound();
    test_broken();
    remove(script);
    rmdir(dir);
    printf("test_adapter: ok\n");
    return 0;
}
