/* cost.c - the monthly cost in both billing modes: a->on_demand, a->provisioned,
 * a->cost. Reads the figures heat computed (a->indexes) and the patterns' read units.
 *
 * Month = 730 hours (the AWS calculator's convention). GB = 10^9 bytes (AWS bills storage in
 * decimal gigabytes). Lines, always in this order: reads, writes, index writes, storage,
 * streams, backups, and for a global table (table.replicas) replicated writes, replica storage,
 * transfer; kp_cost.total is their sum (no "total" line, so that summing the lines gives the
 * total).
 * - On-demand: reads = read request units/month at the patterns' average rates
 *   (rcu_per_s_avg); writes = base-table write units/month at average rates (entity writes and
 *   write patterns; LSI writes included, they are table writes); index writes = GSI write
 *   units/month; storage = items x (size + 100 B) plus every index entry (projected + 100 B),
 *   GB-month; streams (streams: true) = one stream read request unit per table write unit,
 *   priced per 100,000; backups (pitr: true) = the table's storage (with its LSIs) x the
 *   continuous-backup price, in every region of a global table. Disabled streams/backups are
 *   lines of 0 with units NAN.
 * - Provisioned: capacity units = peak units / target utilisation (table's target_utilization,
 *   default 0.7), x 730 h x the unit-hour price; reads = the table's (LSI reads included) plus
 *   every GSI's read capacity, writes = the table's, index writes = every GSI's; storage,
 *   streams and backups as on-demand.
 * - Global table, N replica regions (the table's own region is not one of them): every table
 *   write is written again in each replica region, and each replica maintains its own indexes.
 *   replicated writes = N x (the table's write units at the replicated write price + the index
 *   write units at the index write price); provisioned, N x (the table's write capacity at the
 *   replicated WCU-hour price + the GSIs' at the WCU-hour price). replica storage = N x the
 *   storage line. transfer = N x the bytes the table writes, counted as 1 KB per write unit,
 *   at the cross-region transfer price per GB. Reads stay where the patterns' rates put them:
 *   the rates are the application's, whichever region serves them. */
#include "analysis_stages.h"

#include "capacity.h"
#include "i18n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HOURS_PER_MONTH   730.0
#define SECONDS_PER_MONTH (HOURS_PER_MONTH * 3600.0)
#define BYTES_PER_GB      1e9
#define DEFAULT_TARGET    0.7

/* The built-in price tables; index_write and replicated_write NAN = the write price,
 * replicated_wcu_hour NAN = the WCU-hour price. */
static const struct price_table {
    const char *name, *currency;
    double read_per_million, write_per_million, index_write_per_million;
    double rcu_hour, wcu_hour, storage_gb_month, backup_gb_month, stream_read_per_100k;
    double replicated_write_per_million, replicated_wcu_hour, transfer_gb;
} builtin_prices[] = {
    /* after the November 2024 cut (replicated writes priced as writes since then); transfer:
     * data out of us-east-1 to another AWS region */
    {"aws-us-east-1", "USD", 0.125, 0.625, NAN, 0.00013, 0.00065, 0.25, 0.20, 0.02, NAN, NAN, 0.02},
};

typedef struct prices {
    const char *currency;
    double read_pm, write_pm, index_write_pm, rcu_hour, wcu_hour, storage, backup, stream;
    double repl_write_pm, repl_wcu_hour, transfer_gb;
} prices;

static double pick(double over, double base) { return isnan(over) ? base : over; }

static prices resolve_prices(const kp_pricing *p)
{
    const struct price_table *b = &builtin_prices[0];
    for (size_t i = 0; p->base && i < sizeof builtin_prices / sizeof *builtin_prices; i++)
        if (strcmp(builtin_prices[i].name, p->base) == 0)
            b = &builtin_prices[i];
    prices r;
    r.currency = p->currency ? p->currency : b->currency;
    r.read_pm = pick(p->read_per_million, b->read_per_million);
    r.write_pm = pick(p->write_per_million, b->write_per_million);
    r.index_write_pm = pick(p->index_write_per_million, pick(b->index_write_per_million, r.write_pm));
    r.rcu_hour = pick(p->rcu_hour, b->rcu_hour);
    r.wcu_hour = pick(p->wcu_hour, b->wcu_hour);
    r.storage = pick(p->storage_gb_month, b->storage_gb_month);
    r.backup = pick(p->backup_gb_month, b->backup_gb_month);
    r.stream = pick(p->stream_read_per_100k, b->stream_read_per_100k);
    r.repl_write_pm =
        pick(p->replicated_write_per_million, pick(b->replicated_write_per_million, r.write_pm));
    r.repl_wcu_hour = pick(p->replicated_wcu_hour, pick(b->replicated_wcu_hour, r.wcu_hour));
    r.transfer_gb = pick(p->transfer_gb, b->transfer_gb);
    return r;
}

void stage_cost_prices(const kp_design *d, kp_unit_prices *out)
{
    prices pr = resolve_prices(&d->pricing);
    *out =
        (kp_unit_prices){pr.currency, pr.read_pm, pr.write_pm, pr.index_write_pm, pr.rcu_hour, pr.wcu_hour};
}

/* name: an English word, the line's identifier (the signals' cost.<line> metric, JSON); marked
 * for the catalog (N_): what shows it to people translates it (_(name)). */
static void add_line(kp_cost *c, const char *name, double units, double amount)
{
    kp_cost_line *l = &c->lines[c->nlines++];
    l->name = xstrdup(name);
    l->units = units;
    l->amount = isnan(amount) ? 0 : amount;
    c->total += l->amount;
}

