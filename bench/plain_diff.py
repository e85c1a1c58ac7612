#!/usr/bin/env python3
"""The same catalogue diff as `tally diff`, written plainly with `json` and `dict`.

Reads two StoreKit (.storekit, JSON) or tally-catalog/1 JSON files, matches products by ID,
prices by territory, promotional offers by ID, localisations by locale and subscription groups
by their members (as Tally does), and prints the summary `tally diff --format json` prints.
With --changes it prints every change as `path<TAB>action` instead, one per line, sorted: the
test suite compares that list with Tally's own.

usage: plain_diff.py OLD NEW [--changes]

It is the baseline for bench/diff_bench.py and the independent cross-check for
Tests/TallyDiffTests/GeneratedDiffTests.swift; it is not a second implementation to maintain
(no YAML, property lists or App Store formats).
"""
import json, sys
from decimal import Decimal

MODES = {"free": "free-trial", "payAsYouGo": "pay-as-you-go", "payUpFront": "pay-up-front"}
KINDS = {"Consumable": "consumable", "NonConsumable": "non-consumable",
         "NonRenewingSubscription": "non-renewing-subscription", "RecurringSubscription": "auto-renewable-subscription"}
SUB = "auto-renewable-subscription"


def period(text):
    """P1W -> (0, 7); P1Y -> (12, 0): equal lengths compare equal, as Tally's Period."""
    if not text:
        return None
    months = days = 0
    number = ""
    for ch in text[1:]:
        if ch.isdigit():
            number += ch
            continue
        n = int(number)
        number = ""
        if ch == "Y": months += 12 * n
        elif ch == "M": months += n
        elif ch == "W": days += 7 * n
        elif ch == "D": days += n
    return (months, days)


def offer(mode, per, count, price, eligibility=()):
    return (mode, period(per), count or 1, Decimal(price) if price is not None else None, tuple(eligibility))


def load(path):
    with open(path, encoding="utf-8") as handle:
        doc = json.load(handle)
    products, groups = {}, {}
    if doc.get("format") == "tally-catalog/1":
        storefront = doc.get("default_territory", "USA")
        def product(p, group=None, position=0):
            intro = p.get("introductory_offer")
            return {
                "kind": p.get("kind", SUB if group else None),
                "prices": {t: Decimal(v) for t, v in p.get("prices", {}).items()},
                "period": period(p.get("period")),
                "intro": offer(intro["type"], intro["period"], intro.get("count", 1), intro.get("price")) if intro else None,
                "promos": {o["id"]: offer(o["type"], o["period"], o.get("count", 1), o.get("price")) for o in reversed(p.get("promotional_offers", []))},
                "group": group, "level": p.get("level", position) if group else None,
                "family": p.get("family_shareable"),
                "locs": {k: (v.get("name"), v.get("description")) for k, v in p.get("localizations", {}).items()},
            }
        for p in doc.get("products", []):
            products.setdefault(p["id"], product(p))
        for g in doc.get("subscription_groups", []):
            groups.setdefault(g["id"], g.get("name") or g["id"])
            for index, s in enumerate(g.get("subscriptions", [])):
                products.setdefault(s["id"], product(s, g["id"], index + 1))
    else:
        storefront = (doc.get("settings") or {}).get("_storefront", "USA")
        def product(p, group=None):
            intro = p.get("introductoryOffer")
            def sk_offer(o):
                return offer(MODES[o["paymentMode"]], o["subscriptionPeriod"], o.get("numberOfPeriods", 1), o.get("displayPrice"),
                             o.get("eligibility", []))
            price = p.get("displayPrice")
            return {
                "kind": KINDS[p["type"]],
                "prices": {storefront: Decimal(price)} if price is not None else {},
                "period": period(p.get("recurringSubscriptionPeriod")),
                "intro": sk_offer(intro) if intro else None,
                "promos": {o["offerID"]: sk_offer(o) for o in reversed(p.get("adHocOffers", []) or [])},
                "group": group, "level": p.get("groupNumber") if group else None,
                "family": p.get("familyShareable"),
                "locs": {l["locale"]: (l.get("displayName"), l.get("description")) for l in reversed(p.get("localizations", []) or [])},
            }
        for p in doc.get("products", []) + doc.get("nonRenewingSubscriptions", []):
            products.setdefault(p["productID"], product(p))
        for g in doc.get("subscriptionGroups", []):
            gid = g.get("id") or g.get("name")
            groups.setdefault(gid, g.get("name") or gid)
            for s in g.get("subscriptions", []):
                products.setdefault(s["productID"], product(s, gid))
    return storefront, products, groups


