/* cfn.h - CloudFormation export (YAML written with libyaml's emitter): one AWS::DynamoDB::Table
 * with only the key attributes in AttributeDefinitions, the KeySchema, the GSIs and LSIs with
 * their projections (NonKeyAttributes for include), the billing mode (PAY_PER_REQUEST, or
 * PROVISIONED with ProvisionedThroughput from the analysis' peak units / target utilisation),
 * StreamSpecification when streams, PointInTimeRecoverySpecification when pitr.
 *
 * A design with `replicas` is a global table: one AWS::DynamoDB::GlobalTable (version
 * 2019.11.21) with the same attributes, keys and indexes, a NEW_AND_OLD_IMAGES stream (it
 * replicates through it), and Replicas: the stack's own region ({Ref: AWS::Region}) first, then
 * each replica region, each with PointInTimeRecoverySpecification when pitr. Provisioned, the
 * capacity is auto scaling (which a global table requires for writes) from 1 to the units of
 * cfn_capacity at the target utilisation: WriteProvisionedThroughputSettings on the table and
 * each GSI, ReadProvisionedThroughputSettings on each replica and each replica's GSI. */
#ifndef KP_CFN_H
#define KP_CFN_H

#include "analysis.h"
#include "design.h"

#include <stddef.h>

/* The CloudFormation template (YAML text; caller frees) or NULL with *err (caller frees) when
 * the design has no table key or the emitter fails. `a` may be NULL (provisioned units are then
 * 1 each). */
char *cfn_export(const kp_design *d, const kp_analysis *a, char **err);

/* Provisioned units for the base table (index -1) or design index `index`: peak read / write
 * units of the analysis divided by the target utilisation (default 0.7), rounded up, at least 1.
 * `a` may be NULL (1 each). */
void cfn_capacity(const kp_design *d, const kp_analysis *a, ptrdiff_t index, long *rcu, long *wcu);

/* The DynamoDB scalar type ("S" or "N") of key attribute `attr` (item_key_type): "N" only when
 * every entity carrying it holds a number there (a number or shard domain attribute, or a
 * template that is a lone unformatted number placeholder); the type verify creates the table with
 * and the resolver sorts by. */
const char *cfn_key_type(const kp_design *d, const char *attr);

#endif
