#!/usr/bin/env python3
"""Inputs for bench/hostile-sizes/run.sh (standard library only).

    make.py pages OUT N [PROJECT]   a RevenueCat folder: an apps page and N product pages of one product each
    make.py package OUT N           a RevenueCat folder: one offering whose package holds N products, one entitlement with the same N
    make.py deep OUT LEVELS         a tally-catalog/1 JSON file whose products are LEVELS nested arrays
"""
import json, os, sys


def dump(folder, name, obj):
    with open(os.path.join(folder, name), "w") as f:
        json.dump(obj, f)


def apps(project):
    return {"object": "list", "next_page": None, "url": f"/v2/projects/{project}/apps",
            "items": [{"object": "app", "id": "app1", "name": "A", "created_at": 1, "type": "app_store", "project_id": project,
                       "app_store": {"bundle_id": "com.example.a"}}]}


def product(i):
    return {"object": "product", "id": f"prod{i}", "store_identifier": f"com.example.p{i}", "type": "consumable", "created_at": 1,
            "app_id": "app1", "display_name": f"P{i}", "state": "active"}


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "deep":
        levels = int(sys.argv[3])
        with open(out, "w") as f:
            f.write('{"format": "tally-catalog/1", "products": ' + "[" * levels + "]" * levels + "}")
        return
    os.makedirs(out, exist_ok=True)
    n = int(sys.argv[3])
    project = sys.argv[4] if len(sys.argv) > 4 else "proj1ab2c3d4"
    dump(out, "0001-apps.json", apps(project))
    if kind == "pages":
        for i in range(n):
            dump(out, f"{i + 2:04d}-products.json",
                 {"object": "list", "items": [product(i)], "next_page": None, "url": f"/v2/projects/{project}/products"})
    elif kind == "package":
        items = [{"product": product(i), "eligibility_criteria": "all"} for i in range(n)]
        package = {"object": "package", "id": "pkg1", "lookup_key": "$rc_monthly", "display_name": "M", "position": 1, "created_at": 1,
                   "products": {"object": "list", "items": items, "next_page": None, "url": f"/v2/projects/{project}/packages/pkg1/products"}}
        dump(out, "0002-offerings.json", {"object": "list", "next_page": None, "url": f"/v2/projects/{project}/offerings", "items": [
            {"object": "offering", "id": "ofrng1", "lookup_key": "default", "display_name": "D", "is_current": True, "created_at": 1,
             "project_id": project, "metadata": None,
             "packages": {"object": "list", "items": [package], "next_page": None, "url": f"/v2/projects/{project}/offerings/ofrng1/packages"}}]})
        dump(out, "0003-entitlements.json", {"object": "list", "next_page": None, "url": f"/v2/projects/{project}/entitlements", "items": [
            {"object": "entitlement", "id": "entl1", "lookup_key": "pro", "display_name": "Pro", "created_at": 1, "project_id": project,
             "products": {"object": "list", "items": [product(i) for i in range(n)], "next_page": None,
                          "url": f"/v2/projects/{project}/entitlements/entl1/products"}}]})
    else:
        sys.exit(f"unknown kind {kind}")


main()
