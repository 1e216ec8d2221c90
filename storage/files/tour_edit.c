/* tour_edit.c - the edits a tour step makes to the design it starts from (tour.h): a cell set
 * the way the workbench sets it (model/edit.h), a row deleted, a decision or an index copied
 * from another design. An index goes and comes with the key templates and sparse rules its
 * entities give it, so that the design stays whole. */
#include "tour_int.h"

#include "i18n.h"

#include "edit.h"
#include "fields.h"

#include <stdlib.h>
#include <string.h>

/* The row of table t whose first column (its id or name) is `name`, or -1. */
static ptrdiff_t row_of(const kp_design *d, edit_table t, const char *name)
{
    if (t == EDIT_SETTINGS)
        return edit_setting_find(name);
    for (size_t r = 0; r < edit_nrows(d, t); r++) {
        char *id = edit_get(d, t, r, 0);
        bool same = strcmp(id, name) == 0;
        free(id);
        if (same)
            return (ptrdiff_t)r;
    }
    return -1;
}

/* Removes the key template of `attr` from e. */
static void remove_key(kp_entity *e, const char *attr)
{
    for (size_t i = 0; i < e->nkeys; i++)
        if (e->keys[i].attr.s && strcmp(e->keys[i].attr.s, attr) == 0) {
            fields_free(&kp_rec_keytpl, &e->keys[i]);
            VEC_DEL(e->keys, e->nkeys, i);
            return;
        }
}

/* Removes the sparse rule of `attr` from e. */
static void remove_sparse(kp_entity *e, const char *attr)
{
    for (size_t i = 0; i < e->nsparse; i++)
        if (e->sparse[i].attr.s && strcmp(e->sparse[i].attr.s, attr) == 0) {
            fields_free(&kp_rec_sparse, &e->sparse[i]);
            VEC_DEL(e->sparse, e->nsparse, i);
            return;
        }
}

/* Deletes index `row` with the key templates and sparse rules the entities give its keys. */
static void delete_index(kp_design *d, size_t row)
{
    kp_index *x = &d->indexes[row];
    for (size_t e = 0; e < d->nentities; e++) {
        if (x->pk.s)
            remove_key(&d->entities[e], x->pk.s), remove_sparse(&d->entities[e], x->pk.s);
        if (x->sk.s)
            remove_key(&d->entities[e], x->sk.s), remove_sparse(&d->entities[e], x->sk.s);
    }
    edit_delete(d, EDIT_INDEXES, row);
}

/* Moves src[k] (of sn) to the end of dst (of dn). */
#define MOVE_TO_END(dst, dn, src, sn, k)                     \
    do {                                                     \
        (dst) = xrealloc((dst), ((dn) + 1) * sizeof *(dst)); \
        (dst)[(dn)++] = (src)[k];                            \
        VEC_DEL(src, sn, k);                                 \
    } while (0)

static bool is_key_of(const char *attr, const kp_index *x)
{
    return attr && ((x->pk.s && strcmp(attr, x->pk.s) == 0) || (x->sk.s && strcmp(attr, x->sk.s) == 0));
}

/* Moves index `row` of src into d (appended) with its entities' key templates and sparse
 * rules; src is left consistent (to be freed). false with *err (static) when an entity of src
 * that gives the index a key is not in d. */
static bool move_index(kp_design *d, kp_design *src, size_t row, const char **err)
{
    const kp_index *x = &src->indexes[row];
    for (size_t e = 0; e < src->nentities; e++) {
        const kp_entity *se = &src->entities[e];
        bool gives = false;
        for (size_t k = 0; k < se->nkeys; k++)
            gives |= is_key_of(se->keys[k].attr.s, x);
        if (gives && design_entity_pos(d, se->name) < 0) {
            *err = _("an entity that gives the index a key is not in the design");
            return false;
        }
    }
    for (size_t e = 0; e < src->nentities; e++) {
        kp_entity *se = &src->entities[e];
        ptrdiff_t at_ = design_entity_pos(d, se->name);
        if (at_ < 0)
            continue;
        kp_entity *te = &d->entities[at_];
        for (size_t k = 0; k < se->nkeys;)
            if (is_key_of(se->keys[k].attr.s, x))
                MOVE_TO_END(te->keys, te->nkeys, se->keys, se->nkeys, k);
            else
                k++;
        for (size_t k = 0; k < se->nsparse;)
            if (is_key_of(se->sparse[k].attr.s, x))
                MOVE_TO_END(te->sparse, te->nsparse, se->sparse, se->nsparse, k);
            else
                k++;
    }
    MOVE_TO_END(d->indexes, d->nindexes, src->indexes, src->nindexes, row);
    return true;
}

static void move_decision(kp_design *d, kp_design *src, size_t row)
{
    MOVE_TO_END(d->decisions, d->ndecisions, src->decisions, src->ndecisions, row);
}

/* Splits "TABLE ROW COLUMN" at spaces, in place, into at most 4 words (pointers into buf);
 * returns how many (5 when there are more). */
static size_t words_of(char *buf, char **w)
{
    size_t n = 0;
    for (char *p = buf; *p;) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        if (n == 4)
            return 5;
        w[n++] = p;
        while (*p && *p != ' ')
            p++;
    }
    return n;
}

