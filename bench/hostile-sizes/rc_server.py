#!/usr/bin/env python3
"""A RevenueCat API v2 stand-in for bench/hostile-sizes/run.sh (standard library only).

    rc_server.py PORT RECORD_FILE NEXT_PAGE

Answers every list with one empty page; the apps list names NEXT_PAGE as its `next_page` (a
path such as `/v2/projects/proj1/%2e%2e/other/apps`), and every request's path is appended to
RECORD_FILE, so that the caller sees whether Tally followed it.
"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, RECORD, NEXT = int(sys.argv[1]), sys.argv[2], sys.argv[3]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with open(RECORD, "a") as f:
            f.write(self.path + "\n")
        path = self.path.split("?")[0]
        page = {"object": "list", "items": [], "next_page": None, "url": path}
        if path.endswith("/apps") and "starting_after" not in self.path and "%" not in path:
            page["next_page"] = NEXT
        data = json.dumps(page).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
