/* analysis_stages.h - the stages analysis_run calls, in order. Internal to model/.
 * Each stage fills its part of the kp_analysis from the design and the earlier stages. */
#ifndef KP_ANALYSIS_STAGES_H
#define KP_ANALYSIS_STAGES_H

#include "analysis.h"
#include "namemap.h"

/* resolve.c: a->patterns (plan, steps, key conditions, items, RCU/WCU, latency, warnings). */
void stage_resolve(kp_analysis *a);
/* resolve.c, the same in steps for analysis_update: the resolver's context for a->design
 * (a->patterns allocated, zeroed; a->resolve_arena and a->capacity_memo made; with keep_reads,
 * what each pattern read kept for stage_resolve_read), one pattern resolved again (its old
 * strings stay in the arena until the analysis is freed), and the context released (the arena and
 * the memo stay with the analysis). */
typedef struct rs_keep rs_keep;
rs_keep *stage_resolve_open(kp_analysis *a, bool keep_reads);
void stage_resolve_pattern(rs_keep *k, kp_analysis *a, size_t i);
void stage_resolve_close(rs_keep *k);
/* After an edit of one element of a->design: the context made again for it, the results and the
 * arena kept; the capacity memo made anew (a->capacity_memo, forget NULL), or only the rows of the
 * entities forget[] marks forgotten (the memo's rows are each entity's alone). */
void stage_resolve_reopen(rs_keep *k, kp_analysis *a, const bool *forget);
/* After an edit of entity epos's figures alone (its count, size, writes, writes_avg, description):
 * the context patched for it, warm caches kept. */
void stage_resolve_refigure(rs_keep *k, size_t epos);
/* The entities pattern i's result read beside those it names (the colliders its queries count,
 * whatever their count), as of its last resolution; *n of them (NULL when none). */
const size_t *stage_resolve_read(const rs_keep *k, size_t i, size_t *n);
/* The pattern list changed by op (analysis_update_rows): what each pattern read follows it (an
 * inserted pattern's is filled when it is resolved). */
void stage_resolve_rows(rs_keep *k, kp_rowop op);
/* After an edit of design index `index`'s projection (its include list, its why; not its type):
 * the context patched for the entities on it (their entries' sizes, the sums counting them, what
 * a whole item read there misses). */
void stage_resolve_reproject(rs_keep *k, ptrdiff_t index);
/* Is entity epos on design index `index` (-1 the table) in the context? */
bool stage_resolve_on(rs_keep *k, size_t epos, ptrdiff_t index);
/* Entity epos's entries in the context, as figures: per index (the table first) whether it is
 * there, its share, its entry's bytes and its items per partition value; 4 * (1 + nindexes)
 * doubles into out. Equal figures before and after an edit: its entries read the same. */
void stage_resolve_entry_figures(const rs_keep *k, size_t epos, double *out);
/* Marks in touch[] (one per entity) entity epos and every entity whose items can share a
 * partition with its items on some index (their partition templates meet): the entities whose
 * queries read its items, and whose items its queries read. */
void stage_resolve_neighbours(rs_keep *k, size_t epos, bool *touch);
/* heat.c: a->partitions, a->indexes, a->table_hot_share. */
void stage_heat(kp_analysis *a);
/* heat.c, the same in steps for analysis_update: what depends on the design only (rows,
 * members, items, bytes; a->capacity_memo is used, and left with the analysis), then a run on
 * a->patterns as often as they change, then the release. */
struct heat;
struct heat *stage_heat_open(kp_analysis *a);
void stage_heat_run(struct heat *h, kp_analysis *a);
/* Pattern i's loads are to be computed again on the next run (its result changed); the others'
 * are replayed as the last run added them. */
void stage_heat_dirty(struct heat *h, size_t i);
/* The pattern list changed by op (analysis_update_rows): the per-pattern records follow their
 * patterns; an inserted pattern is to be computed on the next run. */
void stage_heat_rows(struct heat *h, kp_rowop op);
/* After an element's edit, h made anew (stage_heat_open) takes from the heat it replaces the
 * loads of the patterns not to be computed again (redo[i] false) whose every row is in h (the
 * same template on the same index, the same first entity and value combinations): they are
 * replayed, not computed, by its next run; the others are computed. False (nothing taken) when
 * the two do not count the same patterns. */
bool stage_heat_take(struct heat *h, struct heat *from, const bool *redo);
/* After an edit of the figures alone of the entities ents[] marks (count, size, writes; their
 * memo figures forgotten), or of their sort keys' templates (the memo made anew with the
 * resolver's context: h reads the analysis' one again), or of attribute attr (not NULL: its distinct values, skew, shares;
 * ents[] then marks the entities carrying it): h patched in place (the value classes of the rows
 * those entities come first in or with the attribute's placeholder, their rows' items, their
 * entries' sizes, the indexes' items and bytes, the write units, the entities' writes), the
 * patterns redo[] marks computed again by the next run, the others replayed. False when that is
 * not possible (a row's value combinations would change): make a heat anew. */
