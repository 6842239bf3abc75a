/* fuzz_experiment.c - libFuzzer target for the experiment parser: any bytes must either
 * load (and then expand into rows at both scales) or be refused with a message naming
 * the file and line; never crash, leak or hit undefined behaviour. Built with
 * -Dfuzz=true by clang (scripts/fuzz). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/experiment.h"
#include "experiment/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static experiment_t e; /* large: keep it off the fuzzer's stack */
    char err[EXP_ERR_LEN];
    if (experiment_load_text("fuzz.ini", (const char *)data, size, &e, err, sizeof err) != 0) {
        if (strncmp(err, "fuzz.ini", 8) != 0)
            abort(); /* every message names the file */
        return 0;
    }
    for (int quick = 0; quick < 2; quick++) {
        exp_row_t *rows;
        size_t n;
        if (plan_rows(&e, quick, &rows, &n, err, sizeof err) == 0)
            plan_rows_free(rows, n);
        else if (strncmp(err, "fuzz.ini", 8) != 0)
            abort();
    }
    return 0;
}
