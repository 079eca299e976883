"""A store driver in another language (TRN-17): keeps conversations in memory and speaks the
JSON-lines driver protocol on stdin/stdout, one call at a time, until stdin closes (serve)."""
import json
import sys

events, leases, tools = {}, {}, {}


def same(a, b):
    return a["holder"] == b["holder"] and a["turn"] == b["turn"]


def answer(call):
    op, conv = call["op"], call.get("conversation")
    if op == "append":
        log = events.setdefault(conv, {})
        if call["n"] in log:
            return {"conflict": True}
        log[call["n"]] = call["event"]
        return {"ok": True}
    if op == "read":
        log = events.get(conv, {})
        start = call.get("from", 1)
        return {"ok": True, "events": [{"n": n, "event": log[n]} for n in sorted(log) if n >= start]}
    if op == "lease.read":
        return {"ok": True, "lease": leases.get(conv)}
    if op == "lease.take":
        current = leases.get(conv)
        if current is not None and call["now_ms"] - current["renewed_at_ms"] < call["lapse_ms"]:
            return {"ok": True, "lease": None}
        leases[conv] = dict(call["lease"], renewed_at_ms=call["now_ms"])
        return {"ok": True, "lease": leases[conv]}
    if op == "lease.renew":
        current = leases.get(conv)
        if current is None or not same(current, call["lease"]):
            return {"ok": True, "renewed": False}
        leases[conv] = dict(call["lease"], renewed_at_ms=call["now_ms"])
        return {"ok": True, "renewed": True}
    if op == "lease.release":
        if conv in leases and same(leases[conv], call["lease"]):
            del leases[conv]
        return {"ok": True}
    if op == "tools.read":
        return {"ok": True, "tools": tools.get(conv)}
    if op == "tools.write":
        tools[conv] = call["tools"]
        return {"ok": True}
    if op == "list":
        return {"ok": True, "conversations": sorted(set(events) | set(tools) | set(leases))}
    return {"error": {"code": "USAGE", "message": f"Cannot answer a store call: no op {op!r}"}}


for line in sys.stdin:
    if line.strip():
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()
