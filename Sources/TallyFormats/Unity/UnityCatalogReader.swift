import Foundation
import TallyModel

/// Reads Unity IAP's product catalogue (`Assets/Resources/IAPProductCatalog.json`, written by
/// the IAP Catalog window through `JsonUtility`), with no mapping file:
/// `{appleSKU, appleTeamID, enableCodelessAutoInitialization, products[]}`, each product
/// `{id, type (0 consumable, 1 non-consumable, 2 subscription), storeIDs[] {store, id},
/// defaultDescription {googleLocale, title, description}, applePriceTier, googlePrice {data, num}, ...}`.
///
/// The App Store product ID is the `AppleAppStore` (else `MacAppStore`) entry of `storeIDs`, else
/// `id`; the Google Play identity is the `GooglePlay` entry, else `id`. `applePriceTier` (1 and
/// up; 0 is the catalogue's "not set") is an App Store price tier, an amount only through
/// `--price-tiers`. `googlePrice` has no currency in the file, so it is named on standard error
/// and not compared. See docs/formats-builtin.md.
public enum UnityCatalogReader: SourceReader {
    public static let format = SourceFormat.unityIAP
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("unity-iap", file: "IAPProductCatalog.json")]

    /// Unity's catalogue keys: `products` with `storeIDs`/`applePriceTier`/`googlePrice`, or the
    /// top-level `appleSKU`/`enableCodelessAutoInitialization` the IAP Catalog window writes first.
    public static func sniff(_ head: String, file: String) -> Bool {
        guard head.contains("\"products\"") || head.contains("\"appleSKU\"") else { return false }
        return head.contains("\"enableCodelessAutoInitialization\"") || head.contains("\"appleSKU\"")
            || (head.contains("\"storeIDs\"") && (head.contains("\"applePriceTier\"") || head.contains("\"googlePrice\"") || head.contains("\"defaultDescription\"")))
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
        guard root.isObject, let list = root["products"], list.isArray else {
            throw FormatError("expected Unity IAP's IAPProductCatalog.json: an object with a products list", file: file, position: root.position)
        }
        var products: [Product] = []
        var issues: [SourceIssue] = []
        var account = KeyAccount()
        account.check(root, Self.rootKeys)
        for entry in list.elements {
            guard entry.isObject else {
                throw FormatError("expected a product (an object), found \(entry.article)", file: file, position: entry.position, path: entry.path)
            }
            account.check(entry, Self.productKeys)
            var storeIDs: [String: (String, LocatedNode)] = [:]
            var stores: [String] = []
            for storeID in entry["storeIDs"]?.elements ?? [] {
                account.check(storeID, Self.storeIDKeys)
                guard let store = storeID["store"]?.text, let value = storeID["id"]?.nonEmptyText else { continue }
                if storeIDs[store] == nil {
                    storeIDs[store] = (value, storeID)
                    stores.append(store)
                }
            }
            let appleID = storeIDs["AppleAppStore"] ?? storeIDs["MacAppStore"]
            let googleID = storeIDs["GooglePlay"]
            let idNode = entry["id"]
            let id: String
            if let text = idNode?.nonEmptyText {
                id = text
            } else if let (storeID, node) = appleID ?? googleID {
                // No id, but a store ID: the product is that store's (Unity's runtime skips it, so say so).
                id = storeID
                let named = stores.compactMap { store in storeIDs[store].map { "\(store) \($0.0)" } }.joined(separator: ", ")
                issues.append(SourceIssue(rule: .invalidID, productID: storeID, field: .id,
                                          message: "the product's id is empty; it is read under its store ID (\(named)), but Unity IAP's "
                                              + "ProductCatalog.allValidProducts leaves out a product with an empty id, so the app may never offer it",
                                          position: idNode?.position ?? node.position, path: idNode?.path ?? node.path))
            } else {
                // Unity's runtime skips such products too (ProductCatalog.allValidProducts).
                let others = stores.isEmpty ? "" : " (its only store IDs are for \(stores.joined(separator: ", ")), stores Tally does not compare)"
                issues.append(SourceIssue(rule: .invalidID, productID: nil, field: .id,
                                          message: "a product with an empty id\(others): Unity IAP ignores it, and so does Tally", position: entry.position, path: entry.path))
                continue
            }
            var product = Product(id: id, kind: .consumable, position: entry.position, path: nil)
            product.fieldPositions[.id] = idNode?.position ?? entry.position
            let typeNode = entry["type"]
            switch typeNode?.int ?? 0 {
            case 0: product.kind = .consumable
            case 1: product.kind = .nonConsumable
            case 2: product.kind = .autoRenewableSubscription
            default:
                throw FormatError("product \(id) has type \(typeNode?.text ?? "?"); Unity's ProductType is 0 (Consumable), 1 (NonConsumable) or 2 (Subscription)",
                                  file: file, position: typeNode?.position ?? entry.position, path: typeNode?.path)
            }
            if let typeNode { product.fieldPositions[.kind] = typeNode.position }
            if let (storeID, node) = appleID {
                product.id = storeID
                product.fieldPositions[.id] = node.position
            }
            if idNode?.nonEmptyText == nil {
                // Without an id, a store with no store ID of its own does not sell the product.
                if appleID == nil {
                    product.isGooglePlayOnly = true
                    product.googlePlayID = googleID?.0
                } else {
                    product.googlePlayID = googleID?.0 ?? ""
                }
            } else {
                let playID = googleID?.0 ?? id
                if playID != product.id { product.googlePlayID = playID }
            }
            // `defaultDescription`, then the translations (`descriptions`), one localization per locale.
            for (index, description) in ([entry["defaultDescription"]].compactMap({ $0 }) + (entry["descriptions"]?.elements ?? [])).enumerated() {
                account.check(description, Self.descriptionKeys)
                let localeNode = description["googleLocale"]
                var locale = localeNode?.int.flatMap { Self.locales[$0] }
                if locale == nil, index == 0, entry["defaultDescription"] != nil { locale = "en_US" }
                guard let locale else {
                    issues.append(SourceIssue(rule: .unknownContent, productID: id, field: .localizations,
                                              message: "a translation of product \(id) has googleLocale \(localeNode?.text ?? "(none)"), a Unity locale Tally does not know: it is not read",
                                              position: localeNode?.position ?? description.position, path: localeNode?.path ?? description.path))
                    continue
                }
                guard !product.localizations.contains(where: { $0.locale == locale }) else { continue }
                product.localizations.append(Localization(locale: locale, displayName: description["title"]?.text,
                                                          description: description["description"]?.text))
            }
            readTier(entry, options: options, into: &product, issues: &issues)
            if let google = entry["googlePrice"] { account.check(google, Self.priceKeys) }
            if let google = entry["googlePrice"], let amount = Self.decimal(google), amount != 0 {
                issues.append(SourceIssue(rule: .price, productID: product.id, field: .prices,
                                          message: "googlePrice \(MachineText.decimal(amount)) is the Google Play default price, in a currency the file does not name",
                                          position: google.position, path: google.path))
            }
            products.append(product)
        }
        var known: Set<Field> = [.id, .kind]
        if options.priceTiers != nil { known.insert(.prices) }
        return Catalog(file: file, format: .unityIAP, defaultTerritory: .usa, products: products, groups: [], knownFields: known,
                       issues: issues + account.issues)
    }

    /// `applePriceTier`: the App Store tier (index into Unity's tier list, 0 = not set), an
    /// amount through the price-tier table when one is given.
    private static func readTier(_ entry: LocatedNode, options: ReadOptions, into product: inout Product, issues: inout [SourceIssue]) {
        guard let node = entry["applePriceTier"], let tier = node.int, tier >= 1 else { return }
        product.priceTier = tier
        product.fieldPositions[.prices] = node.position
        guard let table = options.priceTiers else { return }
        guard let entries = table.entries(tier: tier) else {
            issues.append(SourceIssue(rule: .invalidPrice, productID: product.id, field: .prices,
                                      message: "price tier \(tier) is not in the price-tier table \(table.file), so it has no amount",
                                      position: node.position, path: node.path))
            return
        }
        product.prices = entries.map {
            Price(territory: $0.territory, money: Money(amount: $0.amount, currency: $0.territory.currency), position: node.position)
        }
    }

    /// A Unity `Price`'s value: `data` is `decimal.GetBits` (three 32-bit mantissa words, then
    /// flags with the scale in bits 16–23 and the sign in bit 31); `num`, a double, only when
    /// `data` is absent.
    static func decimal(_ price: LocatedNode) -> Decimal? {
        let words = price["data"]?.elements.compactMap { $0.text.flatMap { Int64($0) } } ?? []
        guard words.count == 4 else { return price["num"]?.text.flatMap { DecimalText.parse($0) } }
        var mantissa = Decimal(0)
        for word in words[0..<3].reversed() {
            mantissa = mantissa * Decimal(4_294_967_296) + Decimal(UInt32(truncatingIfNeeded: word))
        }
        let flags = UInt32(truncatingIfNeeded: words[3])
        let scale = Int((flags >> 16) & 0xFF)
        guard scale <= 28 else { return nil }  // .NET's decimal scale is 0–28
        let value = mantissa * Decimal(sign: .plus, exponent: -scale, significand: 1)
        return flags & 0x8000_0000 != 0 ? -value : value
    }

    /// The keys Unity's `ProductCatalog` writes (`JsonUtility`, every version seen).
    static let rootKeys = KeyVocabulary(
        nil, read: ["products"],
        // The app's SKU and team for Unity's App Store XML export, and whether the runtime
        // initialises IAP by itself: about the app, not its products.
        ignored: ["appleSKU", "appleTeamID", "enableCodelessAutoInitialization", "enableUnityGamingServicesAutoInitialization"])

    static let productKeys = KeyVocabulary(
        "product",
        read: ["id", "type", "storeIDs", "defaultDescription", "descriptions", "applePriceTier", "googlePrice"],
        // A review screenshot's path on the developer's machine; prices for stores Tally does
        // not compare (Xiaomi's tier, the Unity Distribution Portal's price); Google Play's
        // pricing template (a name, not a price); what a purchase gives in the game (`payouts`).
        ignored: ["screenshotPath", "xiaomiPriceTier", "udpPrice", "pricingTemplateID", "payouts"])

    static let storeIDKeys = KeyVocabulary("storeIDs entry", read: ["store", "id"])
    static let descriptionKeys = KeyVocabulary("description", read: ["googleLocale", "title", "description"])
    /// `googlePrice`: `decimal.GetBits` words, and the same amount as a double.
    static let priceKeys = KeyVocabulary("googlePrice", read: ["data", "num"])

    /// Unity's `TranslationLocale` indexes for the common locales.
    static let locales: [Int: String] = [
        13: "zh_CN", 14: "zh_TW", 17: "da_DK", 18: "nl_NL", 21: "en_US", 22: "en_GB", 30: "fr_FR", 33: "de_DE",
        41: "it_IT", 42: "ja_JP", 46: "ko_KR", 63: "pl_PL", 64: "pt_BR", 69: "ru_RU", 75: "es_ES",
    ]
}
