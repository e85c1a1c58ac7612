#!/usr/bin/env python3
"""Writes the RevenueCat API v2 pages of the Lumen project (revenuecat/) and the same project with
each mistake of issue 27 planted once (revenuecat-planted/). The shapes follow RevenueCat's REST API
v2 reference (list objects with items, next_page and url; products, offerings expanded with
items.package.product, entitlements expanded with items.product). Run it from this folder."""
import copy, json, os

P = "/v2/projects/proj1ab2c3d4"
APPS = [
    {"object": "app", "id": "app1a2b3c4", "name": "Lumen (iOS)", "created_at": 1732000000000, "type": "app_store",
     "project_id": "proj1ab2c3d4", "app_store": {"bundle_id": "com.lumen.app"}},
    {"object": "app", "id": "app5d6e7f8", "name": "Lumen (Android)", "created_at": 1732000000000, "type": "play_store",
     "project_id": "proj1ab2c3d4", "play_store": {"package_name": "com.lumen.app"}},
]

def product(key, store_id, kind, app, name, duration=None, consumable=None):
    item = {"object": "product", "id": key, "store_identifier": store_id, "type": kind}
    if duration:
        item["subscription"] = {"duration": duration, "grace_period_duration": None, "trial_duration": None}
    if consumable is not None:
        item["one_time"] = {"is_consumable": consumable}
    item.update({"created_at": 1732000000000, "app_id": app, "display_name": name, "state": "active"})
    return item

def clean():
    ios, play = "app1a2b3c4", "app5d6e7f8"
    products = [
        product("prodA1", "com.lumen.pro.monthly", "subscription", ios, "Pro monthly", "P1M"),
        product("prodA2", "com.lumen.pro.annual", "subscription", ios, "Pro annual", "P1Y"),
        product("prodA3", "com.lumen.lifetime", "non_consumable", ios, "Lifetime"),
        product("prodA4", "com.lumen.coins.100", "consumable", ios, "100 coins"),
        product("prodG1", "pro:monthly", "subscription", play, "Pro monthly (Play)", "P1M"),
        product("prodG2", "pro:annual", "subscription", play, "Pro annual (Play)", "P1Y"),
        product("prodG3", "lifetime", "one_time", play, "Lifetime (Play)", consumable=False),
        product("prodG4", "coins_100", "consumable", play, "100 coins (Play)"),
    ]
    offerings = [
        ("ofrng1a2b", "default", "Standard paywall", True, [
            ("pkge1a", "$rc_monthly", "Monthly", ["prodA1", "prodG1"]),
            ("pkge2b", "$rc_annual", "Annual", ["prodA2", "prodG2"]),
            ("pkge3c", "$rc_lifetime", "Lifetime", ["prodA3", "prodG3"])]),
        ("ofrng3c4d", "coins", "Coin shop", False, [("pkge4d", "coins_100", "100 coins", ["prodA4", "prodG4"])]),
    ]
    entitlements = [("entla1b2c3", "pro", "Lumen Pro", ["prodA1", "prodA2", "prodA3", "prodG1", "prodG2", "prodG3"])]
    return products, offerings, entitlements

def planted():
    products, offerings, entitlements = clean()
    by = {p["id"]: p for p in products}
    by["prodG4"]["store_identifier"] = "coin_100"            # paywall-missing-in-store (did you mean coins_100?)
    by["prodA3"]["type"] = "subscription"                    # paywall-kind: a non-consumable registered as a subscription
    by["prodA3"]["subscription"] = {"duration": "P1Y", "grace_period_duration": None, "trial_duration": None}
    by["prodA2"]["subscription"]["duration"] = "P6M"          # paywall-period
    by["prodG1"]["store_identifier"] = "pro"                 # paywall-base-plan: no base plan, Play has two
    by["prodG2"]["store_identifier"] = "pro:yearly"          # paywall-base-plan: a base plan Play lacks
    products.append(product("prodA5", "com.lumen.pro.weekly", "subscription", "app1a2b3c4", "Pro weekly", "P1W"))
    offerings[0] = (*offerings[0][:3], False, offerings[0][4] + [("pkge5e", "$rc_weekly", "Weekly", ["prodA5"])])  # no current offering; missing-in-app
    offerings.append(("ofrng5e6f", "winter_sale", "Winter sale", False, []))  # paywall-empty-offering
    key, lookup, name, granted = entitlements[0]
    entitlements[0] = (key, lookup, name, [k for k in granted if k != "prodG3"] + ["prodA5"])  # paywall-not-entitled: lifetime (Play)
    return products, offerings, entitlements

def page(items, url, next_page=None):
    return {"object": "list", "items": items, "next_page": next_page, "url": url}

def write(folder, project):
    products, offerings, entitlements = project
    by = {p["id"]: p for p in products}
    os.makedirs(folder, exist_ok=True)
    pages = {
        "01-apps.json": page(APPS, f"{P}/apps"),
        "02-products.json": page(products[:4], f"{P}/products", f"{P}/products?starting_after=prodA4&limit=4"),
        "03-products.json": page(products[4:], f"{P}/products"),
        "04-offerings.json": page([
            {"object": "offering", "id": oid, "lookup_key": key, "display_name": name, "is_current": current,
             "created_at": 1732000000000, "project_id": "proj1ab2c3d4", "metadata": None,
             "packages": page([
                 {"object": "package", "id": pid, "lookup_key": pkey, "display_name": pname, "position": index + 1,
                  "created_at": 1732000000000,
                  "products": page([{"product": copy.deepcopy(by[k]), "eligibility_criteria": "all"} for k in keys],
                                   f"{P}/packages/{pid}/products")}
                 for index, (pid, pkey, pname, keys) in enumerate(packages)], f"{P}/offerings/{oid}/packages")}
            for oid, key, name, current, packages in offerings], f"{P}/offerings"),
        "05-entitlements.json": page([
            {"object": "entitlement", "id": eid, "lookup_key": key, "display_name": name, "created_at": 1732000000000,
             "project_id": "proj1ab2c3d4", "products": page([copy.deepcopy(by[k]) for k in keys], f"{P}/entitlements/{eid}/products")}
            for eid, key, name, keys in entitlements], f"{P}/entitlements"),
    }
    for name, body in pages.items():
        with open(os.path.join(folder, name), "w") as out:
            json.dump(body, out, indent=2)
            out.write("\n")

write("revenuecat", clean())
write("revenuecat-planted", planted())