void stage_cost(kp_analysis *a)
{
    const kp_design *d = a->design;
    prices pr = resolve_prices(&d->pricing);

    /* figures shared by both modes */
    double read_units_avg = 0; /* read units/s at average rates */
    for (size_t i = 0; i < a->npatterns; i++)
        read_units_avg += util_nz(a->patterns[i].rcu_per_s_avg);
    double table_wcu_avg = 0, index_wcu_avg = 0, table_rcu_peak = 0, index_rcu_peak = 0;
    double table_wcu_peak = 0, index_wcu_peak = 0, bytes = 0, table_bytes = 0;
    for (size_t x = 0; x < a->nindexes; x++) {
        const kp_index_result *ir = &a->indexes[x];
        bool lsi = x > 0 && d->indexes[x - 1].kind == KP_LSI;
        bytes += util_nz(ir->bytes);
        if (x == 0 || lsi) {
            table_bytes += util_nz(ir->bytes);
            table_wcu_avg += util_nz(ir->wcu_per_s_avg);
            table_wcu_peak += util_nz(ir->wcu_per_s);
            table_rcu_peak += util_nz(ir->rcu_per_s);
        } else {
            index_wcu_avg += util_nz(ir->wcu_per_s_avg);
            index_wcu_peak += util_nz(ir->wcu_per_s);
            index_rcu_peak += util_nz(ir->rcu_per_s);
        }
    }
    double gb = bytes / BYTES_PER_GB, table_gb = table_bytes / BYTES_PER_GB;
    double table_writes_month = table_wcu_avg * SECONDS_PER_MONTH;
    bool streams = d->table.streams == KP_TRUE, pitr = d->table.pitr == KP_TRUE;
    double replicas = (double)d->table.nreplicas, regions = 1 + replicas;
    double stream_units = streams ? table_writes_month : NAN;
    double stream_amount = streams ? table_writes_month / 1e5 * pr.stream : 0;
    double backup_units = pitr ? table_gb * regions : NAN;
    double backup_amount = pitr ? table_gb * regions * pr.backup : 0;
    size_t nlines = replicas > 0 ? 9 : 6;
    /* a global table: what every replica region adds (the write units each receives, its
     * storage, the bytes sent to it) */
    double repl_gb = gb * replicas,
           xfer_gb = table_writes_month * CAP_WRITE_UNIT_BYTES / BYTES_PER_GB * replicas;

    kp_cost *od = &a->on_demand;
    memset(od, 0, sizeof *od);
    od->mode = KP_BILLING_ON_DEMAND;
    od->currency = pr.currency;
    od->lines = xcalloc(nlines, sizeof *od->lines);
    double reads_month = read_units_avg * SECONDS_PER_MONTH;
    double index_writes_month = index_wcu_avg * SECONDS_PER_MONTH;
    add_line(od, N_("reads"), reads_month, reads_month / 1e6 * pr.read_pm);
    add_line(od, N_("writes"), table_writes_month, table_writes_month / 1e6 * pr.write_pm);
    add_line(od, N_("index writes"), index_writes_month, index_writes_month / 1e6 * pr.index_write_pm);
    add_line(od, N_("storage"), gb, gb * pr.storage);
    add_line(od, N_("streams"), stream_units, stream_amount);
    add_line(od, N_("backups"), backup_units, backup_amount);
    if (replicas > 0) {
        add_line(od, N_("replicated writes"), (table_writes_month + index_writes_month) * replicas,
                 replicas * (table_writes_month / 1e6 * pr.repl_write_pm +
                             index_writes_month / 1e6 * pr.index_write_pm));
        add_line(od, N_("replica storage"), repl_gb, repl_gb * pr.storage);
        add_line(od, N_("transfer"), xfer_gb, xfer_gb * pr.transfer_gb);
    }

    double target = d->table.target_utilization;
    if (isnan(target) || target <= 0 || target > 1)
        target = DEFAULT_TARGET;
    kp_cost *pv = &a->provisioned;
    memset(pv, 0, sizeof *pv);
    pv->mode = KP_BILLING_PROVISIONED;
    pv->currency = pr.currency;
    pv->lines = xcalloc(nlines, sizeof *pv->lines);
    double rcu = (table_rcu_peak + index_rcu_peak) / target;
    double wcu = table_wcu_peak / target, iwcu = index_wcu_peak / target;
    add_line(pv, N_("reads"), rcu, rcu * HOURS_PER_MONTH * pr.rcu_hour);
    add_line(pv, N_("writes"), wcu, wcu * HOURS_PER_MONTH * pr.wcu_hour);
    add_line(pv, N_("index writes"), iwcu, iwcu * HOURS_PER_MONTH * pr.wcu_hour);
    add_line(pv, N_("storage"), gb, gb * pr.storage);
    add_line(pv, N_("streams"), stream_units, stream_amount);
    add_line(pv, N_("backups"), backup_units, backup_amount);
    if (replicas > 0) {
        add_line(pv, N_("replicated writes"), (wcu + iwcu) * replicas,
                 replicas * HOURS_PER_MONTH * (wcu * pr.repl_wcu_hour + iwcu * pr.wcu_hour));
        add_line(pv, N_("replica storage"), repl_gb, repl_gb * pr.storage);
        add_line(pv, N_("transfer"), xfer_gb, xfer_gb * pr.transfer_gb);
    }

    a->cost = d->table.billing == KP_BILLING_PROVISIONED ? &a->provisioned : &a->on_demand;
}

static void cost_free(kp_cost *c)
{
    for (size_t i = 0; i < c->nlines; i++)
        free(c->lines[i].name);
    free(c->lines);
    c->lines = NULL;
    c->nlines = 0;
}

void stage_cost_free(kp_analysis *a)
{
    cost_free(&a->on_demand);
    cost_free(&a->provisioned);
    a->cost = NULL;
}
