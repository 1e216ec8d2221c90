/* expr.h - DynamoDB condition expressions as data: a Query's key condition and a filter, built
 * by the resolver (model/resolve_render.c) as data, rendered once as the text DynamoDB receives
 * (with ExpressionAttributeNames placeholders for the names that need one), evaluated over items
 * by verify and planeval.
 *
 * Attribute names: DynamoDB reads a name in an expression as itself only when it is a letter
 * and then letters, digits or '_' (ASCII), and not one of its 573 reserved words (any case:
 * `status`, `In`, `between`); every other name a table may hold (any UTF-8 text: `State#Date`,
 * `a b`, `1pk`, `línea`, `a.b`, which would be a path) must be written as a placeholder
 * ("#State_Date") that the request's ExpressionAttributeNames maps to the name. expr_names
 * gives each name its placeholder, one rule for the displays, the requests and verify.
 *
 * Text grammar that expr_parse reads back (what expr_render writes; keywords in any case):
 *   or      := and { "OR" and }
 *   and     := not { "AND" not }
 *   not     := "NOT" not | primary
 *   primary := "(" or ")"
 *            | NAME ( "=" | "<>" | "<" | "<=" | ">" | ">=" ) VALUE
 *            | NAME "BETWEEN" VALUE "AND" VALUE
 *            | NAME "IN" "(" VALUE { "," VALUE } ")"
 *            | ( "begins_with" | "contains" ) "(" NAME "," VALUE ")"
 *            | ( "attribute_exists" | "attribute_not_exists" ) "(" NAME ")"
 *   NAME    := "#" alias (looked up in the names given) | bytes of [A-Za-z0-9_.-] or non-ASCII
 *   VALUE   := ":" [A-Za-z0-9_]+
 * Text outside that grammar (size(...), an alias the names lack) is kept as written in an
 * EXPR_RAW node: it renders as the text with its names and values substituted, and never
 * evaluates.
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

/* ---- attribute names ------------------------------------------------------------------------ */

/* true when `name` is one of DynamoDB's reserved words, in any case ("status", "In"). */
bool expr_reserved(const char *name);
/* How many reserved words there are (573) and the i-th, lowercase, in byte order (NULL past
 * the end): the table itself, for the tests that hold it against DynamoDB. */
size_t expr_reserved_count(void);
const char *expr_reserved_word(size_t i);

/* true when DynamoDB reads `name` in an expression as the attribute of that name: an ASCII
 * letter, then ASCII letters, digits and '_', and not a reserved word. */
bool expr_name_plain(const char *name);

/* One entry of ExpressionAttributeNames: "#State_Date" -> "State#Date". */
typedef struct expr_name {
    char *alias;
    char *name;
} expr_name;

/* The names one request's expressions alias, in the order first used. Zero-initialised is
 * empty, its strings and array on the heap (release with expr_names_free); with `ar` set before
 * the first use they go to that arena instead (nothing to free), and with `borrow` too the
 * attribute names given are pointed at rather than copied. */
typedef struct expr_names {
    expr_name *v;
    size_t n, cap;
    arena *ar;
    bool borrow; /* with ar: the names given are kept as they are (they outlive the arena) */
} expr_names;

/* What stands for `name` in an expression: the name itself when expr_name_plain, else its
 * placeholder in `names`, added when new: '#' and the name with every byte other than an
 * ASCII letter, digit or '_' written as '_' (runs as one, at most 32 bytes; "n" when nothing is
 * left), then "_2", "_3"... when another name of `names` has it ("a b" -> "#a_b", "In" ->
 * "#In", "línea" -> "#l_nea"). Borrowed from `names` (or `name` itself). */
const char *expr_names_alias(expr_names *names, const char *name);
/* The name `alias` stands for in `names` (v[0..n)), NULL when none. */
const char *expr_names_lookup(const expr_name *v, size_t n, const char *alias);
void expr_names_free(expr_names *names);

/* ---- filters ------------------------------------------------------------------------------- */

/* Reads `text` into *out (release with expr_free), "#alias" names through names[0..nnames)
 * (may be NULL). Text outside the grammar gives an EXPR_RAW node holding it; this never fails. */