const char *const tour_edit_words[TOUR_EDIT__COUNT] = {"set", "delete", "copy"};

/* Records why the edit fails: msg (taken) about the target or, with `value`, about set's text. */
static void fail(kp_status *code, kp_status c, bool *at_value, bool value, char **err, char *msg)
{
    *code = c;
    *at_value = value;
    *err = msg;
}

bool tour_edit_apply(kp_design *d, tour_edit_op op, const char *target, const char *to, kp_design *src,
                     const char *src_name, kp_status *code, bool *at_value, char **err)
{
    const char *opw = tour_edit_words[op];
    char *buf = xstrdup(target), *w[4];
    size_t nw = words_of(buf, w);
    int t = -1;
    const char *tables[EDIT__TABLES + 1];
    for (int i = 0; i < EDIT__TABLES; i++) {
        tables[i] = edit_table_name((edit_table)i);
        if (nw && strcmp(w[0], tables[i]) == 0)
            t = i;
    }
    tables[EDIT__TABLES] = NULL;
    bool ok = false;
    *at_value = false;
    size_t want = op == TOUR_EDIT_SET && t != EDIT_SETTINGS ? 3 : 2;
    if (t < 0 || nw < want || nw > (op == TOUR_EDIT_SET ? 3 : 2)) {
        char *all = tour_words_list(tables);
        fail(
            code, KP_INVALID, at_value, false, err,
            op == TOUR_EDIT_SET
                /* TRANSLATORS: a tour file's edit: %1$s is set, delete or copy, %2$s its target; TABLE ROW COLUMN stay */
                ? xasprintf(_("%1$s '%2$s'; expected TABLE ROW COLUMN with TABLE one of %3$s"), opw, target,
                            all)
                : xasprintf(_("%1$s '%2$s'; expected TABLE ROW with TABLE one of %3$s"), opw, target, all));
        free(all);
        goto out;
    }
    edit_table tt = (edit_table)t;
    ptrdiff_t row = row_of(d, tt, w[1]);
    if (op == TOUR_EDIT_COPY) {
        ptrdiff_t srow = row_of(src, tt, w[1]);
        const char *why = NULL;
        if (tt != EDIT_DECISIONS && tt != EDIT_INDEXES)
            fail(code, KP_INVALID, at_value, false, err,
                 xasprintf(_("copy '%s'; expected decisions or indexes"), target));
        else if (row >= 0)
            fail(code, KP_DUPLICATE, at_value, false, err,
                 xasprintf(_("copy '%s': the design already has it; expected a row it lacks"), target));
        else if (srow < 0)
            fail(code, KP_UNKNOWN_REF, at_value, false, err,
                 /* TRANSLATORS: %2$s a design file, %3$s a table (decisions, indexes) */
                 xasprintf(_("copy '%1$s': %2$s has no such row; expected one of its %3$s"), target, src_name,
                           tables[t]));
        else if (tt == EDIT_DECISIONS)
            move_decision(d, src, (size_t)srow), ok = true;
        else if (!(ok = move_index(d, src, (size_t)srow, &why)))
            fail(code, KP_UNKNOWN_REF, at_value, false, err, xasprintf("copy '%s': %s", target, why));
        goto out;
    }
    if (row < 0) {
        fail(code, KP_UNKNOWN_REF, at_value, false, err,
             /* TRANSLATORS: %1$s set, delete or copy; %3$s a table (patterns, entities...) */
             xasprintf(_("%1$s '%2$s': the design has no %3$s row '%4$s'; expected an existing id or name"),
                       opw, target, tables[t], w[1]));
        goto out;
    }
    if (op == TOUR_EDIT_DELETE) {
        if (tt == EDIT_SETTINGS || tt == EDIT_KEYS)
            fail(code, KP_INVALID, at_value, false, err,
                 xasprintf(
                     _("delete '%1$s': %2$s rows cannot be deleted; expected patterns, entities, indexes, "
                       "attributes or decisions"),
                     target, tables[t]));
        else if (tt == EDIT_INDEXES)
            delete_index(d, (size_t)row), ok = true;
        else
            ok = edit_delete(d, tt, (size_t)row);
        goto out;
    }
    int col = edit_col_find(d, tt, nw == 3 ? w[2] : "value");
    if (col < 0) {
        size_t ncols = edit_ncols(d, tt);
        const char **cols = xcalloc(ncols + 1, sizeof *cols);
        for (size_t k = 0; k < ncols; k++)
            cols[k] = edit_col_name(d, tt, k);
        char *all = tour_words_list(cols);
        fail(code, KP_UNKNOWN_KEY, at_value, false, err,
             xasprintf(_("set '%1$s': %2$s has no column '%3$s'; expected %4$s"), target, tables[t],
                       nw == 3 ? w[2] : "value", all));
        free(all);
        free(cols);
        goto out;
    }
    char *why = NULL;
    if (!(ok = edit_set(d, tt, (size_t)row, (size_t)col, to, &why) == KP_OK))
        fail(code, KP_INVALID, at_value, true, err, xasprintf("set '%s': %s", target, why));
    free(why);
out:
    free(buf);
    return ok;
}
