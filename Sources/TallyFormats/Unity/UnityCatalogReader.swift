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
        let table = Self.localeTable(list.elements)
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
                    product.soleStore = .googlePlay
                    product.storeIDs[.googlePlay] = googleID?.0
                } else {
                    product.storeIDs[.googlePlay] = googleID?.0 ?? ""
                }
            } else {
                let playID = googleID?.0 ?? id
                if playID != product.id { product.storeIDs[.googlePlay] = playID }
            }
            // `defaultDescription`, then the translations (`descriptions`), one localization per locale.
            for (index, description) in ([entry["defaultDescription"]].compactMap({ $0 }) + (entry["descriptions"]?.elements ?? [])).enumerated() {
                account.check(description, Self.descriptionKeys)
                let localeNode = description["googleLocale"]
                var locale = localeNode?.int.flatMap { table.indices.contains($0) ? table[$0] : nil }
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

    /// Unity IAP's `TranslationLocale`, whose value a catalogue stores as its index (`googleLocale`).
    /// Unity renumbered it: the first IAP packages listed 32 locales from `zh_TW` (`en_US` = 4,
    /// `ru_RU` = 16), later ones list 88 in alphabetical order of their names (`en_US` = 21, 4 is
    /// Armenian). Both are in real catalogues (issue 50: a Russian translation at 16 beside a default
    /// at 4), and the file does not say which it was written with: `localeTable` tells them apart.
    static let locales: [String] = [
        "af_ZA", "sq_SQ", "am_ET", "ar_AE", "hy_AM", "az_AZ", "bn_BD", "eu_ES", "be_BY", "bg_BG", "my_MM", "ca_CA",
        "zh_HK", "zh_CN", "zh_TW", "hr_HR", "cs_CZ", "da_DK", "nl_NL", "en_AU", "en_CA", "en_US", "en_GB", "en_IN",
        "en_SG", "en_ZA", "et_EE", "fil_FIL", "fi_FI", "fr_CA", "fr_FR", "gl_ES", "ka_GE", "de_DE", "el_GR", "gu_IN",
        "iw_IL", "hi_IN", "hu_HU", "is_IS", "id_ID", "it_IT", "ja_JP", "kn_IN", "kk_KZ", "km_KH", "ko_KR", "ky_KG",
        "lo_LA", "lv_LV", "lt_LT", "mk_MK", "ms_MY", "ms_MS", "ml_IN", "mr_IN", "mn_MN", "ne_NP", "no_NO", "fa_FA",
        "fa_AE", "fa_AF", "fa_IR", "pl_PL", "pt_BR", "pt_PT", "pa_IN", "ro_RO", "rm_CH", "ru_RU", "sr_RS", "si_LK",
        "sk_SK", "sl_SI", "es_419", "es_ES", "es_MX", "es_US", "sw_KE", "sv_SE", "ta_IN", "te_IN", "th_TH", "tr_TR",
        "uk_UA", "ur_UZ", "vi_VN", "zu_ZA",
    ]

    /// The first numbering (Unity IAP 1.x `ProductCatalog.cs`).
    static let firstLocales: [String] = [
        "zh_TW", "cs_CZ", "da_DK", "nl_NL", "en_US", "fr_FR", "fi_FI", "de_DE", "iw_IL", "hi_IN", "it_IT", "ja_JP",
        "ko_KR", "no_NO", "pl_PL", "pt_PT", "ru_RU", "es_ES", "sv_SE", "zh_CN", "en_AU", "en_CA", "en_GB", "fr_CA",
        "el_GR", "id_ID", "ms_MY", "pt_BR", "es_MX", "th_TH", "tr_TR", "vi_VN",
    ]

    /// Which numbering a catalogue's `googleLocale`s use: the first one where the default
    /// descriptions (Unity writes `en_US` there unless the team changed it) are 4, never 21, and no
    /// locale is past the first list's 32; else the later one.
    static func localeTable(_ products: [LocatedNode]) -> [String] {
        var defaults = Set<Int>()
        var all = Set<Int>()
        for entry in products {
            if let value = entry["defaultDescription"]?["googleLocale"]?.int { defaults.insert(value); all.insert(value) }
            for description in entry["descriptions"]?.elements ?? [] {
                if let value = description["googleLocale"]?.int { all.insert(value) }
            }
        }
        let first = defaults.contains(4) && !defaults.contains(21) && all.allSatisfy { $0 < firstLocales.count }
        return first ? firstLocales : locales
    }
}
