"""ddblocal.py - one signed call to DynamoDB (Local) from the test scripts, with the test credentials."""
import datetime
import hashlib
import hmac
import json
import urllib.error
import urllib.request


def call(endpoint, op, req):
    """One signed DynamoDB call: (HTTP status, decoded body)."""
    body = json.dumps(req).encode()
    now = datetime.datetime.now(datetime.timezone.utc)
    amz, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    hdrs = {"content-type": "application/x-amz-json-1.0", "host": endpoint.split("//", 1)[1],
            "x-amz-date": amz, "x-amz-target": "DynamoDB_20120810." + op}
    signed = ";".join(sorted(hdrs))
    canon = "\n".join(["POST", "/", "", "".join("%s:%s\n" % (k, hdrs[k]) for k in sorted(hdrs)), signed,
                       hashlib.sha256(body).hexdigest()])
    scope = "%s/us-east-1/dynamodb/aws4_request" % day
    sts = "\n".join(["AWS4-HMAC-SHA256", amz, scope, hashlib.sha256(canon.encode()).hexdigest()])
    key = b"AWS4test"
    for part in (day, "us-east-1", "dynamodb", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    sig = hmac.new(key, sts.encode(), hashlib.sha256).hexdigest()
    hdrs["authorization"] = "AWS4-HMAC-SHA256 Credential=test/%s, SignedHeaders=%s, Signature=%s" % (
        scope, signed, sig)
    r = urllib.request.Request(endpoint, data=body, headers=hdrs, method="POST")
    try:
        with urllib.request.urlopen(r, timeout=30) as f:
            return 200, json.loads(f.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def message(body):
    return body.get("message") or body.get("Message") or json.dumps(body)