def pair_groups(old, new, old_groups, new_groups):
    counts = {}
    for pid, a in old.items():
        b = new.get(pid)
        if b and a["kind"] == SUB and b["kind"] == SUB and a["group"] and b["group"]:
            counts[(a["group"], b["group"])] = counts.get((a["group"], b["group"]), 0) + 1
    def alike(pair):
        return pair[0] == pair[1] or old_groups.get(pair[0]) == new_groups.get(pair[1])
    forward, backward = {}, {}
    def pair_up(x, y):
        if x not in forward and y not in backward:
            forward[x], backward[y] = y, x
    for (x, y), _ in sorted(counts.items(), key=lambda item: (-item[1], not alike(item[0]), item[0])):
        pair_up(x, y)
    by_name = {}
    for gid, label in sorted(new_groups.items()):
        by_name.setdefault(label, gid)
    for gid, label in sorted(old_groups.items()):
        if gid in forward:
            continue
        if gid in new_groups:
            pair_up(gid, gid)
        elif label in by_name:
            pair_up(gid, by_name[label])
    return forward, backward


def longest_non_decreasing(values, preferred):
    """Indices of a longest non-decreasing subsequence; among the longest, the one keeping the
    most preferred elements; then earlier elements win (as Tally's GroupDiffer)."""
    n = len(values)
    best, previous = [0] * n, [-1] * n
    for i in range(n):
        candidates = [(best[j], -j) for j in range(i) if values[j] <= values[i]]
        score, j = max(candidates) if candidates else (0, 1)
        best[i] = score + n + 1 + (1 if preferred[i] else 0)
        previous[i] = -j if candidates else -1
    kept, cursor = set(), (max((best[i], -i) for i in range(n))[1] * -1 if n else -1)
    while cursor >= 0:
        kept.add(cursor)
        cursor = previous[cursor]
    return kept


