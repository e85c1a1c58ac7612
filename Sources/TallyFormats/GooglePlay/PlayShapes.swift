import Foundation
import TallyModel

/// The shapes of Google Play files that are told by their keys rather than by a marker key:
/// gradle-play-publisher's one-resource-per-file folders (`play/products/NAME.json`, a legacy
/// `InAppProduct`, which may be just `{"sku": ...}`; `play/subscriptions/NAME.json`, a
/// `Subscription`, which may be just `{packageName, productId}`, with its `NAME.metadata.json`),
/// and API responses saved wrapped or several to a file, which Tally refuses by name.
enum PlayShapes {
    /// Every key of the legacy `InAppProduct` resource (androidpublisher v3).
    static let inAppProductKeys: Set<String> = [
        "packageName", "sku", "status", "purchaseType", "defaultPrice", "prices", "listings", "defaultLanguage",
        "subscriptionPeriod", "trialPeriod", "gracePeriod", "season", "subscriptionTaxesAndComplianceSettings",
        "managedProductTaxesAndComplianceSettings",
    ]
    /// Keys only an `InAppProduct` has: a file cut before its `sku` is one when it starts with them.
    static let inAppProductOnlyKeys: Set<String> = [
        "purchaseType", "defaultPrice", "defaultLanguage", "subscriptionTaxesAndComplianceSettings", "managedProductTaxesAndComplianceSettings",
    ]
    /// Every key of the `Subscription` resource (monetization.subscriptions).
    static let subscriptionKeys: Set<String> = [
        "packageName", "productId", "basePlans", "listings", "archived", "taxAndComplianceSettings", "restrictedPaymentCountries",
    ]
    /// The list keys of the API's list responses.
    static let listKeys: Set<String> = ["subscriptions", "subscriptionOffers", "oneTimeProducts", "inappproduct", "oneTimeProductOffers"]
    /// gradle-play-publisher's folders inside `play/`, each of one-resource files.
    static let gradlePlayPublisherFolders = ["products", "subscriptions"]
    /// The suffix of gradle-play-publisher's subscription metadata files (`NAME.metadata.json`).
    static let metadataSuffix = ".metadata.json"

    // MARK: - Recognising a file from its head

