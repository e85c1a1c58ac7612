#!/usr/bin/env python3
"""A Google Play Developer API stand-in for bench/hostile-sizes/run.sh (standard library only).

    play_server.py PORT SUBSCRIPTIONS_PAGE

`POST /token` answers a bearer token (the assertion is not verified: this measures Tally's
memory, not its signing; the test suite's stand-in verifies it). The subscriptions list is the
given file, served as one page; every other list is empty (Google leaves the list out).
"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, PAGE = int(sys.argv[1]), sys.argv[2]
BODY = open(PAGE, "rb").read()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, data):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send(json.dumps({"access_token": "bench-token", "expires_in": 3600, "token_type": "Bearer"}).encode())

    def do_GET(self):
        path = self.path.split("?")[0]
        self.send(BODY if path.endswith("/subscriptions") else b"{}")


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