void expr_parse(const char *text, const expr_name *names, size_t nnames, kp_expr *out);
void expr_free(kp_expr *e);
/* A deep copy of src on the heap into *dst (release with expr_free). */
void expr_copy(kp_expr *dst, const kp_expr *src);

/* Building expressions as data. Strings and arrays are copied into arena `ar` (NULL: the heap,
 * released with expr_free of the node that holds them). */
/* *out = one condition on `attr`: EXPR_CMP (op, one value), EXPR_BETWEEN (two), EXPR_IN (one
 * or more), EXPR_BEGINS, EXPR_CONTAINS (one), EXPR_EXISTS, EXPR_NOT_EXISTS (none). */
void expr_term(arena *ar, kp_expr *out, expr_kind kind, expr_op op, const char *attr,
               const char *const *values, size_t nvalues);
/* *out = terms[0] AND terms[1] ... (the one term itself when n is 1); the terms are moved in
 * (their contents belong to *out afterwards, allocated as `ar` says). */
void expr_and(arena *ar, kp_expr *out, kp_expr *terms, size_t n);

/* How names and values are written when an expression is rendered: each callback appends the
 * text that stands for the attribute name or the value name (e.g. "#n0", ":v0") to `out`. A
 * NULL callback writes the name as it is. */
typedef struct expr_writer {
    void (*name)(void *ctx, sbuf *out, const char *name);
    void (*value)(void *ctx, sbuf *out, const char *value);
    void *ctx;
} expr_writer;

/* The writer that writes every attribute name as expr_names_alias gives it, values as they
 * are. */
expr_writer expr_names_writer(expr_names *names);

/* The expression as DynamoDB text: single spaces, keywords in capitals, parentheses where they
 * were written; names and values through `w` (NULL: as they are), in the order they appear.
 * An EXPR_RAW node is its text with its names (not the keywords) and values substituted.
 * Caller frees. */
char *expr_render(const kp_expr *e, const expr_writer *w);
/* The same text appended to *b. */
void expr_render_into(sbuf *b, const kp_expr *e, const expr_writer *w);

/* Calls fn for every attribute name of the expression, in the order they appear (repeats
 * too; not those inside EXPR_RAW text). */
void expr_each_name(const kp_expr *e, void (*fn)(void *ctx, const char *name), void *ctx);

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

/* Reads `text` into *out (release with expr_keycond_free), "#alias" names through
 * names[0..nnames) (may be NULL). KP_INVALID with *err set (caller frees; err may be NULL) when
 * the text is not a key condition of the shape above; *out is then empty. */
kp_status expr_keycond_parse(const char *text, const expr_name *names, size_t nnames, expr_keycond *out,
                             char **err);
void expr_keycond_free(expr_keycond *kc);
/* *out = the key condition pk = pk_value [AND the sort-key part], strings copied into `ar`
 * (NULL: the heap, released with expr_keycond_free); sk and its values NULL for EXPR_SK_NONE. */
void expr_keycond_make(arena *ar, expr_keycond *out, const char *pk, const char *pk_value, expr_sk_op op,
                       const char *sk, const char *sk_value, const char *sk_value2);

/* The key condition as DynamoDB text, names and values through `w` (NULL: as they are), in the
 * order they appear. Caller frees. */
char *expr_keycond_render(const expr_keycond *kc, const expr_writer *w);
/* The same text appended to *b. */
void expr_keycond_render_into(sbuf *b, const expr_keycond *kc, const expr_writer *w);

/* true when a sort-key value `have` (NULL: the item has none) meets the condition's sort-key
 * part with the values v1 (and v2 for BETWEEN); numbers compare as numbers when `numeric`,
 * strings by UTF-8 bytes, begins_with by prefix. No sort-key part: always true. */
bool expr_keycond_sk_match(const expr_keycond *kc, bool numeric, const char *have, const char *v1,
                           const char *v2);

/* Compares two key values as DynamoDB orders them: as numbers when `numeric`, else by bytes. */
int expr_key_cmp(bool numeric, const char *a, const char *b);

#endif
