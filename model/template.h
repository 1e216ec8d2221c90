/* template.h - key templates: literal text with {attribute} placeholders.
 *
 * Grammar (UTF-8 text):
 *   template    := part*
 *   part        := literal | "{{" | "}}" | "{" name [ ":" format ] "}"
 *   name        := one or more of [A-Za-z0-9_.-] or any non-ASCII byte (Spanish names work)
 *                | "`" any text, "``" for a backtick "`"   (any attribute name DynamoDB takes:
 *                  {`State#Date`}, {`a b`}, {`a:b`}, {`{x}`})
 *   format      := digits, as printf's zero-padded width: "03" pads numbers to width 3
 * "{{" and "}}" are literal braces. A lone "}" or an unclosed "{" is an error, as is "{}" and
 * "{``}".
 * An inline format overrides the attribute's own `format:`. Adjacent literals are merged, so
 * the parts alternate between literal runs and placeholders; this is what the resolver walks. */
#ifndef KP_TEMPLATE_H
#define KP_TEMPLATE_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum tpl_part_kind { TPL_LIT, TPL_ATTR } tpl_part_kind;

typedef struct tpl_part {
    tpl_part_kind kind;
    char *text;    /* TPL_LIT: the literal (braces unescaped); TPL_ATTR: the attribute name */
    char *format;  /* TPL_ATTR only: inline format ("03") or NULL */
    size_t offset; /* byte offset of the part in the source text (for error columns) */
} tpl_part;

typedef struct tpl {
    char *src; /* the template as written */
    tpl_part *parts;
    size_t n;
} tpl;

/* true when byte c may stand in a placeholder name: [A-Za-z0-9_.-] or any non-ASCII byte. */
bool tpl_name_byte(unsigned char c);
/* true when s is a whole placeholder name: one or more such bytes (false for NULL and ""):
 * a name a placeholder may hold without backticks. */
bool tpl_name_valid(const char *s);

/* Parses src into *out (which the caller owns and releases with tpl_free). KP_OK, or
 * KP_TEMPLATE with *out empty, *err the problem (caller frees) and *err_offset the byte offset
 * in src where it is; err and err_offset may be NULL. */
kp_status tpl_parse(const char *src, tpl *out, char **err, size_t *err_offset);
void tpl_free(tpl *t);
/* *dst becomes a copy of src (caller releases it with tpl_free). Never fails. */
void tpl_copy(tpl *dst, const tpl *src);

/* true when the template has no placeholder (a constant key: a hot-key warning). */
bool tpl_is_constant(const tpl *t);
/* true when attribute `name` appears as a placeholder. */
bool tpl_has_attr(const tpl *t, const char *name);
/* Number of placeholders. */
size_t tpl_attr_count(const tpl *t);

/* Appends literal text as a template writes it: its braces doubled. */
void tpl_add_literal(sbuf *b, const char *text);
/* Appends placeholder p as a template writes it: {name} or {name:format}, the name in
 * backticks when it needs them ({`State#Date`}). */
void tpl_add_placeholder(sbuf *b, const tpl_part *p);
/* The same for attribute `name` without a format: "{name}", "{`a b`}". Caller frees. */
char *tpl_placeholder(const char *name);
/* Appends `name` in backticks, a backtick inside doubled: `a b`, `a``b` (the quoting the
 * templates and the field syntaxes share). */
void tpl_add_quoted(sbuf *b, const char *name);

/* Writes the template back as source text (escaping braces); caller frees. tpl_parse of the
 * result gives an equal template. */
char *tpl_format(const tpl *t);

/* Renders the template with values: lookup(name, ctx) returns the value text for an attribute
 * (already formatted) or NULL, in which case the placeholder is written as {name}.
 * Caller frees. */
char *tpl_render(const tpl *t, const char *(*lookup)(const char *name, void *ctx), void *ctx);

/* Pads a number given as text to a printf-style zero-padded width format ("03"): "7" -> "007".
 * Non-numeric text or a NULL/empty format is returned unchanged. Caller frees. */
char *tpl_apply_format(const char *value, const char *format);

#endif
