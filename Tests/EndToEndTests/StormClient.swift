import Foundation

/// The client processes of the scale and fault tests (#19): one `python3` process per traveller,
/// speaking HTTP/1.1 to the servers (Python's standard library only). The script is written to a
/// temporary directory at run time.
enum StormClient {
  static let source = #"""
    # The client process of the scale and fault tests of travel-server (#19). Reads one JSON spec
    # (argv[1]) and prints one JSON document. Actions:
    #   call: {"server", "method", "path", "token"?, "body"?, "headers"?} -> {"status", "body"}
    #   traveller: {"server", "email", "password", "card"} -> sign up, sign in, add the card -> {"token"}
    #   book: {"servers", "first", "token", "startAt", "deadline", "bookings": [{"path", "body", "key"}]}
    #     books each in turn on servers[first] with its Idempotency-Key. A dropped or refused
    #     connection, a timeout or a 5xx answer is retried with the same key on the next server
    #     (fail-over); a 409 price_changed is accepted: the new offer (offerId) with a new key.
    #     -> {"outcomes": [{"key", "status", "code", "reservation", "attempts"}], "serverErrors", "dropped"}
    #   listen: {"server", "token", "topic", "events", "timeout"} -> opens /v1/stream (WebSocket),
    #     authenticates, subscribes; prints {"subscribed": true} once subscribed, then waits for
    #     `events` events (or `timeout` seconds) -> {"events": [{"event", "data"}], "error"?}
    # "source" (call, traveller): the local address to connect from (127.0.0.2: another client).
    import base64
    import http.client
    import json
    import os
    import socket
    import struct
    import sys
    import time
    import urllib.parse

    spec = json.load(open(sys.argv[1]))


    def request(server, method, path, token=None, body=None, key=None, timeout=30, headers=None):
        parts = urllib.parse.urlsplit(server)
        source = (spec["source"], 0) if spec.get("source") else None
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout, source_address=source)
        headers = dict(headers or {})
        headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = "Bearer " + token
        if key:
            headers["Idempotency-Key"] = key
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            data = response.read()
            try:
                document = json.loads(data) if data else {}
            except ValueError:
                document = {}
            return response.status, document
        finally:
            connection.close()


    def book():
        servers, index = spec["servers"], spec.get("first", 0)
        deadline = time.time() + spec.get("deadline", 60)
        outcomes, server_errors, dropped = [], [], 0
        while time.time() < spec.get("startAt", 0):
            time.sleep(0.005)
        for booking in spec["bookings"]:
            key, body, attempts, outcome = booking["key"], dict(booking["body"]), 0, None
            while outcome is None:
                if time.time() > deadline:
                    outcome = {"key": key, "status": 0, "code": "client_deadline", "reservation": None,
                               "attempts": attempts}
                    break
                server = servers[index % len(servers)]
                attempts += 1
                try:
                    status, document = request(server, "POST", booking["path"], spec["token"], body, key, timeout=20)
                except (OSError, http.client.HTTPException):
                    dropped += 1
                    index += 1
                    time.sleep(0.05)
                    continue
                error = document.get("error") or {}
                if status >= 500:
                    server_errors.append("%d %s on %s" % (status, error.get("code"), server))
                    index += 1
                    time.sleep(0.1)
                    continue
                if status == 409 and error.get("code") == "price_changed" and error.get("offerId"):
                    body["offerId"] = error["offerId"]
                    key = key + "+"
                    continue
                outcome = {"key": key, "status": status, "code": error.get("code"),
                           "reservation": (document.get("reservation") or {}).get("id"), "attempts": attempts}
            outcomes.append(outcome)
        return {"outcomes": outcomes, "serverErrors": server_errors, "dropped": dropped}


    def traveller():
        server, email, password = spec["server"], spec["email"], spec["password"]
        names = {"email": email, "password": password, "firstName": "Storm", "lastName": "Client"}
        status, document = request(server, "POST", "/v1/accounts", body=names)
        if status != 201:
            return {"error": "sign-up %d %s" % (status, document)}
        status, document = request(server, "POST", "/v1/sessions", body={"email": email, "password": password})
        if status != 201:
            return {"error": "sign-in %d %s" % (status, document)}
        token = document["session"]["token"]
        status, document = request(server, "POST", "/v1/cards", token=token, body=spec["card"])
        if status != 201:
            return {"error": "card %d %s" % (status, document)}
        return {"token": token}


    def listen():
        parts = urllib.parse.urlsplit(spec["server"])
        deadline = time.time() + spec.get("timeout", 10)
        sock = socket.create_connection((parts.hostname, parts.port), timeout=spec.get("timeout", 10))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(("GET /v1/stream HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: travel.v1\r\n\r\n"
                      % (parts.hostname, parts.port, key)).encode())
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(4096)
            if not chunk:
                return {"events": [], "error": "closed during the handshake: %r" % buffer}
            buffer += chunk
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            return {"events": [], "error": "handshake: %r" % head}

        def send(opcode, payload):
            mask = os.urandom(4)
            length = len(payload)
            header = bytes([0x80 | opcode])
            if length < 126:
                header += bytes([0x80 | length])
            elif length < 65536:
                header += bytes([0x80 | 126]) + struct.pack(">H", length)
            else:
                header += bytes([0x80 | 127]) + struct.pack(">Q", length)
            sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

        def read(count):
            nonlocal buffer
            while len(buffer) < count:
                sock.settimeout(max(0.01, deadline - time.time()))
                chunk = sock.recv(65536)
                if not chunk:
                    raise EOFError("closed")
                buffer += chunk
            data, buffer = buffer[:count], buffer[count:]
            return data

        def message():
            text = b""
            while True:
                first, second = read(2)
                length = second & 0x7F
                if length == 126:
                    length = struct.unpack(">H", read(2))[0]
                elif length == 127:
                    length = struct.unpack(">Q", read(8))[0]
                payload = read(length)
                opcode = first & 0x0F
                if opcode == 9:
                    send(10, payload)
                elif opcode == 8:
                    raise EOFError("closed by the server")
                elif opcode in (0, 1):
                    text += payload
                    if first & 0x80:
                        return json.loads(text)

        events = []
        try:
            send(1, json.dumps({"type": "auth", "token": spec["token"]}).encode())
            send(1, json.dumps({"type": "subscribe", "topic": spec.get("topic", "trips")}).encode())
            while True:
                document = message()
                if document.get("type") == "subscribed":
                    break
                if document.get("type") == "error":
                    return {"events": [], "error": "subscribe: %s" % document}
            print(json.dumps({"subscribed": True}), flush=True)
            while len(events) < spec.get("events", 1):
                document = message()
                if document.get("type") == "event":
                    events.append({"event": document.get("event"), "data": document.get("data")})
        except (OSError, EOFError, ValueError) as error:
            return {"events": events, "error": "%s: %s" % (type(error).__name__, error)}
        finally:
            sock.close()
        return {"events": events}


    if spec["action"] == "call":
        status, document = request(spec["server"], spec["method"], spec["path"], spec.get("token"), spec.get("body"),
                                   headers=spec.get("headers"))
        print(json.dumps({"status": status, "body": document}))
    elif spec["action"] == "traveller":
        print(json.dumps(traveller()))
    elif spec["action"] == "listen":
        print(json.dumps(listen()))
    else:
        print(json.dumps(book()))
    """#
}
