/* yamlout.h - YAML text written through libyaml's emitter, for every YAML the project writes
 * (the design file, the CloudFormation export). Block or flow maps and sequences and scalars in
 * a chosen style; the text collects in memory.
 *
 * Errors are sticky and returned, never fatal: the first emitter failure (an emitter that
 * cannot start, text that is not UTF-8, events out of order) is remembered, later calls do
 * nothing, and yamlout_finish returns NULL with the emitter's message. Only running out of
 * memory in keyplan's own allocations aborts (util_die). */
#ifndef KP_YAMLOUT_H
#define KP_YAMLOUT_H

#include "util.h"

#include <stdbool.h>
#include <yaml.h>

typedef struct yamlout {
    yaml_emitter_t e;
    sbuf out;
    bool failed;
    char *problem; /* the first failure's message */
} yamlout;

/* Starts a stream and its one document (implicit start), UTF-8 kept as it is, lines broken
 * with "\n" past `width` columns, nested blocks indented by `indent` (2 when 0). Release with
 * yamlout_finish (or yamlout_free when abandoning). Never fails by itself: when libyaml cannot
 * start, that is the first failure yamlout_finish reports. */
void yamlout_open(yamlout *o, int indent, int width);

/* A scalar in `style` (YAML_ANY_SCALAR_STYLE lets libyaml choose plain when it reads back as
 * the same text); NULL writes "". */
void yamlout_scalar(yamlout *o, const char *s, yaml_scalar_style_t style);
/* true when `s` written plain would read back as something other than that text for a YAML 1.1
 * or 1.2 reader: empty, null or ~, a boolean (true, yes, on, y... in their cases), a number
 * (12, 1e3, 0x1F, 0o7, .inf, .nan) or a date (2010-09-09). */
bool yamlout_typed(const char *s);
/* A scalar that must read back as this text: plain when it can, double-quoted when yamlout_typed
 * says a reader would take it for something else (an attribute named "on", "null" or "1e3"). */
void yamlout_text(yamlout *o, const char *s);
void yamlout_map(yamlout *o, bool flow);
void yamlout_map_end(yamlout *o);
void yamlout_seq(yamlout *o, bool flow);
void yamlout_seq_end(yamlout *o);

/* Ends the document and the stream and returns the text (caller frees), or NULL with *err set
 * (caller frees; err may be NULL) when any call failed. Releases the emitter either way. */
char *yamlout_finish(yamlout *o, char **err);

/* Releases an emitter without finishing it (after a failure of the caller's own). */
void yamlout_free(yamlout *o);

#endif
