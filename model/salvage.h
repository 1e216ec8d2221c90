/* salvage.h - the valid rest of a design that does not validate, so that one broken place does
 * not freeze the whole model: the workbench analyses what is left and marks what was left out.
 * "What if" works: deleting an index leaves its key templates on the entities (an error); the
 * valid rest drops them, and the patterns it served fall to scans. No I/O.
 *
 * What can be left out, in this order, until the rest validates:
 *   - an entity's key template or sparse rule for an attribute that no table or index key names;
 *   - a pattern that does not validate on its own (with the pattern it is covered by);
 *   - a decision's signal that does not validate, or the decision itself.
 * Anything else broken (the table, an index, an entity, an attribute) leaves no valid rest. */
#ifndef KP_SALVAGE_H
#define KP_SALVAGE_H

#include "design.h"
#include "edit.h"

#include <stddef.h>

/* One place left out, as the editor names its cell (model/edit.h). */
typedef struct salvage_drop {
    edit_table table; /* EDIT_KEYS (a template, "sparse"), EDIT_PATTERNS, EDIT_DECISIONS */
    size_t row;       /* the row in the design handed in */
    char *col;        /* the column's name ("signals", "GSI1PK", "sparse"), NULL for the whole row */
    char *msg;        /* why: the validation's first error about it */
} salvage_drop;

typedef struct salvage_drops {
    salvage_drop *v;
    size_t n, cap;
} salvage_drops;

/* The valid rest of `d`: a new design (caller frees with design_free) that validates, and in
 * *drops (zeroed by the caller; released with salvage_drops_free) what was left out. A design
 * that validates comes back whole with no drops. NULL when no valid rest is found (the broken
 * place is one that cannot be left out); *drops may then hold what was tried (no pattern is
 * tried when the model alone, without patterns and decisions, does not validate: a pattern only
 * adds checks). Decisions put back are checked by the checks that read them alone
 * (validate_after_patterns), the rest having validated without them. */
kp_design *validate_salvage(const kp_design *d, salvage_drops *drops);

/* validate_salvage of d known from one validation, when its valid rest is d less its orphan key
 * templates and sparse rules (an index deleted: the templates for its keys), and less the
 * decisions and signals that then fail (a signal on that index): salvage_orphans_find finds it
 * so, or returns NULL (d has no orphan, or is broken elsewhere: ask validate_salvage). No copy of
 * d is made (a view of it is validated). salvage_orphans_make then makes `into`, a design equal to
 * d that the caller owns (its good copy, on which the same edit was made), that rest in place,
 * appends to *drops what validate_salvage would leave out, in its order, and frees o;
 * salvage_orphans_free frees an o not made. */
typedef struct salvage_orphans salvage_orphans;
salvage_orphans *salvage_orphans_find(const kp_design *d);
void salvage_orphans_make(salvage_orphans *o, kp_design *into, salvage_drops *drops);
void salvage_orphans_free(salvage_orphans *o);

/* true when validate_salvage(d) is known to find no valid rest and leave nothing out, without
 * trying, provided the caller saw an error among d's patterns' own diagnostics (validate_memo's
 * segments: a pattern's checks read neither decisions nor what else could be left out): d has
 * more patterns than are tried one by one, and no key template or sparse rule to leave out. A
 * 10,000-pattern design with one broken pattern is answered in proportion to its entities. */
bool salvage_hopeless(const kp_design *d);
/* The same, whatever the number of patterns, provided the caller saw an error among d's checks
 * before the patterns' (validate_memo's first segment: the table, an index, an entity, an
 * attribute): d has no key template or sparse rule to leave out, and nothing else there can be
 * (a new entity without its keys' templates is answered without a copy of the design). */
bool salvage_model_broken(const kp_design *d);

/* validate_salvage of d known without trying every pattern, for a design that validated with
 * pattern `row` inserted, when the caller saw d's errors among that pattern's own diagnostics
 * alone (validate_memo's segments): the valid rest is the design before the insertion (each
 * other pattern, the rest and each decision validated there), and what is left out is the new
 * pattern, with the first error of its trial (it alone, with the pattern it is covered by),
 * appended to *drops. true when so; false, nothing appended, when that is not certain (the
 * patterns are past the trials, a key template would be left out, or the new pattern validates
 * on its own): then ask validate_salvage. */
bool salvage_inserted(const kp_design *d, size_t row, salvage_drops *drops);

/* Releases the drops' strings and array (s may be NULL); s can be reused after. */
void salvage_drops_free(salvage_drops *s);

#endif
