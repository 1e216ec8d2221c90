#!/usr/bin/env python3
"""fake_ddb.py MODE PORTFILE LOG - an HTTP server that answers like DynamoDB, then misbehaves, for
the tests of what `keyplan verify` does when the network does not: every request's operation is
appended to LOG; the port it listens on (127.0.0.1, chosen by the kernel) is written to PORTFILE.
MODE:
  hang      tables and items are accepted, every read hangs (a request that never answers)
  endless   every read answers with a body that never ends
  inuse     the first CreateTable answers 500 although the table was made; the retry is told
            ResourceInUseException; reads answer empty
  create    CreateTable hangs (its answer is lost: the table may exist)
DeleteTable is always answered, and logged."""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, portfile, logfile = sys.argv[1:4]
creates = 0


class Fake(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        global creates
        n = int(self.headers.get("Content-Length", "0"))
        req = json.loads(self.rfile.read(n) or b"{}")
        op = (self.headers.get("X-Amz-Target") or "").split(".")[-1]
        with open(logfile, "a") as f:
            f.write(op + "\n")
        table = req.get("TableName", "t")
        if op == "CreateTable":
            creates += 1
            if mode == "create":
                time.sleep(3600)
            if mode == "inuse" and creates == 1:
                return self.answer(500, {"__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                                         "message": "internal error"})
            if mode == "inuse":
                return self.answer(400, {"__type": "com.amazonaws.dynamodb.v20120810#ResourceInUseException",
                                         "message": "Table already exists: " + table})
            return self.answer(200, {"TableDescription": {"TableName": table, "TableStatus": "CREATING"}})
        if op == "DescribeTable":
            return self.answer(200, {"Table": {"TableName": table, "TableStatus": "ACTIVE",
                                               "GlobalSecondaryIndexes": []}})
        if op == "BatchWriteItem":
            return self.answer(200, {"UnprocessedItems": {}})
        if op == "DeleteTable":
            return self.answer(200, {"TableDescription": {"TableName": table, "TableStatus": "DELETING"}})
        if mode == "hang":
            time.sleep(3600)
        if mode == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.0")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                while True:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (BrokenPipeError, ConnectionResetError):
                return
        return self.answer(200, {"Items": [], "Count": 0, "ScannedCount": 0,
                                 "ConsumedCapacity": {"CapacityUnits": 0.5}})


srv = ThreadingHTTPServer(("127.0.0.1", 0), Fake)
srv.daemon_threads = True
with open(portfile, "w") as f:
    f.write(str(srv.server_address[1]))
srv.serve_forever()