    /// The keys of a JSON document's top-level object, as far as `head` goes, and whether the
    /// object ends within it; nil when `head` does not start with an object.
    static func rootKeys(_ head: String) -> (keys: [String], complete: Bool)? {
        let bytes = Array(head.utf8)
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        var keys: [String] = []
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                var escaped = false
                while index < bytes.count, escaped || bytes[index] != UInt8(ascii: "\"") {
                    escaped = !escaped && bytes[index] == UInt8(ascii: "\\")
                    index += 1
                }
                guard index < bytes.count else { return (keys, false) }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                skipSpace()
                if depth == 1, index < bytes.count, bytes[index] == UInt8(ascii: ":") { keys.append(text) }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return (keys, true) }
            default:
                break
            }
            index += 1
        }
        return (keys, false)
    }

    /// Whether the head is one gradle-play-publisher file: a legacy `InAppProduct` (every key an
    /// `InAppProduct` key, with `sku`, or cut before it after keys only such a product has), a
    /// `Subscription` with its `packageName` (every key a `Subscription` key), or a subscription's
    /// metadata (`{"regionsVersion": ...}`, refused by name when named on its own).
    static func isGradlePlayPublisherFile(_ head: String) -> Bool {
        guard let (keys, complete) = rootKeys(head), !keys.isEmpty else { return false }
        let set = Set(keys)
        if set.isSubset(of: inAppProductKeys), set.contains("sku") || (!complete && !set.isDisjoint(with: inAppProductOnlyKeys)) { return true }
        if set.isSubset(of: subscriptionKeys), set.contains("productId"), set.contains("packageName") { return true }
        return complete && set == ["regionsVersion"]
    }

    // MARK: - Responses saved wrapped, or several to a file

    /// Whether a value is a Google Play API response as the API sends it: a list page, one
    /// catalogue resource, a purchase or another `androidpublisher#` resource, or an error.
    static func isResponse(_ node: DocNode) -> Bool {
        guard case .object(let members) = node.value else { return false }
        let keys = Set(members.map(\.key))
        if !keys.isDisjoint(with: listKeys) { return true }
        if let kind = node.member("kind")?.scalarText, kind.hasPrefix("androidpublisher#") { return true }
        if node.member("error")?.kind == .object { return true }
        if keys.contains("productId"), keys.contains("basePlans") || keys.contains("purchaseOptions") { return true }
        if keys.contains("offerId"), keys.contains("phases") { return true }
        return keys.contains("sku") && keys.isSubset(of: inAppProductKeys)
    }

    /// The member under which an object wraps a response (`response` in `{productId, status,
    /// response}`), when it is not a response itself and holds exactly one; nil otherwise.
    static func wrappingKey(_ node: DocNode) -> String? {
        guard case .object(let members) = node.value, !isResponse(node) else { return nil }
        let wrapped = members.filter { isResponse($0.node) }
        return wrapped.count == 1 ? wrapped.first?.key : nil
    }

    /// What a list of values holds, when some are responses or wrapped responses.
    struct Responses {
        var count = 0
        /// One wrapper and the key its response is under, when the responses are wrapped.
        var wrapper: (node: DocNode, key: String)?
        /// The first response (unwrapped), to say what kind of response the file holds.
        var sample: DocNode?

        mutating func add(_ node: DocNode) {
            if let key = PlayShapes.wrappingKey(node) {
                count += 1
                if wrapper == nil { wrapper = (node, key) }
                if sample == nil { sample = node.member(key) }
            } else if PlayShapes.isResponse(node) {
                count += 1
                if sample == nil { sample = node }
            }
        }
    }

    /// The sentence that refuses a file of responses saved wrapped or several together: what the
    /// file holds, how many, how each is wrapped, and how Tally reads responses instead.
    static func refusal(_ responses: Responses, in container: String) -> String {
        let count = responses.count
        var text = "not a Google Play API page: this file holds \(count == 1 ? "a Google Play API response" : "\(count) Google Play API responses")"
        if !container.isEmpty { text += " \(container)" }
        if let (wrapper, key) = responses.wrapper {
            let keys = members(wrapper).map(\.key).prefix(8).joined(separator: ", ")
            text += count == 1 ? ", wrapped in an object with the keys \(keys) (the response is under \"\(key)\")"
                : ", each wrapped in an object (the first with the keys \(keys); the response under \"\(key)\")"
        }
        text += count == 1 ? ", not the response as the API sent it" : ", not one response as the API sent it"
        if let kind = responses.sample?.member("kind")?.scalarText, kind.hasPrefix("androidpublisher#"), kind.lowercased().contains("purchase") {
            text += count == 1 ? "; it is a purchase (\(kind)), not a product" : "; they are purchases (\(kind)), not products"
        }
        return text + ": Tally reads each response saved as the API sent it, one per .json file (a folder of them is one source)"
    }

    static func members(_ node: DocNode) -> [(key: String, node: DocNode)] {
        if case .object(let members) = node.value { return members }
        return []
    }

    // MARK: - gradle-play-publisher folders

    /// The `.json` and `.csv` pages of a folder Tally reads as one Google Play source, in name
    /// order: the folder's own, then those of gradle-play-publisher's `products/` and
    /// `subscriptions/` inside it (a `play/` folder), as `products/NAME.json`. A subscription's
    /// `NAME.metadata.json` beside its `NAME.json` is not a page (it holds `regionsVersion`).
    static func pageNames(in path: String) -> [String] {
        var names = withoutMetadata(SnapshotFolder.pageNames(in: path, extensions: ["json", "csv"]))
        let manager = FileManager.default
        for folder in gradlePlayPublisherFolders {
            let sub = (path as NSString).appendingPathComponent(folder)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: sub, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            names += withoutMetadata(SnapshotFolder.pageNames(in: sub, extensions: ["json"])).map { "\(folder)/\($0)" }
        }
        return names
    }

    /// The names without `NAME.metadata.json` where `NAME.json` is among them.
    static func withoutMetadata(_ names: [String]) -> [String] {
        let all = Set(names)
        return names.filter { name in
            guard name.lowercased().hasSuffix(metadataSuffix) else { return true }
            return !all.contains(String(name.dropLast(metadataSuffix.count)) + ".json")
        }
    }
}
