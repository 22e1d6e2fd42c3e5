#!/usr/bin/env python3
"""One catalog of a whole corpus, the input of ratios.sh.

Usage: python3 alltools.py CORPUS_DIR OUT.json

Every tool of CORPUS_DIR/catalogs/**/*.json (files holding {"tools": [...]},
tools with an object `input_schema`) in sorted path order, then every schema
of CORPUS_DIR/jsonschemabench/*.jsonl (one {"schema": {...}} a line) as a tool
with an empty description. Tools are renamed t0, t1, ... so names are unique.
Writes {"tools": [{"name", "description", "input_schema"}]} and prints the
count. Files or lines that do not parse are skipped.
"""
import json
import sys
from pathlib import Path


def catalog_tools(path):
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    tools = doc.get("tools") if isinstance(doc, dict) else None
    for t in tools if isinstance(tools, list) else []:
        if isinstance(t, dict) and isinstance(t.get("input_schema"), dict):
            yield t.get("description") or "", t["input_schema"]


def bench_schemas(path):
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            try:
                schema = json.loads(line)["schema"]
            except (ValueError, KeyError, TypeError):
                continue
            if isinstance(schema, dict):
                yield "", schema


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    found = []
    for f in sorted(root.glob("catalogs/**/*.json")):
        found.extend(catalog_tools(f))
    for f in sorted(root.glob("jsonschemabench/*.jsonl")):
        found.extend(bench_schemas(f))
    tools = [
        {"name": f"t{i}", "description": d, "input_schema": s}
        for i, (d, s) in enumerate(found)
    ]
    out.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    print(len(tools))


if __name__ == "__main__":
    main()
