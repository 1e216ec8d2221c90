/* fuzz_template.c - libFuzzer target: tpl_parse on arbitrary text (the input up to its first NUL).
 * A template that parses must format back to text that parses to the same parts (template.h),
 * copy, render and answer its queries without crashing. */
#include "template.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *fuzz_lookup(const char *name, void *ctx)
{
    (void)ctx;
    return (name[0] && (unsigned char)name[0] % 2) ? "7" : NULL;
}

static void fuzz_same(const tpl *a, const tpl *b, const char *text)
{
    if (a->n != b->n)
        goto bad;
    for (size_t i = 0; i < a->n; i++) {
        if (a->parts[i].kind != b->parts[i].kind || strcmp(a->parts[i].text, b->parts[i].text))
            goto bad;
        const char *fa = a->parts[i].format, *fb = b->parts[i].format;
        if ((fa == NULL) != (fb == NULL) || (fa && strcmp(fa, fb)))
            goto bad;
    }
    return;
bad:
    fprintf(stderr, "TEMPLATE ROUND-TRIP BUG: tpl_parse(tpl_format(t)) != t; formatted: '%s'\n", text);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = malloc(size + 1);
    memcpy(src, data, size);
    src[size] = '\0';
    size_t srclen = strlen(src);

    tpl t;
    char *err = NULL;
    size_t off = 0;
    if (tpl_parse(src, &t, &err, &off) != KP_OK) {
        if (!err || off > srclen) {
            fprintf(stderr, "TEMPLATE BUG: failed parse with err=%p offset %zu of %zu\n", (const void *)err,
                    off, srclen);
            abort();
        }
        free(err);
        free(src);
        return 0;
    }
    char *text = tpl_format(&t);
    tpl again;
    if (tpl_parse(text, &again, &err, &off) != KP_OK) {
        fprintf(stderr, "TEMPLATE ROUND-TRIP BUG: '%s' does not parse: %s at %zu\n", text, err, off);
        abort();
    }
    fuzz_same(&t, &again, text);
    tpl_free(&again);
    free(text);

    tpl c;
    tpl_copy(&c, &t);
    fuzz_same(&t, &c, "(tpl_copy)");
    tpl_free(&c);
    (void)tpl_is_constant(&t);
    (void)tpl_attr_count(&t);
    if (t.n && t.parts[0].kind == TPL_ATTR)
        (void)tpl_has_attr(&t, t.parts[0].text);
    free(tpl_render(&t, fuzz_lookup, NULL));
    for (size_t i = 0; i < t.n; i++)
        if (t.parts[i].format)
            free(tpl_apply_format("12345", t.parts[i].format));
    /* the input as a value, with the widths tpl_parse admits (1-3 digits) */
    free(tpl_apply_format(src, "03"));
    free(tpl_apply_format(src, "999"));
    tpl_free(&t);
    free(src);
    return 0;
}
