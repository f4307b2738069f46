#!/usr/bin/env python3
"""Verifies a Web Bot Auth request signature apart from the Go code.

Reads JSON on stdin: {"method", "url", "headers": {name: [values]},
"directory": the key directory's JSON, "now": Unix seconds}. Parses the
Signature-Input, Signature and Signature-Agent fields itself (a small
RFC 9651 reader, enough for these fields), rebuilds the signature base of
RFC 9421 section 2.5, picks the key whose RFC 7638 thumbprint is the keyid,
and checks the Ed25519 signature with python3-cryptography. Prints "ok"
and exits 0 when some signature tagged web-bot-auth verifies; prints why
not and exits 1 otherwise.
"""
import base64
import hashlib
import json
import sys
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


class Reader:
    def __init__(self, s):
        self.s, self.i = s, 0

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip(self, chars=" "):
        while self.peek() and self.peek() in chars:
            self.i += 1

    def key(self):
        start = self.i
        while self.peek() and (self.peek().islower() or self.peek().isdigit() or self.peek() in "_-.*"):
            self.i += 1
        if start == self.i:
            raise ValueError("key expected at %d" % start)
        return self.s[start:self.i]

    def bare(self):
        c = self.peek()
        if c == '"':
            self.i += 1
            out = []
            while True:
                c = self.peek()
                if not c:
                    raise ValueError("unterminated string")
                self.i += 1
                if c == "\\":
                    out.append(self.peek())
                    self.i += 1
                elif c == '"':
                    return ("string", "".join(out))
                else:
                    out.append(c)
        if c == ":":
            end = self.s.index(":", self.i + 1)
            raw = self.s[self.i + 1:end]
            self.i = end + 1
            return ("bytes", base64.b64decode(raw + "=" * (-len(raw) % 4)))
        if c == "-" or c.isdigit():
            start = self.i
            self.i += 1
            while self.peek().isdigit():
                self.i += 1
            return ("integer", int(self.s[start:self.i]))
        if c == "?":
            v = self.s[self.i + 1] == "1"
            self.i += 2
            return ("boolean", v)
        start = self.i
        while self.peek() and self.peek() not in " ;,()=\"":
            self.i += 1
        return ("token", self.s[start:self.i])

    def params(self):
        out = []
        while self.peek() == ";":
            self.i += 1
            self.skip()
            k = self.key()
            v = ("boolean", True)
            if self.peek() == "=":
                self.i += 1
                v = self.bare()
            out.append((k, v))
        return out

    def dictionary(self):
        out = {}
        self.skip()
        while self.peek():
            k = self.key()
            if self.peek() == "=":
                self.i += 1
                if self.peek() == "(":
                    self.i += 1
                    items = []
                    while True:
                        self.skip()
                        if self.peek() == ")":
                            self.i += 1
                            break
                        items.append((self.bare(), self.params()))
                    out[k] = ("inner", items, self.params())
                else:
                    out[k] = ("item", self.bare(), self.params())
            else:
                out[k] = ("item", ("boolean", True), self.params())
            self.skip(" \t")
            if self.peek() == ",":
                self.i += 1
                self.skip(" \t")
        return out


def serialize_bare(v):
    kind, val = v
    if kind == "string":
        return '"' + val.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if kind == "integer":
        return str(val)
    if kind == "boolean":
        return "?1" if val else "?0"
    if kind == "bytes":
        return ":" + base64.b64encode(val).decode() + ":"
    return val


def serialize_params(ps):
    out = ""
    for k, v in ps:
        out += ";" + k
        if v != ("boolean", True):
            out += "=" + serialize_bare(v)
    return out


def component(name, method, url, headers):
    u = urlsplit(url)
    if name == "@method":
        return method
    if name == "@authority":
        host = u.netloc.lower()
        for scheme, port in (("https", ":443"), ("http", ":80")):
            if u.scheme == scheme and host.endswith(port):
                host = host[: -len(port)]
        return host
    if name == "@target-uri":
        return url
    if name == "@path":
        return u.path or "/"
    if name == "@query":
        return "?" + u.query
    if name == "@scheme":
        return u.scheme.lower()
    vals = [v for k, vs in headers.items() if k.lower() == name for v in vs]
    if not vals:
        raise ValueError("component %s absent" % name)
    return ", ".join(v.strip(" \t") for v in vals)


def thumbprint(jwk):
    canon = '{"crv":"%s","kty":"%s","x":"%s"}' % (jwk["crv"], jwk["kty"], jwk["x"])
    return base64.urlsafe_b64encode(hashlib.sha256(canon.encode()).digest()).rstrip(b"=").decode()


def main():
    req = json.load(sys.stdin)
    headers = req["headers"]

    def field(name):
        return ", ".join(v for k, vs in headers.items() if k.lower() == name for v in vs)

    inputs = Reader(field("signature-input")).dictionary()
    sigs = Reader(field("signature")).dictionary()
    keys = {}
    for jwk in req["directory"]["keys"]:
        if jwk.get("kty") == "OKP" and jwk.get("crv") == "Ed25519":
            x = jwk["x"]
            keys[thumbprint(jwk)] = Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(x + "=" * (-len(x) % 4)))
    reasons = []
    for label, (kind, items, params) in inputs.items():
        p = dict(params)
        if kind != "inner" or p.get("tag") != ("string", "web-bot-auth"):
            reasons.append(label + ": not a web-bot-auth signature")
            continue
        if not (p["created"][1] <= req["now"] + 5 and p["expires"][1] > req["now"]):
            reasons.append(label + ": outside its lifetime")
            continue
        lines = []
        for (ckind, name), cparams in items:
            lines.append('"%s"%s: %s' % (name, serialize_params(cparams), component(name, req["method"], req["url"], headers)))
        lines.append('"@signature-params": (' + " ".join(serialize_bare(it) + serialize_params(ps) for it, ps in items) + ")" + serialize_params(params))
        base = "\n".join(lines).encode()
        key = keys.get(p["keyid"][1])
        if key is None:
            reasons.append(label + ": keyid not in the directory")
            continue
        try:
            key.verify(sigs[label][1][1], base)
        except InvalidSignature:
            reasons.append(label + ": signature does not verify")
            continue
        print("ok")
        return 0
    print("; ".join(reasons) or "no signature")
    return 1


if __name__ == "__main__":
    sys.exit(main())
