/* salvage.c - the valid rest of a design that does not validate (salvage.h). Each part that can
 * be left out is tried on its own against the rest: a trial swaps a shallow copy of one pattern
 * or one decision into the design, validates, and swaps the originals back. */
#include "salvage.h"

#include "i18n.h"
#include "fields.h"
#include "validate.h"

#include <stdlib.h>
#include <string.h>

/* More patterns than this are not tried one by one: no valid rest (the trials would take long). */
#define SALVAGE_MAX_TRIALS 2000

void salvage_drops_free(salvage_drops *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].col);
        free(s->v[i].msg);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

static void drop(salvage_drops *s, edit_table t, size_t row, const char *col, const char *msg)
{
    VEC_GROW(s->v, s->n, s->cap);
    s->v[s->n++] = (salvage_drop){t, row, col ? xstrdup(col) : NULL, xstrdup(msg)};
}

/* Validates d whole; on failure *msg (when msg is not NULL; caller frees) is the first error. */
static bool valid(const kp_design *d, char **msg)
{
    kp_diags dg;
    diags_init(&dg, NULL);
    bool ok = validate_design(d, &dg);
    if (!ok && msg)
        for (size_t i = 0; i < dg.n && !*msg; i++)
            if (dg.v[i].sev == KP_SEV_ERROR)
                *msg = xstrdup(dg.v[i].msg);
    diags_free(&dg);
    return ok;
}

/* a and b are the same name (NULL is no name) */
static bool same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static bool key_named(const kp_design *d, const char *attr)
{
    if (same(d->table.pk.s, attr) || same(d->table.sk.s, attr))
        return true;
    for (size_t i = 0; i < d->nindexes; i++)
        if (same(d->indexes[i].pk.s, attr) || same(d->indexes[i].sk.s, attr))
            return true;
    return false;
}

/* Templates and sparse rules for attributes that no key names (an index deleted). */
static void drop_orphan_keys(kp_design *c, salvage_drops *s)
{
    for (size_t e = 0; e < c->nentities; e++) {
        kp_entity *en = &c->entities[e];
        for (size_t k = en->nkeys; k-- > 0;) {
            const char *attr = en->keys[k].attr.s ? en->keys[k].attr.s : "";
            if (key_named(c, attr))
                continue;
            char *m = xasprintf(_("entity '%s': the template for '%s' fills no key of the table or an index: "
                                  "left out of the model"),
                                en->name ? en->name : "", attr);
            drop(s, EDIT_KEYS, e, attr, m);
            free(m);
            fields_free(&kp_rec_keytpl, &en->keys[k]);
            VEC_DEL(en->keys, en->nkeys, k);
        }
        for (size_t k = en->nsparse; k-- > 0;) {
            const char *attr = en->sparse[k].attr.s ? en->sparse[k].attr.s : "";
            if (key_named(c, attr))
                continue;
            char *m = xasprintf(_("entity '%s': the sparse rule for '%s' names no key of the table or an "
                                  "index: left out of the model"),
                                en->name ? en->name : "", attr);
            drop(s, EDIT_KEYS, e, "sparse", m);
            free(m);
            fields_free(&kp_rec_sparse, &en->sparse[k]);
            VEC_DEL(en->sparse, en->nsparse, k);
        }
    }
}

/* Leaves out the patterns that do not validate on their own (decisions set aside), c's model
 * validating without them (each trial is checked by its patterns' checks alone). rows[i] is the
 * original row of c->patterns[i]; kept in step. */
static void drop_patterns(kp_design *c, size_t *rows, salvage_drops *s)
{
    kp_pattern *all = c->patterns;
    size_t n = c->npatterns;
    bool *bad = xcalloc(n ? n : 1, sizeof *bad);
    validate_trials *t = validate_trials_open(c);
    for (size_t i = 0; i < n; i++) {
        kp_pattern trial[2];
        size_t nt = 0;
        trial[nt++] = all[i];
        for (size_t j = 0; j < n && all[i].covered_by.s; j++)
            if (j != i && same(all[j].id, all[i].covered_by.s)) {
                trial[nt++] = all[j];
                break;
            }
        char *msg = NULL;
        if (!validate_trial(t, trial, nt, &msg)) {
            bad[i] = true;
            drop(s, EDIT_PATTERNS, rows[i], NULL, msg ? msg : _("does not validate"));
        }
        free(msg);
    }
    validate_trials_close(t);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (bad[i]) {
            fields_free(&kp_rec_pattern, &all[i]);
            continue;
        }
        all[k] = all[i];
        rows[k++] = rows[i];
    }
    c->npatterns = k;
    free(bad);
}

/* Puts back the decisions (kept aside in dec/n) that validate with the rest, each with the
 * signals that do; the others are left out. Each is checked by the checks that read them alone,
 * on one context of c (t). */
