#!/usr/bin/env python3
"""Checks dtpp's JSON output against docs/dtpp-output.schema.json.

json_schema_check.py SCHEMA DTPP GOLDEN...
    every line of each golden file (its standard output part, before `--- stderr`) and of a live
    run with stacks must be one JSON document that the schema accepts.
"""
import json
import subprocess
import sys

import jsonschema


def lines_of(text):
    out = text.split("\n--- stderr\n")[0]
    return [line for line in out.split("\n") if line != ""]


def main(schema_path, dtpp, goldens):
    with open(schema_path) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    checked = 0
    sources = []
    for golden in goldens:
        with open(golden, encoding="utf-8") as f:
            sources.append((golden, f.read()))
    live = subprocess.run(
        [dtpp, "-x", "oformat=json", "-n",
         'BEGIN { ustack(); trace(ustack(2)); @s[ustack(), "k"] = count(); @q = quantize(7); exit(0); }'],
        capture_output=True, check=True)
    sources.append(("live run", live.stdout.decode("utf-8")))
    for name, text in sources:
        for number, line in enumerate(lines_of(text), 1):
            document = json.loads(line)
            errors = list(validator.iter_errors(document))
            if errors:
                sys.exit(f"{name}:{number}: {errors[0].message}\n{line}")
            checked += 1
    # The schema is not a formality: it refuses what it must.
    for bad in ['{"aggregation":"c","function":"count","data":[{"keys":[],"value":1.5}]}',
                '{"cpu":0,"id":1,"enabled probe id":1,"probe":{},"output":[]}',
                '{"aggregation":"a","function":"avg","data":[{"keys":[],"value":"x"}]}']:
        if validator.is_valid(json.loads(bad)):
            sys.exit("the schema accepts " + bad)
    print(f"ok: {checked} lines")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
