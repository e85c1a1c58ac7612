import Foundation
import TallyModel

/// RevenueCat's offerings as its hybrid SDKs (Flutter, React Native, Unity, Capacitor, through
/// purchases-hybrid-common) hand them to the app, saved as a file: `{all {ID: {identifier,
/// availablePackages [{identifier, packageType, product {identifier, productType,
/// productCategory, subscriptionPeriod, price, ...}}], annual, monthly, ...}}, current}`. Not a
/// REST response: the SDK's view of the offerings, after it loaded the products from the store.
///
/// Each offering of `all` is an offering (the one `current` names is current), each of
/// `availablePackages` a package holding its product (the shortcuts `annual`, `monthly`, ...
/// repeat packages and are not read again). `productType` gives the kind:
/// `AUTO_RENEWABLE_SUBSCRIPTION`; `NON_RENEWABLE_SUBSCRIPTION` and Android's
/// `PREPAID_SUBSCRIPTION` (non-renewing); `NON_CONSUMABLE`; `CONSUMABLE`, which the Android SDK
/// writes for every one-time product (a product with Android's `defaultOption` key is one-time,
/// consumable or not); `subscriptionPeriod` the period. The snapshot has no entitlements, and
/// does not say the store: `android`/`ios` in the file's name does, else each product is looked
/// up in every source.
enum RevenueCatHybridOfferings {
    static func read(_ root: LocatedNode, file: String) throws -> Catalog {
        guard let all = root["all"], case .object(let members) = all.node.value else {
            throw FormatError("expected RevenueCat's hybrid offerings: an object with all (the offerings by ID) and current",
                              file: file, position: root.position)
        }
        let name = (file as NSString).lastPathComponent.lowercased()
        let store: Store? = name.contains("android") ? .googlePlay : name.contains("ios") ? .appStore : nil
        let current = root["current"]?["identifier"]?.nonEmptyText
        var paywall = Paywall(platform: "RevenueCat", statesCurrentOffering: true)
        var known = Set<String>()
        var account = KeyAccount()
        account.check(root, RevenueCatVocabulary.hybridRoot)
        for member in members {
            guard let entry = all[member.key], entry.isObject else { continue }
            account.check(entry, RevenueCatVocabulary.hybridOffering)
            let key = entry["identifier"]?.nonEmptyText ?? member.key
            var offering = PaywallOffering(key: key, isCurrent: key == current, position: entry.position)
            for item in entry["availablePackages"]?.elements ?? [] {
                guard let packageKey = item["identifier"]?.nonEmptyText else {
                    throw FormatError("a package without identifier", file: file, position: item.position, path: item.path)
                }
                account.check(item, RevenueCatVocabulary.hybridPackage)
                var package = PaywallPackage(key: packageKey, position: item.position)
                if let node = item["product"] {
                    guard let idNode = node["identifier"], let id = idNode.nonEmptyText else {
                        throw FormatError("package \(packageKey) of offering \(key) has a product without identifier",
                                          file: file, position: node.position, path: node.path)
                    }
                    package.productKeys = [id]
                    account.check(node, RevenueCatVocabulary.hybridProduct)
                    if known.insert(id).inserted {
                        paywall.products.append(try product(node, id: id, store: store, position: idNode.position, file: file))
                    }
                }
                offering.packages.append(package)
            }
            paywall.offerings.append(offering)
        }
        return PaywallCatalog.build(paywall, file: file, format: .revenueCat, issues: account.issues)
    }

    private static func product(_ node: LocatedNode, id: String, store: Store?, position: Position, file: String) throws -> PaywallProduct {
        var product = PaywallProduct(key: id, storeID: id, store: store, position: position)
        let fromAndroid = node.node.member("defaultOption") != nil || node.node.member("subscriptionOptions") != nil
        if let typeNode = node["productType"], let type = typeNode.text {
            switch type {
            case "AUTO_RENEWABLE_SUBSCRIPTION": product.kind = .subscription
            case "NON_RENEWABLE_SUBSCRIPTION", "PREPAID_SUBSCRIPTION": product.kind = .nonRenewingSubscription
            case "NON_CONSUMABLE": product.kind = .nonConsumable
            case "CONSUMABLE": product.kind = fromAndroid ? .oneTime : .consumable
            case "UNKNOWN": break
            default:
                throw FormatError("product \(id) has productType \"\(type)\"; RevenueCat's hybrid SDKs write AUTO_RENEWABLE_SUBSCRIPTION, "
                                  + "NON_RENEWABLE_SUBSCRIPTION, PREPAID_SUBSCRIPTION, NON_CONSUMABLE, CONSUMABLE and UNKNOWN",
                                  file: file, position: typeNode.position, path: typeNode.path)
            }
            if product.kind != nil { product.kindPosition = typeNode.position }
        }
        if let periodNode = node["subscriptionPeriod"], let text = periodNode.nonEmptyText {
            guard let period = Period(iso8601: text) else {
                throw FormatError("product \(id) has subscriptionPeriod \"\(text)\", which is not an ISO 8601 duration (P1M, P1Y)",
                                  file: file, position: periodNode.position, path: periodNode.path)
            }
            product.period = period
            product.periodPosition = periodNode.position
        }
        return product
    }
}
