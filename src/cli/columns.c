/* columns.c - `bloomsim columns`: the columns of the result table and their meaning
 * (csv.h), as text or as docs/model.md's table. */
#include <stdio.h>

#include "cli/cli.h"
#include "base/csv.h"

static const char usage[] =
    "usage: bloomsim columns [--markdown]\n\n"
    "Prints the columns of the result table, in CSV order, with their meaning\n"
    "(--markdown: as the table of docs/model.md, which is generated from it).\n";

int cli_columns(int argc, char **argv)
{
    int markdown = 0;
    const cli_opt_t opts[] = {{.name = "--markdown", .kind = CLI_FLAG, .dst = &markdown}};
    cli_spec_t spec = {.command = "columns", .usage = usage, .unknown = "argument",
                       .opts = opts, .nopts = 1};
    int rc = cli_parse(&spec, argc, argv);
    if (rc >= 0)
        return rc;
    csv_print_columns(stdout, markdown);
    return 0;
}
