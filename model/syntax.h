/* syntax.h - one parser per text syntax of a design's fields, shared by the YAML loader, the
 * editor's cells and the CSV importer. Each works on (text, len), allocates nothing unless said,
 * and answers with byte offsets into the text (a syn_span per part found, the offset of a
 * problem), so that the YAML loader turns them into line:column and the others into their
 * own messages. A parser that refuses the text returns a status other than KP_OK with *err
 * (caller frees) saying what is wrong and, where it says so, *err_at the offset of the
 * problem; err and err_at may be NULL.
 *
 * Grammars (ws = white space as isspace says; text around is trimmed by the parsers unless said):
 *   number    := [+-] digits [. digits] [(e|E) [+-] digits]   ("5.", ".5" too), '_' anywhere
 *                ignored (1_000); ',' ignored too with SYN_NUM_COMMAS (100,000); finite; no ws
 *   by        := attr [ "=" value ]          attr and value trimmed, neither empty; attr has no "="
 *   order     := attr [ ws+ ("asc" | "desc") ]   the direction in any case; attr has no ws
 *   join      := to "=" from                 both trimmed (may be empty)
 *   condition := attr ws* op values         attr of [A-Za-z0-9_.-] and non-ASCII bytes
 *   In each, an attribute name may be written in backticks, "``" for a backtick inside:
 *   `a=b`=x, `a b` desc, `State#Date` = x: any name DynamoDB takes. The parsers' spans of a
 *   quoted name include its backticks; syn_name gives the name.
 *                op "=" | "==" | "!=" with one value (the rest, trimmed, may hold commas),
 *                or "in" (after ws) with "[a, b]" or "a, b" (each element trimmed, none empty)
 *   signal    := metric ws* cmp ws* number   metric of [A-Za-z0-9._-] and non-ASCII bytes, cmp
 *                one of > >= < <= == = != (= reads as ==), number with SYN_NUM_COMMAS
 *   group     := attr { "+" attr }           attributes set on the same items (an entity's
 *                `together`), each trimmed, none empty */
#ifndef KP_SYNTAX_H
#define KP_SYNTAX_H

#include "design.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct syn_span {
    size_t at, len;
} syn_span;

enum { SYN_NUM_COMMAS = 1 };

/* The whole text as a number (no white space around). false when it is not one. */
bool syn_number(const char *s, size_t len, unsigned flags, double *out);

/* A figure as people write it in a pattern table: a number with a unit, the number's comma a
 * decimal point, blanks and '<', '~', '=' before it. kind 'r' a rate: per second unless "/min",
 * "/h" ("/hora", "/hour") or "/day" ("/día", "/d") follows, *out requests a second; 'l' a
 * latency: ms unless "s", "min" or "h" follows, *out milliseconds; 'n' a plain number. false
 * when there is no number, or a unit the kind does not know. */
bool syn_figure(const char *s, char kind, double *out);

/* The shortest decimal text that reads back (syn_number, strtod) as exactly v: whole numbers
 * below 1e15 without a point ("-0" as "0"), others with up to 17 significant digits. buf holds
 * at least 32 bytes; returns buf. */
const char *syn_number_text(double v, char *buf, size_t n);

/* The attribute name a parser's span holds (the text, or a quoted name without its backticks).
 * Caller frees. */
char *syn_name(const char *s, syn_span sp);
/* Appends `name` as the syntaxes write it: as it is, or in backticks when it holds a byte of
 * `special` ("": any byte a template's placeholder name cannot hold), starts with a backtick,
 * has white space around it or is empty. */
void syn_name_text(sbuf *b, const char *name, const char *special);

/* Appends a `by` element ("status=paid"), a `join` element ("to=from") or an `order`
 * ("orderDate desc") as the parsers read it. */
void syn_by_text(sbuf *b, const kp_by *by);
void syn_join_text(sbuf *b, const kp_join *j);
void syn_order_text(sbuf *b, const char *attr, bool desc);
/* Appends a sparse rule's condition regenerated from its fields: "status = x", "status != x",
 * "status in [a, b]". */
void syn_condition_text(sbuf *b, const kp_sparse *s);

/* Trims white space: *a and *z become the offsets of the first and past the last kept byte. */
void syn_trim(const char *s, size_t len, size_t *a, size_t *z);

/* Splits at any byte of `seps`, trimming each element and dropping empty ones. Returns the
 * count; *out (caller frees; NULL when none) holds the spans. */
size_t syn_split(const char *s, size_t len, const char *seps, syn_span **out);

/* A `by` element. KP_INVALID when the attribute (or, after "=", the value) is empty. */
typedef struct syn_by {
    syn_span attr;
    bool has_value;
    syn_span value;
} syn_by;
kp_status syn_by_parse(const char *s, size_t len, syn_by *out, char **err);

/* An `order`. KP_INVALID when there is no attribute, or something other than asc or desc
 * after it. */
kp_status syn_order_parse(const char *s, size_t len, syn_span *attr, bool *desc, char **err);

/* A `join` element. KP_INVALID when there is no "=". */
kp_status syn_join_parse(const char *s, size_t len, syn_span *to, syn_span *from, char **err);

/* A sparse condition. On success out->values (caller frees with syn_cond_free) holds one span
 * per value. On failure KP_INVALID with *err and *err_at (an offset into s); nothing to free. */
typedef struct syn_cond {
    syn_span attr;
    kp_cond_op op;
    syn_span *values;
    size_t nvalues;
} syn_cond;
kp_status syn_condition_parse(const char *s, size_t len, syn_cond *out, char **err, size_t *err_at);
void syn_cond_free(syn_cond *c);

/* A signal. KP_SIGNAL with *err and *err_at on a malformed one. */
typedef struct syn_signal {
    syn_span metric;
    kp_cmp cmp;
    double value;
} syn_signal;
kp_status syn_signal_parse(const char *s, size_t len, syn_signal *out, char **err, size_t *err_at);

/* A `together` group ("GSI1PK+GSI1SK"). On success *out (caller frees) holds a span per
 * attribute; KP_INVALID with *err and *err_at when an attribute is empty ("A+", "+B", "A++B"). */
kp_status syn_group_parse(const char *s, size_t len, syn_span **out, size_t *n, char **err, size_t *err_at);

/* true when group text `group` (syn_group_parse's syntax) names attribute `name`. Allocates
 * nothing: the resolver asks on every plan. */
bool syn_group_has(const char *group, const char *name);

#endif
