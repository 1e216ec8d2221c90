#!/usr/bin/env python3
"""rules.py KEYPLAN ENDPOINT DIR [NAME...] - DynamoDB's rules, proven on DynamoDB Local.

Every DIR/NAME.yaml with a DIR/NAME.expect beside it is one case: a small design that exercises one
rule, and what keyplan must say about it and what DynamoDB must answer. The .expect file holds one
assertion a line ('#' starts a comment line, ' #' a trailing comment unless it is inside a
double-quoted string):

  json PATH OP VALUE      on `keyplan check DESIGN --json`
  check exit N            `keyplan check DESIGN` exits N (default: 0 is required)
  check out|err ~ TEXT    its text report (or stderr) contains TEXT
  requests ~ TEXT         `keyplan export DESIGN --format requests` contains TEXT
  requests !~ TEXT        ... does not contain TEXT
  cfn ~ TEXT              `keyplan export DESIGN --format cfn` contains TEXT
  verify exit N           `keyplan verify DESIGN --endpoint ENDPOINT` exits N (run when named)
  verify out ~ TEXT       its report contains TEXT (a regular expression when TEXT is /.../)
  exports run             what keyplan exports is what DynamoDB takes: the table of `export --format
                          cfn` created on ENDPOINT, the batches of `--format items` written, every
                          request of `--format requests` sent; each must be accepted (the table is
                          deleted afterwards)
  diff FROM.yaml ~ TEXT   `keyplan diff` from FROM.yaml (beside the case) to the case's design
                          contains TEXT (!~: does not)
  dynamodb REQUEST accepted|refused [~ TEXT]
                          DynamoDB's own verdict on a request built here, when keyplan refuses the
                          design before any request is made (a limit): REQUEST is
                            create [gsis=N] [lsis=N] [include=N,M..] [table=NAME] [index=NAME]
                                   [pkname=NAME] [read=N] [write=N]
                                                           CreateTable: N GSIs / LSIs, INCLUDE
                                                           attributes per GSI, the names (the
                                                           partition key's too; C*N: the
                                                           character C N times), the provisioned
                                                           units
                            put [pk=BYTES] [sk=BYTES] [item=BYTES] [pk_type=N]
                                                           PutItem on a table keyed PK, SK (strings)
                            update add-gsi|add-lsi|keys [items=N keyed=K]
                                                           UpdateTable on such a table holding N
                                                           items (K of them carry the new GSI's key):
                                                           create a GSI (the answer then says "index
                                                           ItemCount X" once it is ACTIVE), an LSI,
                                                           or change the key schema
                          and TEXT is looked for in DynamoDB's error message

PATH walks the JSON: `patterns[id=3].plan`, `patterns[id=3].steps[0].op`, `findings[code=lsi].where`,
`count(findings[code=lsi])`, `len(patterns[id=3].steps)`. OP is one of == != < <= > >= ~ (contains) !~.
VALUE is JSON (3, true, null, "text") or a bare word taken as a string.

Verify runs the real requests on DynamoDB Local and compares what comes back with the model; check
states the plan and the figures: together they prove a rule on the engine itself. Exit 1 when any
assertion fails, 2 on a usage error."""
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ddblocal import call, message  # noqa: E402

OPS = ("==", "!=", "<=", ">=", "<", ">", "!~", "~")


def run(args, timeout=300):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def walk(doc, path):
    """Value at PATH (see the module text); raises KeyError when it names nothing."""
    m = re.fullmatch(r"(count|len)\((.*)\)", path)
    if m:
        v = walk(doc, m.group(2))
        return len(v) if isinstance(v, (list, dict, str)) else (1 if v is not None else 0)
    cur = doc
    for part in re.findall(r"[^.\[\]]+|\[[^\]]*\]", path):
        if part.startswith("["):
            sel = part[1:-1]
            if "=" in sel:
                k, v = sel.split("=", 1)
                if not isinstance(cur, list):
                    raise KeyError(path)
                cur = [x for x in cur if isinstance(x, dict) and str(x.get(k)) == v]
                if len(cur) == 1 and not path.startswith(("count(", "len(")):
                    cur = cur[0]
            else:
                cur = cur[int(sel)]
        else:
            if isinstance(cur, list) and len(cur) == 1:
                cur = cur[0]
            if not isinstance(cur, dict) or part not in cur:
                raise KeyError(path)
            cur = cur[part]
    return cur


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def compare(got, op, want):
    if op in ("~", "!~"):
        hit = str(want) in (json.dumps(got) if not isinstance(got, str) else got)
        return hit if op == "~" else not hit
    if op == "==":
        return got == want
    if op == "!=":
        return got != want
    try:
        return {"<": got < want, "<=": got <= want, ">": got > want, ">=": got >= want}[op]
    except TypeError:
        return False