static void restore_decisions(kp_design *c, kp_decision *dec, size_t n, salvage_drops *s, validate_after *t)
{
    kp_decision *kept = n ? xcalloc(n, sizeof *kept) : NULL;
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        kp_decision one = dec[i];
        one.signals = NULL;
        one.nsignals = 0;
        c->decisions = &one;
        c->ndecisions = 1;
        char *msg = NULL;
        bool ok = validate_after_check(t, &msg);
        if (!ok) {
            drop(s, EDIT_DECISIONS, i, NULL, msg ? msg : _("does not validate"));
            free(msg);
            fields_free(&kp_rec_decision, &dec[i]);
            continue;
        }
        size_t ks = 0;
        for (size_t k = 0; k < dec[i].nsignals; k++) {
            one.signals = &dec[i].signals[k];
            one.nsignals = 1;
            char *why = NULL;
            if (validate_after_check(t, &why)) {
                dec[i].signals[ks++] = dec[i].signals[k];
            } else {
                drop(s, EDIT_DECISIONS, i, "signals", why ? why : _("does not validate"));
                fields_free(&kp_rec_signal, &dec[i].signals[k]);
            }
            free(why);
        }
        dec[i].nsignals = ks;
        kept[nk++] = dec[i];
    }
    free(dec);
    c->decisions = kept;
    c->ndecisions = nk;
}

/* No key template or sparse rule that drop_orphan_keys would leave out. */
static bool orphan_free(const kp_design *d)
{
    for (size_t e = 0; e < d->nentities; e++) {
        const kp_entity *en = &d->entities[e];
        for (size_t k = 0; k < en->nkeys; k++)
            if (!key_named(d, en->keys[k].attr.s ? en->keys[k].attr.s : ""))
                return false;
        for (size_t k = 0; k < en->nsparse; k++)
            if (!key_named(d, en->sparse[k].attr.s ? en->sparse[k].attr.s : ""))
                return false;
    }
    return true;
}

bool salvage_hopeless(const kp_design *d) { return d->npatterns > SALVAGE_MAX_TRIALS && orphan_free(d); }

bool salvage_model_broken(const kp_design *d) { return orphan_free(d); }

bool salvage_inserted(const kp_design *d, size_t row, salvage_drops *drops)
{
    if (row >= d->npatterns || d->npatterns > SALVAGE_MAX_TRIALS || !orphan_free(d))
        return false;
    /* the new pattern's trial, as drop_patterns makes it: it alone (with the pattern it is
       covered by), decisions aside */
    kp_design c = *d;
    const kp_pattern *p = &d->patterns[row];
    kp_pattern trial[2];
    size_t nt = 0;
    trial[nt++] = *p;
    for (size_t j = 0; j < d->npatterns && p->covered_by.s; j++)
        if (j != row && same(d->patterns[j].id, p->covered_by.s)) {
            trial[nt++] = d->patterns[j];
            break;
        }
    c.patterns = trial;
    c.npatterns = nt;
    c.decisions = NULL;
    c.ndecisions = 0;
    char *msg = NULL;
    bool alone = valid(&c, &msg);
    if (!alone)
        drop(drops, EDIT_PATTERNS, row, NULL, msg ? msg : _("does not validate"));
    free(msg);
    return !alone;
}

/* Does d validate without its patterns (and decisions)? A pattern adds checks and never takes one
 * away (none asks for a pattern to be there), so when the model alone does not validate, no
 * pattern left out makes a valid rest, and trying each is vain (an index's name DynamoDB refuses,
 * a table's limit). */
static bool model_valid(const kp_design *d)
{
    kp_design m = *d;
    m.patterns = NULL;
    m.npatterns = 0;
    m.decisions = NULL;
    m.ndecisions = 0;
    return valid(&m, NULL);
}

kp_design *validate_salvage(const kp_design *d, salvage_drops *drops)
{
    /* no whole validation of d, nor of d without its orphan keys: the rest is validated without
       its decisions, then each decision is put back by the checks that read it, which give each
       of a list that validated together the same verdict alone (they read the rest, and no
       decision reads another but for a repeated id, which one alone cannot be); so a design that
       validates comes back whole, with one whole validation */
    kp_design *c = design_clone(d);
    drop_orphan_keys(c, drops);
    /* decisions aside: they refer to the rest, the rest never to them */
    kp_decision *dec = c->decisions;
    size_t ndec = c->ndecisions;
    c->decisions = NULL;
    c->ndecisions = 0;
    bool rest_ok = valid(c, NULL);
    if (!rest_ok && c->npatterns <= SALVAGE_MAX_TRIALS && model_valid(c)) {
        size_t *rows = xcalloc(c->npatterns ? c->npatterns : 1, sizeof *rows);
        for (size_t i = 0; i < c->npatterns; i++)
            rows[i] = i;
        drop_patterns(c, rows, drops);
        free(rows);
        rest_ok = valid(c, NULL);
    }
    if (!rest_ok) {
        c->decisions = dec;
        c->ndecisions = ndec;
        design_free(c);
        return NULL;
    }
    /* the rest validated without decisions: those put back are checked by what reads them */
    validate_after *t = validate_after_open(c);
    restore_decisions(c, dec, ndec, drops, t);
    bool ok = validate_after_check(t, NULL);
    validate_after_close(t);
    if (ok)
        return c;
    design_free(c);
    return NULL;
}
