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

/* The key templates and sparse rules of entity en that a key of d names, shallow copies in *keys
 * and *sparse (caller frees the arrays alone); false, nothing made, when en has no orphan. */
static bool named_keys(const kp_design *d, const kp_entity *en, kp_keytpl **keys, size_t *nkeys,
                       kp_sparse **sparse, size_t *nsparse)
{
    size_t nk = 0, ns = 0;
    for (size_t k = 0; k < en->nkeys; k++)
        nk += key_named(d, en->keys[k].attr.s ? en->keys[k].attr.s : "");
    for (size_t k = 0; k < en->nsparse; k++)
        ns += key_named(d, en->sparse[k].attr.s ? en->sparse[k].attr.s : "");
    if (nk == en->nkeys && ns == en->nsparse)
        return false;
    *keys = nk ? xcalloc(nk, sizeof **keys) : NULL;
    *sparse = ns ? xcalloc(ns, sizeof **sparse) : NULL;
    *nkeys = *nsparse = 0;
    for (size_t k = 0; k < en->nkeys; k++)
        if (key_named(d, en->keys[k].attr.s ? en->keys[k].attr.s : ""))
            (*keys)[(*nkeys)++] = en->keys[k];
    for (size_t k = 0; k < en->nsparse; k++)
        if (key_named(d, en->sparse[k].attr.s ? en->sparse[k].attr.s : ""))
            (*sparse)[(*nsparse)++] = en->sparse[k];
    return true;
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

/* Which of the decisions dec[0..n) validate with c, each with its signals, by the checks that
 * read decisions alone (t, a context of c, on which each is put alone): one flag per decision,
 * then one per signal of each, in order (caller frees); a drop appended for each left out.
 * Nothing of dec is changed. */
static bool *judge_decisions(kp_design *c, const kp_decision *dec, size_t n, salvage_drops *s,
                             validate_after *t)
{
    size_t total = n;
    for (size_t i = 0; i < n; i++)
        total += dec[i].nsignals;
    bool *keep = xcalloc(total ? total : 1, sizeof *keep), *k = keep;
    for (size_t i = 0; i < n; i++) {
        bool *in = k, *sig = k + 1;
        k = sig + dec[i].nsignals;
        kp_decision one = dec[i];
        one.signals = NULL;
        one.nsignals = 0;
        c->decisions = &one;
        c->ndecisions = 1;
        char *msg = NULL;
        *in = validate_after_check(t, &msg);
        if (!*in) {
            drop(s, EDIT_DECISIONS, i, NULL, msg ? msg : _("does not validate"));
            free(msg);
            continue;
        }
        for (size_t j = 0; j < dec[i].nsignals; j++) {
            one.signals = &dec[i].signals[j];
            one.nsignals = 1;
            char *why = NULL;
            sig[j] = validate_after_check(t, &why);
            if (!sig[j])
                drop(s, EDIT_DECISIONS, i, "signals", why ? why : _("does not validate"));
            free(why);
        }
    }
    c->decisions = NULL;
    c->ndecisions = 0;
    return keep;
}

/* The decisions dec[0..n) that `keep` (judge_decisions') keeps, each with the signals it keeps, in
 * a new array (*nk of them; NULL when none). own: dec is the caller's to give (what is left out
 * freed, the signals kept in place, dec freed); else the result is a view of dec (shallow copies,
 * a new array of signals for each losing some: free it with view_free). */
static kp_decision *apply_decisions(kp_decision *dec, size_t n, const bool *keep, bool own, size_t *nk)
{
    kp_decision *kept = n ? xcalloc(n, sizeof *kept) : NULL;
    const bool *k = keep;
    *nk = 0;
    for (size_t i = 0; i < n; i++) {
        const bool *sig = k + 1;
        bool in = *k;
        k = sig + dec[i].nsignals;
        if (!in) {
            if (own)
                fields_free(&kp_rec_decision, &dec[i]);
            continue;
        }
        kp_decision x = dec[i];
        size_t ks = 0;
        for (size_t j = 0; j < dec[i].nsignals; j++)
            ks += sig[j];
        if (ks < dec[i].nsignals) { /* some left out: the others moved up (a view's in an array of its own) */
            if (!own)
                x.signals = ks ? xcalloc(ks, sizeof *x.signals) : NULL;
            ks = 0;
            for (size_t j = 0; j < dec[i].nsignals; j++) {
                if (sig[j])
                    x.signals[ks++] = dec[i].signals[j];
                else if (own)
                    fields_free(&kp_rec_signal, &dec[i].signals[j]);
            }
            x.nsignals = ks;
        }
        kept[(*nk)++] = x;
    }
    if (own)
        free(dec);
    return kept;
}

/* Frees view[0..nview), made by apply_decisions (own false) of dec[0..n) with `keep`. */
static void view_free(kp_decision *view, size_t nview, const kp_decision *dec, size_t n, const bool *keep)
{
    const bool *k = keep;
    for (size_t i = 0, v = 0; i < n && v < nview; i++) {
        const bool *sig = k + 1;
        bool in = *k;
        k = sig + dec[i].nsignals;
        if (in && view[v++].nsignals < dec[i].nsignals)
            free(view[v - 1].signals);
    }
    free(view);
}

struct salvage_orphans {
    bool *keep;          /* judge_decisions' verdicts on d's decisions */
    salvage_drops later; /* the decisions' and signals' drops, after the templates' */
};

salvage_orphans *salvage_orphans_find(const kp_design *d)
{
    /* d less its orphans, as a view: the entities copied shallow, those with orphans given
       arrays of their other templates and rules (own[e]), decisions aside; nothing of d is copied
       deep, and the decisions are judged on the view as validate_salvage judges them on its copy */
    kp_design v = *d;
    v.decisions = NULL;
    v.ndecisions = 0;
    size_t n = d->nentities;
    kp_entity *ents = xcalloc(n ? n : 1, sizeof *ents);
    bool *own = xcalloc(n ? n : 1, sizeof *own), any = false;
    for (size_t e = 0; e < n; e++) {
        ents[e] = d->entities[e];
        own[e] =
            named_keys(d, &d->entities[e], &ents[e].keys, &ents[e].nkeys, &ents[e].sparse, &ents[e].nsparse);
        any = any || own[e];
    }
    v.entities = ents;
    salvage_orphans *o = NULL;
    if (any && valid(&v, NULL)) {
        o = xcalloc(1, sizeof *o);
        validate_after *t = validate_after_open(&v);
        o->keep = judge_decisions(&v, d->decisions, d->ndecisions, &o->later, t);
        v.decisions = apply_decisions(d->decisions, d->ndecisions, o->keep, false, &v.ndecisions);
        bool ok = validate_after_check(t, NULL);
        validate_after_close(t);
        view_free(v.decisions, v.ndecisions, d->decisions, d->ndecisions, o->keep);
        if (!ok) {
            salvage_orphans_free(o);
            o = NULL;
        }
    }
    for (size_t e = 0; e < n; e++)
        if (own[e]) {
            free(ents[e].keys);
            free(ents[e].sparse);
        }
    free(own);
    free(ents);
    return o;
}

void salvage_orphans_make(salvage_orphans *o, kp_design *into, salvage_drops *drops)
{
    drop_orphan_keys(into, drops);
    for (size_t i = 0; i < o->later.n; i++) {
        VEC_GROW(drops->v, drops->n, drops->cap);
        drops->v[drops->n++] = o->later.v[i];
    }
    free(o->later.v);
    o->later = (salvage_drops){0};
    into->decisions = apply_decisions(into->decisions, into->ndecisions, o->keep, true, &into->ndecisions);
    salvage_orphans_free(o);
}

void salvage_orphans_free(salvage_orphans *o)
{
    if (!o)
        return;
    free(o->keep);
    salvage_drops_free(&o->later);
    free(o);
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
    bool *keep = judge_decisions(c, dec, ndec, drops, t);
    c->decisions = apply_decisions(dec, ndec, keep, true, &c->ndecisions);
    free(keep);
    bool ok = validate_after_check(t, NULL);
    validate_after_close(t);
    if (ok)
        return c;
    design_free(c);
    return NULL;
}