def contains(text, want):
    if len(want) > 1 and want.startswith("/") and want.endswith("/"):
        return re.search(want[1:-1], text, re.M) is not None
    return want in text


# ---- requests sent as they are (the `dynamodb` assertion) -------------------------------------

PROBES = itertools.count(1)


def ddb_call(endpoint, op, body):
    """DynamoDB's answer to one signed request: (ok, parsed answer or {'Message': text})."""
    st, answer = call(endpoint, op, body)
    return st == 200 and "__type" not in answer, answer


def create_body(opts):
    """The CreateTable of `dynamodb create` (see the module text)."""
    table = opts.get("table", "rules-probe-%d-%d" % (os.getpid(), next(PROBES)))
    includes = [int(n) for n in opts["include"].split(",")] if "include" in opts else []
    gsis = max(int(opts.get("gsis", 0)), len(includes), 1 if "index" in opts else 0)
    pkname = opts.get("pkname", "PK")
    defs = [{"AttributeName": pkname, "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}]
    body = {"TableName": table, "AttributeDefinitions": defs,
            "KeySchema": [{"AttributeName": pkname, "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}]}
    prov = "read" in opts or "write" in opts
    units = {"ReadCapacityUnits": int(opts.get("read", 1)), "WriteCapacityUnits": int(opts.get("write", 1))}
    if prov:
        body["BillingMode"] = "PROVISIONED"
        body["ProvisionedThroughput"] = units
    else:
        body["BillingMode"] = "PAY_PER_REQUEST"
    first = 0
    g = []
    for i in range(gsis):
        defs.append({"AttributeName": "G%dPK" % i, "AttributeType": "S"})
        proj = {"ProjectionType": "KEYS_ONLY"}
        if i < len(includes):
            proj = {"ProjectionType": "INCLUDE",
                    "NonKeyAttributes": ["a%d" % k for k in range(first, first + includes[i])]}
            first += includes[i]
        ix = {"IndexName": opts["index"] if i == 0 and "index" in opts else "GSI%d" % (i + 1),
              "KeySchema": [{"AttributeName": "G%dPK" % i, "KeyType": "HASH"}], "Projection": proj}
        if prov:
            ix["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
        g.append(ix)
    lsis = []
    for i in range(int(opts.get("lsis", 0))):
        defs.append({"AttributeName": "L%dSK" % i, "AttributeType": "S"})
        lsis.append({"IndexName": "LSI%d" % (i + 1), "Projection": {"ProjectionType": "KEYS_ONLY"},
                     "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                                   {"AttributeName": "L%dSK" % i, "KeyType": "RANGE"}]})
    if g:
        body["GlobalSecondaryIndexes"] = g
    if lsis:
        body["LocalSecondaryIndexes"] = lsis
    return body


def put_item(opts):
    """The item of `dynamodb put`: key values of the sizes asked, padded to `item` bytes by DynamoDB's
    rule (attribute name bytes + value bytes)."""
    pk, sk = "p" * int(opts.get("pk", 1)), "s" * int(opts.get("sk", 1))
    item = {"PK": {opts.get("pk_type", "S"): "5" if opts.get("pk_type") == "N" else pk}, "SK": {"S": sk}}
    if "item" in opts:
        pad = int(opts["item"]) - (len("PK") + len(pk.encode()) + len("SK") + len(sk.encode()) + len("D"))
        item["D"] = {"S": "d" * pad}
    return item


def update_table(endpoint, probe, what, opts):
    """(ok, answer) of `dynamodb update WHAT` on the probe table (see the module text)."""
    for i in range(int(opts.get("items", 0))):
        item = {"PK": {"S": "p%d" % i}, "SK": {"S": "s"}, "D": {"S": "d" * 1500}}
        if i < int(opts.get("keyed", 0)):
            item["G0PK"] = {"S": "g%d" % (i % 3)}
        ddb_call(endpoint, "PutItem", {"TableName": probe, "Item": item})
    if what == "add-gsi":
        ok, answer = ddb_call(endpoint, "UpdateTable", {
            "TableName": probe, "AttributeDefinitions": [{"AttributeName": "G0PK", "AttributeType": "S"}],
            "GlobalSecondaryIndexUpdates": [{"Create": {
                "IndexName": "ByG", "KeySchema": [{"AttributeName": "G0PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}}}]})
        for _ in range(100):  # the backfill: until the index is ACTIVE
            if not ok:
                break
            _, desc = ddb_call(endpoint, "DescribeTable", {"TableName": probe})
            gsi = (desc.get("Table", {}).get("GlobalSecondaryIndexes") or [{}])[0]
            if gsi.get("IndexStatus") == "ACTIVE":
                return True, {"Message": "index ItemCount %s" % gsi.get("ItemCount")}
            time.sleep(0.2)
        return ok, answer
    if what == "add-lsi":
        return ddb_call(endpoint, "UpdateTable", {
            "TableName": probe, "AttributeDefinitions": [{"AttributeName": "L0SK", "AttributeType": "S"}],
            "LocalSecondaryIndexUpdates": [{"Create": {
                "IndexName": "ByL", "Projection": {"ProjectionType": "ALL"},
                "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "L0SK", "KeyType": "RANGE"}]}}]})
    return ddb_call(endpoint, "UpdateTable", {
        "TableName": probe, "AttributeDefinitions": [{"AttributeName": "RK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "RK", "KeyType": "RANGE"}]})


def dynamodb(endpoint, rest):
    """(verdict as expected, message): runs one `dynamodb` assertion."""
    m = re.match(r"(create|put|update(?:\s+(?:add-gsi|add-lsi|keys)))((?:\s+\w+=\S+)*)\s+(accepted|refused)"
                 r"(?:\s+~\s+(.*))?$", rest)
    if not m:
        raise ValueError("expected: dynamodb create|put|update WHAT [KEY=VALUE...] accepted|refused [~ TEXT]")
    opts = dict(kv.split("=", 1) for kv in m.group(2).split())
    for k in ("table", "index", "pkname"):  # "t*255": the character 255 times
        rep = re.fullmatch(r"(.)\*(\d+)", opts.get(k, ""))
        if rep:
            opts[k] = rep.group(1) * int(rep.group(2))
    probe = None
    if m.group(1) == "create":
        body = create_body(opts)
        ok, answer = ddb_call(endpoint, "CreateTable", body)
        if ok:
            probe = body["TableName"]
    else:
        probe = "rules-probe-%d-%d" % (os.getpid(), next(PROBES))
        made, answer = ddb_call(endpoint, "CreateTable", create_body({"table": probe}))
        if not made:
            return False, "cannot create the probe table: %s" % answer.get("Message")
        if m.group(1) == "put":
            ok, answer = ddb_call(endpoint, "PutItem", {"TableName": probe, "Item": put_item(opts)})
        else:
            ok, answer = update_table(endpoint, probe, m.group(1).split()[1], opts)
    if probe:
        ddb_call(endpoint, "DeleteTable", {"TableName": probe})
    message = answer.get("Message") or answer.get("message") or ""
    want_ok = m.group(3) == "accepted"
    if ok != want_ok:
        return False, "DynamoDB %s it%s" % ("accepted" if ok else "refused", ": " + message if message else "")
    if m.group(4) and m.group(4) not in message:
        return False, "DynamoDB's message lacks '%s': %s" % (m.group(4), message)
    return True, message


def keyplan_diff(kp, before, after):
    """`keyplan diff` of two design files, committed as versions 1 and 2 of a scratch workspace."""
    with tempfile.TemporaryDirectory() as tmp:
        ws = os.path.join(tmp, "diff.keyplan")
        for n, path in enumerate((before, after), 1):
            rc, out, err = run([kp, "commit", ws, path, "-m", "version %d" % n])
            if rc != 0:
                return rc, out, err
        return run([kp, "diff", ws, "1", "2"])


def strip_comment(raw):
    """The line without its trailing ' # comment'; a ' #' inside a double-quoted string stays."""
    quoted = False
    for i, ch in enumerate(raw):
        if ch == '"' and (i == 0 or raw[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted and i > 0 and raw[i - 1] in " \t":
            return raw[:i].strip()
    return raw.strip()


CREATE_TABLE_KEYS = ("TableName", "AttributeDefinitions", "KeySchema", "BillingMode", "ProvisionedThroughput",
                     "GlobalSecondaryIndexes", "LocalSecondaryIndexes")


def exports_run(kp, endpoint, design):
    """Sends keyplan's exports to DynamoDB: [] when every one is accepted, else what was refused."""
    import yaml  # python3-yaml (scripts/deps.sh); only this assertion needs it
    rc, out, err = run([kp, "export", design, "--format", "cfn"])
    if rc != 0:
        return ["export --format cfn exited %d: %s" % (rc, err.strip()[:300])]
    props = next(iter(yaml.safe_load(out)["Resources"].values()))["Properties"]
    table = {k: v for k, v in props.items() if k in CREATE_TABLE_KEYS}
    if "StreamSpecification" in props:
        table["StreamSpecification"] = dict(props["StreamSpecification"], StreamEnabled=True)
    st, body = call(endpoint, "CreateTable", table)
    if st != 200:
        return ["DynamoDB refused the table of --format cfn: %s" % message(body)]
    fails = []
    try:
        rc, out, err = run([kp, "export", design, "--format", "items"])
        for i, batch in enumerate(json.loads(out)["batches"] if rc == 0 else []):
            st, body = call(endpoint, "BatchWriteItem", batch)
            if st != 200:
                fails.append("DynamoDB refused batch %d of --format items: %s" % (i, message(body)))
            elif body.get("UnprocessedItems"):
                fails.append("batch %d of --format items left items unprocessed" % i)
        rc, out, err = run([kp, "export", design, "--format", "requests"])
        for p in json.loads(out)["patterns"] if rc == 0 else []:
            for r in p["requests"]:
                if "error" in r:
                    fails.append("pattern %s: keyplan exported no %s request: %s" % (p["id"], r["operation"],
                                                                                     r["error"]))
                    continue
                st, body = call(endpoint, r["operation"], r["input"])
                if st != 200:
                    fails.append("pattern %s: DynamoDB refused the exported %s: %s" % (p["id"], r["operation"],
                                                                                      message(body)))
    finally:
        call(endpoint, "DeleteTable", {"TableName": table.get("TableName")})
    return fails


def case(kp, endpoint, design, expect):
    fails = []
    lines = []
    with open(expect, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = strip_comment(raw) if not raw.lstrip().startswith("#") else ""
            if line:
                lines.append((n, line))
    cache = {}

    def get(what):
        if what not in cache:
            if what == "check":
                cache[what] = run([kp, "check", design])
            elif what == "json":
                rc, out, err = run([kp, "check", design, "--json"])
                cache[what] = (rc, json.loads(out) if rc == 0 else None, err)
            elif what in ("requests", "cfn"):
                cache[what] = run([kp, "export", design, "--format", what])
            elif what == "verify":
                cache[what] = run([kp, "verify", design, "--endpoint", endpoint], timeout=600)
        return cache[what]

    check_exit_given = any(l.startswith("check exit") for _, l in lines)
    for n, line in lines:
        where = "%s:%d" % (os.path.basename(expect), n)
        words = line.split(None, 1)
        kind, rest = words[0], words[1] if len(words) > 1 else ""
        try:
            if kind == "json":
                m = re.match(r"(\S+)\s+(==|!=|<=|>=|<|>|!~|~)\s+(.*)$", rest)
                if not m:
                    raise ValueError("expected: json PATH OP VALUE")
                rc, doc, err = get("json")
                if doc is None:
                    fails.append("%s: check --json exited %d: %s" % (where, rc, err.strip()[:300]))
                    continue
                try:
                    got = walk(doc, m.group(1))
                except (KeyError, IndexError, ValueError):
                    fails.append("%s: %s names nothing in check --json" % (where, m.group(1)))
                    continue
                want = parse_value(m.group(3))
                if not compare(got, m.group(2), want):
                    fails.append("%s: %s is %s; expected %s %s" % (where, m.group(1), json.dumps(got),
                                                                  m.group(2), json.dumps(want)))
            elif kind == "exports":
                if rest.strip() != "run":
                    raise ValueError("expected: exports run")
                for f in exports_run(kp, endpoint, design):
                    fails.append("%s: %s" % (where, f))
            elif kind in ("check", "verify", "requests", "cfn"):
                rc, out, err = get(kind)
                m = re.match(r"exit\s+(\d+)$", rest)
                if m:
                    if rc != int(m.group(1)):
                        fails.append("%s: %s exited %d; expected %s\n%s%s" % (where, kind, rc, m.group(1),
                                                                            out[-1500:], err[-800:]))
                    continue
                m = re.match(r"(?:(out|err)\s+)?(~|!~)\s+(.*)$", rest)
                if not m:
                    raise ValueError("expected: %s exit N | %s [out|err] ~ TEXT" % (kind, kind))
                text = err if m.group(1) == "err" else out
                hit = contains(text, m.group(3))
                if hit != (m.group(2) == "~"):
                    fails.append("%s: %s output %s '%s'\n%s" % (where, kind,
                                 "lacks" if m.group(2) == "~" else "has", m.group(3), (text or err)[-1500:]))
            elif kind == "diff":
                m = re.match(r"(\S+)\s+(~|!~)\s+(.*)$", rest)
                if not m:
                    raise ValueError("expected: diff FROM.yaml ~ TEXT")
                rc, out, err = keyplan_diff(kp, os.path.join(os.path.dirname(design), m.group(1)), design)
                if rc != 0:
                    fails.append("%s: keyplan diff exited %d: %s" % (where, rc, err.strip()[:300]))
                elif contains(out, m.group(3)) != (m.group(2) == "~"):
                    fails.append("%s: diff output %s '%s'\n%s" % (where, "lacks" if m.group(2) == "~" else "has",
                                                                 m.group(3), out[-2000:]))
            elif kind == "dynamodb":
                good, why = dynamodb(endpoint, rest)
                if not good:
                    fails.append("%s: %s: %s" % (where, line, why))
            else:
                raise ValueError("unknown assertion '%s'" % kind)
        except ValueError as e:
            fails.append("%s: %s" % (where, e))
    if not check_exit_given:
        rc, _, err = get("check")
        if rc != 0:
            fails.append("%s: keyplan check exited %d: %s" % (os.path.basename(design), rc, err.strip()[:300]))
    return fails


def main(argv):
    if len(argv) < 4:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    kp, endpoint, folder = argv[1], argv[2], argv[3]
    only = set(argv[4:])
    names = sorted(f[:-7] for f in os.listdir(folder) if f.endswith(".expect"))
    if only:
        names = [n for n in names if n in only]
    if not names:
        print("rules.py: no cases in %s" % folder, file=sys.stderr)
        return 2
    failed = 0
    for name in names:
        design = os.path.join(folder, name + ".yaml")
        if not os.path.exists(design):
            print("FAIL %s: %s.yaml is missing" % (name, name))
            failed += 1
            continue
        fails = case(kp, endpoint, design, os.path.join(folder, name + ".expect"))
        if fails:
            failed += 1
            print("FAIL %s" % name)
            for f in fails:
                print("    " + f.replace("\n", "\n    | "))
        else:
            print("ok   %s" % name)
    print("%d of %d rule cases passed" % (len(names) - failed, len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
