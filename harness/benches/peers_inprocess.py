#!/usr/bin/env python3
"""In-process rate of the Python peer shapers on a catalog's schemas.

Usage: PEERS_PYTHON peers_inprocess.py --peers PATH/py_peers.py CATALOG PEER_LANE...

PEERS_PYTHON is the interpreter the peers are installed in (see
../shared/peers/setup.sh); py_peers.py is the peers' driver, loaded from the
given path (never copied here). For each peer lane (an entry of the driver's
LANES table, e.g. pydantic-ai:openai-strict, openai:to-strict,
anthropic:transform-schema, google-genai:process-schema) every schema of
CATALOG goes through the lane's function once. Each of those functions
deep-copies its input before transforming it, so one call is one deep copy
plus one transform, and the parsed schemas stay untouched for the next lane.
Reading and parsing CATALOG is not timed; one warm-up call per lane (its
imports) is not timed either. A schema the peer raises on still counts:
its time is part of the run.

Prints one tab-separated line per lane: lane, schemas, seconds, schemas/s,
errored (raised), and the rate on the schemas it shaped alone; or `lane  unavailable  reason` when the lane's package does not
import. Exit 2 on a usage error.
"""
import argparse
import importlib.util
import json
import time


def load_driver(path):
    spec = importlib.util.spec_from_file_location("py_peers", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"peers_inprocess: {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def schema_of(tool):
    """A tool's schema in the usual catalog shapes."""
    for key in ("input_schema", "inputSchema", "parameters"):
        if isinstance(tool.get(key), dict):
            return tool[key]
    function = tool.get("function")
    if isinstance(function, dict) and isinstance(function.get("parameters"), dict):
        return function["parameters"]
    return None


def rate(fn, schemas):
    """(seconds, errored, seconds on the schemas it shaped) for one call of
    `fn` per schema."""
    errored, shaped_secs = 0, 0.0
    clock = time.perf_counter
    start = clock()
    for s in schemas:
        t = clock()
        try:
            fn(s)
        except Exception:  # the peer rejected the schema: timed all the same
            errored += 1
        else:
            shaped_secs += clock() - t
    return clock() - start, errored, shaped_secs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", required=True, help="path of the peers' py_peers.py")
    ap.add_argument("catalog")
    ap.add_argument("lanes", nargs="+")
    a = ap.parse_args()
    driver = load_driver(a.peers)
    with open(a.catalog, encoding="utf-8") as f:
        doc = json.load(f)
    tools = doc.get("tools", []) if isinstance(doc, dict) else doc
    schemas = [s for s in map(schema_of, tools) if s is not None]
    for lane in a.lanes:
        if lane not in driver.LANES:
            ap.error(f"unknown peer lane {lane!r} (not in {a.peers})")
        fn = driver.LANES[lane][1]
        try:
            fn(schemas[0])
        except ImportError as e:
            print(f"{lane}\tunavailable\t{e}", flush=True)
            continue
        except Exception:
            pass
        secs, errored, shaped_secs = rate(fn, schemas)
        n, shaped = len(schemas), len(schemas) - errored
        shaped_rate = shaped / shaped_secs if shaped_secs else 0
        print(f"{lane}\t{n}\t{secs:.3f}\t{n / secs:.0f}\t{errored}\t{shaped_rate:.0f}", flush=True)


if __name__ == "__main__":
    main()