def diff(old_path, new_path):
    old_store, old, old_groups = load(old_path)
    new_store, new, new_groups = load(new_path)
    single = lambda products, store: all(len(p["prices"]) <= 1 and all(t == store for t in p["prices"]) for p in products.values())
    pair = f"{old_store} → {new_store}" if old_store != new_store and single(old, old_store) and single(new, new_store) else None
    forward, backward = pair_groups(old, new, old_groups, new_groups)
    changes = []  # (path, action, attention, direction)
    def add(path, action, attention=(), direction=None):
        changes.append((path, action, tuple(attention), direction))
    if old_store != new_store:
        add("(catalogue) › storefront", "changed")
    for gid, label in old_groups.items():
        if gid not in forward:
            add(f"(catalogue) › subscription groups › {label}", "removed")
        elif new_groups.get(forward[gid], forward[gid]) != label:
            add(f"(catalogue) › subscription groups › {label}", "changed")
    for gid, label in new_groups.items():
        if gid not in backward:
            add(f"(catalogue) › subscription groups › {label}", "added")
    # levels of subscriptions that stayed in their paired group
    members = {}
    for pid, a in old.items():
        b = new.get(pid)
        if b and a["kind"] == SUB and b["kind"] == SUB and a["level"] is not None and b["level"] is not None \
                and a["group"] and forward.get(a["group"]) == b["group"]:
            members.setdefault(a["group"], []).append((a["level"], b["level"], pid))
    levels = {}
    for group in members.values():
        group.sort()
        kept = longest_non_decreasing([right for _, right, _ in group], [left == right for left, right, _ in group])
        for index, (left, right, pid) in enumerate(group):
            if index not in kept:
                levels[pid] = ("group-reordered",)
            elif left != right:
                levels[pid] = ()
    unchanged = 0
    for pid in sorted(set(old) | set(new)):
        a, b = old.get(pid), new.get(pid)
        if b is None:
            add(pid, "removed", ["product-removed"]); continue
        if a is None:
            add(pid, "added"); continue
        before = len(changes)
        if a["kind"] != b["kind"]:
            add(f"{pid} › kind", "changed")
        subscription = a["kind"] == SUB and b["kind"] == SUB
        def price(key, x, y):
            if x is None: return add(f"{pid} › prices › {key}", "added")
            if y is None: return add(f"{pid} › prices › {key}", "removed")
            if x == y: return
            currency_a, currency_b = (old_store, new_store) if pair else (key, key)
            attention = []
            direction = "other-currency" if pair else ("up" if y > x else "down")
            if subscription and direction == "up": attention.append("subscription-price-increase")
            if direction != "other-currency" and x > 0 and y > 0 and (y > 3 * x or x > 3 * y): attention.append("suspicious-price")
            add(f"{pid} › prices › {key}", "changed", attention, direction)
        if pair:
            x = next(iter(a["prices"].values()), None); y = next(iter(b["prices"].values()), None)
            if x is not None or y is not None: price(pair, x, y)
        else:
            for territory in list(b["prices"]) + [t for t in a["prices"] if t not in b["prices"]]:
                price(territory, a["prices"].get(territory), b["prices"].get(territory))
        if subscription:
            if a["period"] != b["period"]:
                add(f"{pid} › period", "changed", ["subscription-period-change"] if a["period"] and b["period"] else [])
            x, y = a["intro"], b["intro"]
            if x != y:
                if x is None: add(f"{pid} › introductory offer", "added")
                elif y is None: add(f"{pid} › introductory offer", "removed", ["trial-removed"] if x[0] == "free-trial" else [])
                else:
                    attention = []
                    if x[0] == "free-trial":
                        if y[0] != "free-trial": attention = ["trial-removed"]
                        else:
                            lx = (x[1][0] * x[2], x[1][1] * x[2]); ly = (y[1][0] * y[2], y[1][1] * y[2])
                            if (ly[0] * 30 + ly[1], ly[0]) < (lx[0] * 30 + lx[1], lx[0]): attention = ["trial-shortened"]
                    add(f"{pid} › introductory offer", "changed", attention)
            for key in sorted(set(a["promos"]) | set(b["promos"])):
                x, y = a["promos"].get(key), b["promos"].get(key)
                if x != y:
                    add(f"{pid} › promotional offers › {key}", "added" if x is None else "removed" if y is None else "changed")
            ga, gb = a["group"], b["group"]
            if (ga or gb) and not (ga and gb and forward.get(ga) == gb):
                add(f"{pid} › group", "changed")
        if pid in levels:
            add(f"{pid} › level", "changed", levels[pid])
        if a["family"] is not None and b["family"] is not None and a["family"] != b["family"]:
            add(f"{pid} › family sharing", "changed")
        for locale in sorted(set(a["locs"]) | set(b["locs"])):
            x, y = a["locs"].get(locale), b["locs"].get(locale)
            if x != y:
                add(f"{pid} › localizations › {locale}", "added" if x is None else "removed" if y is None else "changed")
        if len(changes) == before:
            unchanged += 1
    return changes, unchanged


def summary(changes, unchanged):
    status = {}
    for path, action, _, _ in changes:
        if path.startswith("(catalogue)"): continue
        pid = path.split(" › ")[0]
        status[pid] = action if " › " not in path else status.get(pid, "changed")
    prices = [c for c in changes if " › prices › " in c[0]]
    reasons = {}
    for c in changes:
        for reason in c[2]: reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "added": sum(1 for s in status.values() if s == "added"),
        "removed": sum(1 for s in status.values() if s == "removed"),
        "changed": sum(1 for s in status.values() if s == "changed"),
        "unchanged": unchanged,
        "changes": len(changes),
        "price_changes": sum(1 for c in prices if c[1] == "changed"),
        "price_increases": sum(1 for c in prices if c[3] == "up"),
        "price_decreases": sum(1 for c in prices if c[3] == "down"),
        "prices_added": sum(1 for c in prices if c[1] == "added"),
        "prices_removed": sum(1 for c in prices if c[1] == "removed"),
        "territories_with_price_changes": len({c[0].split(" › ")[2] for c in prices if c[1] == "changed"}),
        "attention": sum(1 for c in changes if c[2]),
        "attention_reasons": dict(sorted(reasons.items())),
    }


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    changes, unchanged = diff(args[0], args[1])
    if "--changes" in sys.argv:
        for path, action, _, _ in sorted(changes):
            print(f"{path}\t{action}")
    else:
        print(json.dumps(summary(changes, unchanged), indent=1, sort_keys=True))
