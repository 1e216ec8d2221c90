#!/usr/bin/env python3
"""reserved_words.py KEYPLAN ENDPOINT WORDS - keyplan's reserved words against DynamoDB's, word by word.

WORDS is a file of words, one a line (tests/data/rules/reserved-words.txt: DynamoDB's reserved
words). For each word, and for a few words that are not reserved (the controls), a design whose
entity carries an attribute of that name and one pattern filtering on it; `keyplan export
--format requests` writes each pattern's Query. Then, on DynamoDB Local:
  - the exported request is accepted (keyplan wrote what DynamoDB takes);
  - keyplan wrote the name through a placeholder ("#word") exactly when it is in keyplan's table,
    and a reserved word always so;
  - the same request naming the attribute as it is, without the placeholder, is refused for
    every reserved word ("Attribute name is a reserved keyword", or a syntax error for the
    words of the expression grammar itself: and, or, not, in, between, set, add, remove,
    delete), and accepted for every control.
A disagreement on any word fails the test, naming the word. One word is pinned as DynamoDB
Local answers it: the Developer Guide lists RESERVED, and keyplan aliases it as it must for
DynamoDB, but DynamoDB Local's own table lacks it and accepts it unescaped (LOCAL_ACCEPTS; the
test fails when that changes, so that the exception is looked at again). Exit 1 on a failure, 2
on a usage error."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ddblocal import call, message  # noqa: E402

CONTROLS = ["customerId", "orderDate", "entityType", "size", "contains", "begins_with", "statuses",
            "named", "x1", "PK1"]
TABLE = "ReservedWords"
GRAMMAR = {"add", "and", "between", "delete", "in", "not", "or", "remove", "set"}
LOCAL_ACCEPTS = {"reserved"}


def design(words):
    q = lambda w: json.dumps(w)
    lines = ["keyplan: 1", "name: reserved words", "table: { name: %s, pk: PK, sk: SK, billing: on-demand, "
             "streams: false, pitr: false }" % TABLE,
             "entities:", "  - name: Thing", "    count: 1000", "    size: 200",
             "    attributes: [thingId, seq, %s]" % ", ".join(q(w) for w in words),
             "    keys: { PK: \"THING#{thingId}\", SK: \"T#{seq}\" }", "patterns:"]
    for i, w in enumerate(words, 1):
        lines.append("  - { id: %d, name: %s, entity: Thing, by: [thingId, %s], rate: 1 }" % (i, q("by " + w), q(w)))
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 4:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    kp, endpoint, path = argv[1:]
    with open(path, encoding="utf-8") as f:
        reserved = [w.strip() for w in f if w.strip()]
    words = reserved + CONTROLS
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", encoding="utf-8", delete=False) as f:
        f.write(design(words))
        dpath = f.name
    p = subprocess.run([kp, "export", dpath, "--format", "requests"], capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL reserved-words: keyplan export exited %d: %s" % (p.returncode, p.stderr.strip()[:500]))
        return 1
    pats = json.loads(p.stdout)["patterns"]
    if len(pats) != len(words):
        print("FAIL reserved-words: %d patterns exported for %d words" % (len(pats), len(words)))
        return 1
    st, body = call(endpoint, "CreateTable", {
        "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                 {"AttributeName": "SK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}]})
    if st != 200:
        print("FAIL reserved-words: CreateTable: %s" % message(body))
        return 1
    fails = []
    try:
        for w, pat in zip(words, pats):
            rq = pat["requests"][0]
            if rq.get("operation") != "Query":
                fails.append("%s: keyplan planned %s, expected a Query with a filter" % (w, rq.get("operation")))
                continue
            req = rq["input"]
            fx = req.get("FilterExpression", "")
            names = req.get("ExpressionAttributeNames", {})
            aliased = names.get("#" + w) == w
            is_reserved = w in reserved
            if aliased != is_reserved:
                fails.append("%s: keyplan %s it (FilterExpression %r), but it is %sa reserved word" % (
                    w, "aliases" if aliased else "does not alias", fx, "" if is_reserved else "not "))
            st, body = call(endpoint, "Query", req)
            if st != 200:
                fails.append("%s: DynamoDB refused keyplan's request: %s" % (w, message(body)))
            # the same request naming the attribute as it is
            plain = dict(req)
            plain["FilterExpression"] = fx.replace("#" + w + " ", w + " ")
            rest = {k: v for k, v in names.items() if v != w}
            plain.pop("ExpressionAttributeNames", None)
            if rest:
                plain["ExpressionAttributeNames"] = rest
            st, body = call(endpoint, "Query", plain)
            why = "Syntax error" if w in GRAMMAR else "reserved keyword"
            if w in LOCAL_ACCEPTS:
                if st != 200:
                    fails.append("%s: DynamoDB Local now refuses %r (%s): drop it from LOCAL_ACCEPTS" % (
                        w, plain["FilterExpression"], message(body)))
            elif is_reserved and (st == 200 or why not in message(body)):
                fails.append("%s: DynamoDB %s %r, but keyplan's table says the word is reserved" % (
                    w, "accepts" if st == 200 else "refuses for another reason (%s)" % message(body),
                    plain["FilterExpression"]))
            if not is_reserved and st != 200:
                fails.append("%s: DynamoDB refuses %r: %s" % (w, plain["FilterExpression"], message(body)))
    finally:
        call(endpoint, "DeleteTable", {"TableName": TABLE})
    if fails:
        print("FAIL reserved-words: %d disagreement(s)" % len(fails))
        for f in fails[:50]:
            print("    " + f)
        return 1
    print("ok   reserved-words: %d reserved words refused unescaped (%s accepted by DynamoDB Local alone) and "
          "accepted through keyplan's placeholders; %d controls accepted as they are" % (
              len(reserved), ", ".join(sorted(LOCAL_ACCEPTS)), len(CONTROLS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
