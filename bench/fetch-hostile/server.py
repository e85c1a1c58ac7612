#!/usr/bin/env python3
"""A hostile stand-in for the App Store Connect and Google Play APIs, independent of Tally's own
test servers (standard library only), for measuring `tally fetch` from outside.

    server.py MODE PORT [RECORD_FILE]

Answers the first list (`/v1/apps/{id}/inAppPurchasesV2`, `.../applications/{pkg}/subscriptions`)
as MODE says; every other request gets an empty page; `POST /token` issues an access token. Every
request's headers are appended to RECORD_FILE (one JSON line each) when it is given.
MODE: ok, redirect:PORT2, retry-after, escapes, echo, endless, trickle, stall, paginate, dotdot, slash.
"""
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = sys.argv[1]
PORT = int(sys.argv[2])
RECORD = sys.argv[3] if len(sys.argv) > 3 else None
TOKEN = "ya29.c.TESTACCESSTOKEN-0123456789abcdef"
state = {"page": 0}


def first_list(path):
    p = path.split("?")[0]
    return p.endswith("/inAppPurchasesV2") or p.endswith("/subscriptions") and "/applications/" in p


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self):
        if RECORD:
            with open(RECORD, "a") as f:
                f.write(json.dumps({"path": self.path, "headers": dict(self.headers)}) + "\n")

    def send(self, status, body, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def google(self):
        return "/androidpublisher/" in self.path

    def error(self, status, detail, headers=()):
        if self.google():
            self.send(status, {"error": {"code": status, "message": detail, "status": "INVALID_ARGUMENT"}}, headers)
        else:
            self.send(status, {"errors": [{"status": str(status), "code": "PARAMETER_ERROR", "title": "Bad", "detail": detail}]}, headers)

    def empty(self):
        if self.google():
            self.send(200, {})
        else:
            self.send(200, {"data": []})  # no links.self: Tally adds one to the saved page

    def do_POST(self):
        self.record()
        n = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(n)
        self.send(200, {"access_token": TOKEN, "expires_in": 3599, "token_type": "Bearer"})

    def do_GET(self):
        self.record()
        if not first_list(self.path) or MODE == "ok":
            if MODE in ("dotdot", "slash") and "/offers" in self.path and "/-/" in self.path:
                return self.error(404, "not served")
            return self.empty()
        if MODE.startswith("redirect:"):
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:%s%s" % (MODE.split(":")[1], self.path))
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif MODE == "retry-after":
            self.error(429, "slow down", [("Retry-After", "1e300")])
        elif MODE == "escapes":
            self.error(400, "\x1b]0;owned\x07\x1b[2J\x1b[31mFORGED: all prices match\x1b[0m" + "A" * 200000)
        elif MODE == "echo":
            self.error(400, "Invalid request. Headers: Authorization: %s" % self.headers.get("Authorization"))
        elif MODE in ("endless", "trickle"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            try:
                while True:
                    if MODE == "endless":
                        self.wfile.write(b" " * 65536)
                    else:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(20)
            except (BrokenPipeError, ConnectionResetError):
                return
        elif MODE == "stall":
            time.sleep(3600)
        elif MODE == "paginate":
            state["page"] += 1
            base = self.path.split("?")[0]
            if self.google():
                self.send(200, {"subscriptions": [], "nextPageToken": "p%d" % state["page"]})
            else:
                self.send(200, {"data": [], "links": {"self": "http://127.0.0.1:%d%s" % (PORT, self.path),
                                                      "next": "http://127.0.0.1:%d%s?cursor=%d" % (PORT, base, state["page"])}})
        elif MODE in ("dotdot", "slash"):
            ident = ".." if MODE == "dotdot" else "a/b"
            if self.google():
                self.send(200, {"subscriptions": [{"productId": "premium", "basePlans": [{"basePlanId": ident}]}]})
            else:
                self.send(200, {"data": [{"type": "inAppPurchases", "id": ident}],
                                "links": {"self": "http://127.0.0.1:%d%s" % (PORT, self.path)}})


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