bool stage_heat_refigure(struct heat *h, const bool *ents, const char *attr, const bool *redo);
/* After an edit of entity epos's partition-key templates alone (d's entity already the new one,
 * its key attributes and the rest as they were): heat's rows stay where each changed template
 * was the entity's alone and the new one is no other row's; those rows take the new templates
 * (their placeholders and value combinations set up again, their figures to be made by
 * stage_heat_refigure), the rows' map and families to be made again. True when done, or when no
 * row's template changed; false (nothing changed) when a row is shared, before or after: make a
 * heat anew. */
bool stage_heat_rekey(struct heat *h, size_t epos);
/* An entity renamed: the map of their names made again (rows and members know them by position). */
void stage_heat_entities_renamed(struct heat *h);
/* Marks in touch[] the entities sharing a row with one of those ents[] marks where that one comes
 * first and a placeholder's distribution is unknown: the row's value classes read its count, and
 * so the loads of every member's patterns. */
void stage_heat_rowmates(const struct heat *h, const bool *ents, bool *touch);
void stage_heat_close(struct heat *h);
/* cost.c: a->on_demand, a->provisioned, a->cost. */
void stage_cost(kp_analysis *a);
/* cost.c: the design's prices per unit (the built-in table with its `pricing:` overrides), in
 * its currency: on-demand per million request units, provisioned per unit-hour. */
typedef struct kp_unit_prices {
    const char *currency; /* points into the design or a static string */
    double read_per_million, write_per_million, index_write_per_million, rcu_hour, wcu_hour;
} kp_unit_prices;
void stage_cost_prices(const kp_design *d, kp_unit_prices *out);
/* checklist.c: a->checklist, a->checklist_pass, a->checklist_applicable. */
void stage_checklist(kp_analysis *a);
/* checklist.c, the same in steps for analysis_update: the names and per-pattern answers kept,
 * pattern i's answers forgotten (its result changed), a run, the release. */
struct checklist_keep;
struct checklist_keep *stage_checklist_open(const kp_analysis *a);
void stage_checklist_dirty(struct checklist_keep *k, size_t i);
void stage_checklist_rows(struct checklist_keep *k, kp_rowop op); /* as stage_heat_rows */
void stage_checklist_attrs_moved(struct checklist_keep *k, const kp_analysis *a);
/* An entity renamed: the map of their names made again. */
void stage_checklist_entities_renamed(struct checklist_keep *k, const kp_analysis *a);
void stage_checklist_run(struct checklist_keep *k, kp_analysis *a);
/* After an edit of entity epos (its keys as they were): what the keep looked up of it is looked
 * up again (its patterns are marked dirty by the caller). */
void stage_checklist_entity(struct checklist_keep *k, size_t epos);
void stage_checklist_close(struct checklist_keep *k);
/* findings.c: a->findings. */
void stage_findings(kp_analysis *a);
/* findings.c, the same in steps for analysis_update: the design's own findings and room for each
 * pattern's; pattern i marked to be looked at again (its result changed); a run (the patterns
 * marked, then the list in analysis order); the release. */
struct findings_keep;
struct findings_keep *stage_findings_open(const kp_analysis *a);
void stage_findings_dirty(struct findings_keep *k, size_t i);
void stage_findings_rows(struct findings_keep *k, kp_rowop op); /* as stage_heat_rows */
/* The design's attributes moved in their list (one added or removed that nothing reads): the
 * map of their names made again (as stage_checklist_attrs_moved). */
void stage_findings_attrs_moved(struct findings_keep *k, const kp_analysis *a);
/* After an edit of the design's rest alone (analysis_update's ANALYSIS_REST): what the kept
 * findings read of it (the decisions) is read again by the next run. */
void stage_findings_rest(struct findings_keep *k);
/* After an edit of an entity, an attribute or an index (analysis_update_row): the design's own
 * findings made again now, those of the entities ents[] marks (after an edit of attribute attr,
 * not NULL: every entity carrying it, its keys' placeholders included); and by the next run the
 * partitions' whose figures or template changed (heat's rows may have), or whose template holds
 * attr. */
void stage_findings_element(struct findings_keep *k, const kp_analysis *a, const char *attr,
                            const bool *ents);
void stage_findings_run(struct findings_keep *k, kp_analysis *a);
void stage_findings_close(struct findings_keep *k);

/* For the stages after heat (checklist, findings): true when some read pattern reads design
 * index x (0-based) by any non-scan step, its main one or not. *read holds the answer for every
 * index once a call needed it: NULL before the first call; the caller frees it. */
bool analysis_index_read(const kp_analysis *a, ptrdiff_t x, bool **read);

/* The design's attribute names (into attrs) and entity names (into ents; may be NULL) to their
 * positions, the last of a name winning (a design being edited may repeat a name; validation
 * says so). Release each with namemap_free. */
void analysis_name_maps(const kp_design *d, namemap *attrs, namemap *ents);
/* The entities' half of it alone (into an empty or released map). */
void analysis_entity_map(const kp_design *d, namemap *ents);

/* Release helpers for the parts each stage owns (called by analysis_free). */
void stage_resolve_free(kp_analysis *a);
void stage_heat_free(kp_analysis *a);
void stage_cost_free(kp_analysis *a);
void stage_checklist_free(kp_analysis *a);
void stage_findings_free(kp_analysis *a);

#endif
