/* expr.h - DynamoDB condition expressions as data: a Query's key condition and a filter, read
 * once from the text the resolver writes, evaluated over items, and written back out with the
 * attribute names and value names a request uses.
 *
 * Filter grammar (what the resolver and verify write; keywords in any case):
 *   or      := and { "OR" and }
 *   and     := not { "AND" not }
 *   not     := "NOT" not | primary
 *   primary := "(" or ")"
 *            | NAME ( "=" | "<>" | "<" | "<=" | ">" | ">=" ) VALUE
 *            | NAME "BETWEEN" VALUE "AND" VALUE
 *            | NAME "IN" "(" VALUE { "," VALUE } ")"
 *            | ( "begins_with" | "contains" ) "(" NAME "," VALUE ")"
 *            | ( "attribute_exists" | "attribute_not_exists" ) "(" NAME ")"
 *   NAME    := bytes of [A-Za-z0-9_.-] or non-ASCII (a design's attribute name, UTF-8 works)
 *   VALUE   := ":" NAME
 * Text outside that grammar (a "#name", size(...)) is kept as written in an EXPR_RAW node: it
 * renders as the text with its names and values substituted, and never evaluates.
 *
 * Key conditions: "PK = :pk", optionally followed by "AND SK = :sk" (or <, <=, >, >=),
 * "AND begins_with(SK, :sk)" or "AND SK BETWEEN :a AND :b". */
#ifndef KP_EXPR_H
#define KP_EXPR_H

#include "item.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum expr_kind {
    EXPR_AND,        /* kids[0] AND kids[1] AND ... */
    EXPR_OR,         /* kids[0] OR kids[1] OR ... */
    EXPR_NOT,        /* NOT kids[0] */
    EXPR_CMP,        /* attr op values[0] */
    EXPR_BETWEEN,    /* attr BETWEEN values[0] AND values[1] */
    EXPR_IN,         /* attr IN (values[0], ...) */
    EXPR_BEGINS,     /* begins_with(attr, values[0]) */
    EXPR_CONTAINS,   /* contains(attr, values[0]) */
    EXPR_EXISTS,     /* attribute_exists(attr) */
    EXPR_NOT_EXISTS, /* attribute_not_exists(attr) */
    EXPR_RAW,        /* text: an expression outside the grammar, kept as written */
} expr_kind;

typedef enum expr_op { EXPR_EQ, EXPR_NE, EXPR_LT, EXPR_LE, EXPR_GT, EXPR_GE } expr_op;

typedef struct kp_expr {
    expr_kind kind;
    expr_op op;     /* EXPR_CMP */
    unsigned paren; /* how many parentheses enclose it as written */
    char *attr;     /* the attribute's own name */
    char **values;  /* value names (":pk") */
    size_t nvalues;
    struct kp_expr *kids; /* EXPR_AND, EXPR_OR: two or more; EXPR_NOT: one */
    size_t nkids;
    char *text; /* EXPR_RAW */
} kp_expr;

/* Reads `text` into *out (release with expr_free). Text outside the grammar gives an EXPR_RAW
 * node holding it; this never fails. */
void expr_parse(const char *text, kp_expr *out);
void expr_free(kp_expr *e);

/* How names and values are written when an expression is rendered: each callback appends the
 * text that stands for the attribute name or the value name (e.g. "#n0", ":v0") to `out`. A
 * NULL callback writes the name as it is. */
typedef struct expr_writer {
    void (*name)(void *ctx, sbuf *out, const char *name);
    void (*value)(void *ctx, sbuf *out, const char *value);
    void *ctx;
} expr_writer;

/* The expression as DynamoDB text: single spaces, keywords in capitals, parentheses where they
 * were written; names and values through `w` (NULL: as they are), in the order they appear.
 * An EXPR_RAW node is its text with its names (not the keywords) and values substituted.
 * Caller frees. */
char *expr_render(const kp_expr *e, const expr_writer *w);

/* Calls fn for every value name of the expression, in the order they appear (repeats too). */
void expr_each_value(const kp_expr *e, void (*fn)(void *ctx, const char *value), void *ctx);

/* Evaluates the expression on `item`, with `values` holding the value of each value name
 * (":v" -> {"S": ...}). Comparisons follow DynamoDB: values of different types never compare
 * (and are "not equal" for <>); begins_with and contains take strings. Returns 1 (keep), 0
 * (drop) or -1 when the expression is EXPR_RAW or names a value `values` lacks. */
int expr_eval(const kp_expr *e, const kp_item *item, const kp_item *values);

/* ---- key conditions ----------------------------------------------------------------------- */

typedef enum expr_sk_op {
    EXPR_SK_NONE,
    EXPR_SK_EQ,
    EXPR_SK_LT,
    EXPR_SK_LE,
    EXPR_SK_GT,
    EXPR_SK_GE,
    EXPR_SK_BEGINS,
    EXPR_SK_BETWEEN,
} expr_sk_op;

typedef struct expr_keycond {
    char *pk, *pk_value; /* attribute name, value name (":pk") */
    expr_sk_op op;
    char *sk, *sk_value, *sk_value2; /* sk_value2 only for BETWEEN */
} expr_keycond;

/* Reads `text` into *out (release with expr_keycond_free). KP_INVALID with *err set (caller
 * frees; err may be NULL) when the text is not a key condition of the shape above; *out is
 * then empty. */
kp_status expr_keycond_parse(const char *text, expr_keycond *out, char **err);
void expr_keycond_free(expr_keycond *kc);

/* The key condition as DynamoDB text, names and values through `w` (NULL: as they are), in the
 * order they appear. Caller frees. */
char *expr_keycond_render(const expr_keycond *kc, const expr_writer *w);

/* true when a sort-key value `have` (NULL: the item has none) meets the condition's sort-key
 * part with the values v1 (and v2 for BETWEEN); numbers compare as numbers when `numeric`,
 * strings by UTF-8 bytes, begins_with by prefix. No sort-key part: always true. */
bool expr_keycond_sk_match(const expr_keycond *kc, bool numeric, const char *have, const char *v1,
                           const char *v2);

/* Compares two key values as DynamoDB orders them: as numbers when `numeric`, else by bytes. */
int expr_key_cmp(bool numeric, const char *a, const char *b);

#endif
