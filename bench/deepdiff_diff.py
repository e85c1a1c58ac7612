#!/usr/bin/env python3
"""The catalogue diff done by Python's deepdiff, for bench/diff_bench.py.

Reads two tally-catalog/1 JSON files, keys products by ID (subscriptions carry their group), so
that deepdiff matches products by identity rather than by array position, and prints how many
changes of each kind DeepDiff reports.

usage: deepdiff_diff.py OLD NEW
"""
import json, sys

from deepdiff import DeepDiff


def load(path):
    with open(path, encoding="utf-8") as handle:
        doc = json.load(handle)
    products = {p["id"]: p for p in doc.get("products", [])}
    for group in doc.get("subscription_groups", []):
        for subscription in group.get("subscriptions", []):
            products[subscription["id"]] = dict(subscription, group=group["id"])
    return products


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    result = DeepDiff(load(sys.argv[1]), load(sys.argv[2]))
    print(json.dumps({kind: len(items) for kind, items in result.items()}, indent=1, sort_keys=True))
