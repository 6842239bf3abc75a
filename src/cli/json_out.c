/* json_out.c - the --json output (json_out.h) over json-c. A double is serialised with
 * json_object_new_double_s from the shortest of %.15g, %.16g and %.17g that strtod reads
 * back to the same double, so that every number round-trips and none carries noise
 * digits; C's %g never writes a form JSON refuses once NaN and infinities are null. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/json_out.h"

json_object *json_out_new(const char *command)
{
    json_object *o = json_object_new_object();
    json_out_text(o, "command", command);
    return o;
}

/* Add v under key (json-c takes it; a NULL o drops it). */
static void put(json_object *o, const char *key, json_object *v)
{
    if (o && json_object_object_add(o, key, v) == 0)
        return;
    json_object_put(v);
}

static json_object *new_num(double x)
{
    if (!isfinite(x))
        return NULL; /* json-c's null */
    char text[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, x);
        if (strtod(text, NULL) == x)
            break;
    }
    return json_object_new_double_s(x, text);
}

void json_out_num(json_object *o, const char *key, double x)
{
    put(o, key, new_num(x));
}

void json_out_count(json_object *o, const char *key, uint64_t x)
{
    put(o, key, json_object_new_uint64(x));
}

void json_out_text(json_object *o, const char *key, const char *s)
{
    put(o, key, s ? json_object_new_string(s) : NULL);
}

void json_out_bool(json_object *o, const char *key, int b)
{
    put(o, key, json_object_new_boolean(b != 0));
}

json_object *json_out_obj(json_object *o, const char *key)
{
    json_object *v = json_object_new_object();
    if (!o || !v || json_object_object_add(o, key, v) != 0) {
        json_object_put(v);
        return NULL;
    }
    return v;
}

json_object *json_out_array(json_object *o, const char *key)
{
    json_object *v = json_object_new_array();
    if (!o || !v || json_object_object_add(o, key, v) != 0) {
        json_object_put(v);
        return NULL;
    }
    return v;
}

void json_out_push_count(json_object *a, uint64_t x)
{
    json_object *v = json_object_new_uint64(x);
    if (!a || json_object_array_add(a, v) != 0)
        json_object_put(v);
}

json_object *json_out_push_obj(json_object *a)
{
    json_object *v = json_object_new_object();
    if (!a || !v || json_object_array_add(a, v) != 0) {
        json_object_put(v);
        return NULL;
    }
    return v;
}

int json_out_print(json_object *o, const char *command)
{
    const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                                 JSON_C_TO_STRING_SPACED |
                                                                 JSON_C_TO_STRING_NOSLASHESCAPE)
                         : NULL;
    int rc = 0;
    if (!text)
        rc = cli_die(1, "%s: out of memory for the JSON output", command);
    else if (puts(text) == EOF || fflush(stdout) != 0)
        rc = cli_die(1, "%s: could not write the JSON output to stdout", command);
    json_object_put(o);
    return rc;
}
