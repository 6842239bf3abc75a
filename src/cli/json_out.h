/* json_out.h - the --json output of audit, audit --exec, size, exact, probes and
 * crossread: one object on stdout, built with json-c (Debian's libjson-c-dev), never
 * printed by hand.
 * Numbers are JSON numbers in the fewest digits that read back to the same double (at
 * most 17); counts are integers; a number that is not finite (a rate that cannot be
 * computed) is null. docs/json.md is each command's schema.
 *
 * Not thread-safe (the command line's own thread only); nothing here exits.
 */
#ifndef BLOOMSIM_JSON_OUT_H
#define BLOOMSIM_JSON_OUT_H

#include <stdint.h>

#include <json-c/json.h>

/* A new object holding "command": command. Caller frees it (json_out_print does). NULL
 * when out of memory. */
json_object *json_out_new(const char *command);

/* Add key to o: a double (null when not finite), a count, a text (null for NULL), a
 * truth value, or a new empty object or array, which is returned (NULL: out of memory,
 * and then later adds to it are ignored). */
void json_out_num(json_object *o, const char *key, double x);
void json_out_count(json_object *o, const char *key, uint64_t x);
void json_out_text(json_object *o, const char *key, const char *s);
void json_out_bool(json_object *o, const char *key, int b);
json_object *json_out_obj(json_object *o, const char *key);
json_object *json_out_array(json_object *o, const char *key);

/* Append a count to an array, or an object (returned; NULL when out of memory). */
void json_out_push_count(json_object *a, uint64_t x);
json_object *json_out_push_obj(json_object *a);

/* Print o on stdout, indented, with a newline, and free it. Returns the exit status: 0,
 * or 1 after a one-line message (out of memory, or stdout failed). */
int json_out_print(json_object *o, const char *command);

#endif
