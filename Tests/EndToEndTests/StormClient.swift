import Foundation

/// The client processes of the scale and fault tests (#19): one `python3` process per traveller,
/// speaking HTTP/1.1 to the servers (Python's standard library only). The script is written to a
/// temporary directory at run time.
enum StormClient {
  static let source = #"""
    # The client process of the scale and fault tests of travel-server (#19). Reads one JSON spec
    # (argv[1]) and prints one JSON document. Actions:
    #   call: {"server", "method", "path", "token"?, "body"?} -> {"status", "body"}
    #   traveller: {"server", "email", "password", "card"} -> sign up, sign in, add the card -> {"token"}
    #   book: {"servers", "first", "token", "startAt", "deadline", "bookings": [{"path", "body", "key"}]}
    #     books each in turn on servers[first] with its Idempotency-Key. A dropped or refused
    #     connection, a timeout or a 5xx answer is retried with the same key on the next server
    #     (fail-over); a 409 price_changed is accepted: the new offer (offerId) with a new key.
    #     -> {"outcomes": [{"key", "status", "code", "reservation", "attempts"}], "serverErrors", "dropped"}
    import http.client
    import json
    import sys
    import time
    import urllib.parse

    spec = json.load(open(sys.argv[1]))


    def request(server, method, path, token=None, body=None, key=None, timeout=30):
        parts = urllib.parse.urlsplit(server)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
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


    if spec["action"] == "call":
        status, document = request(spec["server"], spec["method"], spec["path"], spec.get("token"), spec.get("body"))
        print(json.dumps({"status": status, "body": document}))
    elif spec["action"] == "traveller":
        print(json.dumps(traveller()))
    else:
        print(json.dumps(book()))
    """#
}
