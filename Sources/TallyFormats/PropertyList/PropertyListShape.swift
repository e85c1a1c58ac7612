import TallyModel

/// Whether a property list is a product list, decided by what it holds: the one answer the
/// reader, `tally init`'s scan, the policy's globs and the default folders share.
///
/// Apps keep many property lists beside their products (`Info.plist`, entitlements, Xcode's
/// scheme and workspace lists, the privacy manifest, Firebase's `GoogleService-Info.plist`,
/// export options). None of them is a product list, however much a dictionary of strings looks
/// like one. A property list is a product list only in the shapes real apps use for products:
/// a non-empty list of IDs or product dictionaries; StoreHelper's `Products`/`Subscriptions`;
/// a dictionary whose keys look like product IDs and whose values describe products.
public enum PropertyListShape: Sendable, Equatable {
    /// A product list.
    case products
    /// Not a product list: what it is, for the reader's error ("an app's Info.plist (CFBundleIdentifier, ...)").
    case other(String)

    /// Root keys (exact) that only non-product property lists carry.
    static let foreignKeys: Set<String> = [
        // Firebase (GoogleService-Info.plist)
        "API_KEY", "GOOGLE_APP_ID", "GCM_SENDER_ID", "PLIST_VERSION", "BUNDLE_ID", "PROJECT_ID", "STORAGE_BUCKET",
        "CLIENT_ID", "REVERSED_CLIENT_ID", "ANDROID_CLIENT_ID", "DATABASE_URL", "IS_ADS_ENABLED", "IS_ANALYTICS_ENABLED",
        // xcodebuild export options
        "method", "teamID", "signingStyle", "uploadSymbols", "uploadBitcode", "compileBitcode", "provisioningProfiles",
        "signingCertificate", "destination", "thinning", "stripSwiftSymbols",
        // Xcode's scheme management and workspace lists, and its performance-test baselines (.xcbaseline)
        "SchemeUserState", "SuppressBuildableAutocreation", "BuildLocationStyle", "DerivedDataLocationStyle",
        "classNames", "runDestinationsByUUID",
        // App Center, AdMob and other SDK configuration lists
        "AppSecret", "MinimumOSVersion", "aps-environment",
    ]

    /// Root key prefixes of Apple's bundle, entitlement and privacy keys, and of Xcode's own lists.
    static let foreignPrefixes = ["CF", "NS", "UI", "LS", "DT", "MK", "WK", "GID", "GAD", "IDE", "com.apple.", "keychain-access-groups",
                                  "application-identifier", "get-task-allow", "BuildSystemType", "Xcode", "Sketch"]

    /// What kind of non-product list a key names, for the message.
    static func family(of key: String) -> String {
        if key.hasPrefix("NSPrivacy") { return "a privacy manifest" }
        if key.hasPrefix("CF") || key.hasPrefix("UI") || key.hasPrefix("LS") || key.hasPrefix("NS") || key.hasPrefix("DT")
            || key == "MinimumOSVersion" { return "a bundle's Info.plist" }
        if key.hasPrefix("com.apple.") || key == "aps-environment" || key == "keychain-access-groups" { return "an entitlements list" }
        if key.hasPrefix("IDE") || key == "SchemeUserState" || key == "SuppressBuildableAutocreation" { return "an Xcode workspace or scheme list" }
        if key == "classNames" || key == "runDestinationsByUUID" { return "an Xcode performance-test baseline (.xcbaseline)" }
        if ["API_KEY", "GOOGLE_APP_ID", "GCM_SENDER_ID", "PLIST_VERSION", "BUNDLE_ID", "PROJECT_ID"].contains(key) { return "a Firebase configuration" }
        if ["method", "teamID", "signingStyle", "uploadSymbols", "provisioningProfiles"].contains(key) { return "xcodebuild's export options" }
        return "an app or SDK configuration list"
    }

    static func isForeign(_ key: String) -> Bool {
        foreignKeys.contains(key) || foreignPrefixes.contains { key.hasPrefix($0) && key.count > $0.count && isBoundary(key, after: $0) }
    }

    /// `CFBundleName` starts with `CF` as a word (`CF` then an upper-case letter); `cfg.pro` does not.
    private static func isBoundary(_ key: String, after prefix: String) -> Bool {
        if prefix.hasSuffix(".") || prefix.contains("-") || prefix.count > 3 { return true }
        guard let next = key.dropFirst(prefix.count).unicodeScalars.first else { return false }
        return next.properties.isUppercase
    }

    /// Whether a dictionary key has the shape of a product ID: ID characters only, and either a
    /// separator (`com.app.pro`, `remove_ads`, `pro-monthly`) with a lower-case letter, or lower-case
    /// letters and digits only (`premium`). `API_KEY` and `AppSecret` are not.
    static func looksLikeProductID(_ key: String) -> Bool {
        guard !key.isEmpty, key.unicodeScalars.allSatisfy(PropertyListReader.isIDCharacter) else { return false }
        let hasLower = key.unicodeScalars.contains { $0.properties.isLowercase }
        guard hasLower else { return false }
        if key.contains(".") || key.contains("_") || key.contains("-") { return true }
        return !key.unicodeScalars.contains { $0.properties.isUppercase }
    }

    /// The shape of a parsed property list's root.
    static func of(_ root: DocNode) -> PropertyListShape {
        switch root.value {
        case .array(let elements):
            guard !elements.isEmpty else { return .other("an empty list") }
            for element in elements {
                switch element.value {
                case .scalar(let text, .string) where looksLikeListedID(text): continue
                case .object(let members) where members.contains(where: { PropertyListProducts.idKeys.contains($0.key) }): continue
                default: return .other("a list whose elements are not product IDs or product dictionaries")
                }
            }
            return .products
        case .object(let members):
            if let foreign = members.first(where: { isForeign($0.key) }) {
                return .other("\(family(of: foreign.key)) (it holds \(foreign.key))")
            }
            if let products = members.first(where: { $0.key == "Products" })?.node, case .array = products.value { return .products }
            guard !members.isEmpty else { return .other("an empty dictionary") }
            for member in members {
                // A product dictionary may be keyed by any ID when it describes a product (a title,
                // a type, a price); otherwise, and for a display name, the key must be shaped like an ID.
                let describesProduct: Bool
                if case .object(let fields) = member.node.value {
                    describesProduct = fields.contains { productKeys.contains($0.key) }
                } else {
                    describesProduct = false
                }
                guard describesProduct ? looksLikeListedID(member.key) : looksLikeProductID(member.key) else {
                    return .other("a dictionary whose key \"\(member.key)\" is not a product ID, and no Products key")
                }
                switch member.node.value {
                case .object, .scalar(_, .string): continue
                case .array: return .other("a dictionary whose key \"\(member.key)\" holds a list, and no Products key")
                case .scalar(_, let kind): return .other("a dictionary whose key \"\(member.key)\" holds \(kind.article), and no Products key")
                }
            }
            return .products
        case .scalar(_, let kind):
            return .other("the whole file is \(kind.article)")
        }
    }

    /// Keys of a dictionary that describes a product (StoreHelper's, Apple's samples', the reader's own).
    static let productKeys: Set<String> = [
        "Title", "title", "Description", "description", "Name", "name", "displayName", "DisplayName",
        "consumable", "Consumable", "isConsumable", "ProductType", "productType", "Type", "type",
        "Tier", "tier", "Price", "price", "Emoji", "emoji", "Image", "image",
    ]

    /// A product ID in a list: ID characters, not empty.
    private static func looksLikeListedID(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(PropertyListReader.isIDCharacter)
    }
}
