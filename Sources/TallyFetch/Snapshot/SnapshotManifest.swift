import Foundation
import TallyFormats

/// What a snapshot folder holds: which store and app, when and from which API host it was
/// fetched, and how many resources of each kind. Saved beside the pages as `tally-snapshot.json`;
/// `tally show DIR` prints its `summary`. Never holds credentials.
public struct SnapshotManifest: Codable, Sendable, Equatable {
    public static let fileName = SnapshotFolder.manifestName
    public static let currentFormat = "tally-snapshot/1"

    public var format: String
    /// `app-store-connect`, `google-play`, ...
    public var store: String
    /// The app the snapshot is of (an App Store Connect app ID, a package name).
    public var app: String
    /// ISO 8601, UTC.
    public var fetchedAt: String
    /// The API's scheme, host and port (no path, no query).
    public var apiHost: String
    public var requests: Int
    public var pages: Int
    /// Resource kind → count (`inAppPurchases`, `subscriptions`, ...).
    public var counts: [String: Int]
    /// The files the fetch wrote beside the manifest: all a later fetch may replace. (Absent in
    /// manifests written before Tally listed them; then only `NNNN-name.json` pages count as its own.)
    public var files: [String]?
    /// Which endpoint gave a kind of resource where the API offers two, kind → endpoint → how many
    /// products or groups: App Store Connect's `localizations` (`versions`, API 4.4.1; `older`, the
    /// endpoints before it; `none`) and `planAvailabilities` (`planAvailabilities`; `notFound`, an API
    /// before 4.4). Absent in manifests of fetches that made no such choice.
    public var endpoints: [String: [String: Int]]?

    public init(store: String, app: String, fetchedAt: Date, apiHost: String, requests: Int, pages: Int, counts: [String: Int],
                endpoints: [String: [String: Int]]? = nil) {
        format = Self.currentFormat
        self.store = store
        self.app = app
        self.fetchedAt = Self.timestamp(fetchedAt)
        self.apiHost = apiHost
        self.requests = requests
        self.pages = pages
        self.counts = counts
        self.endpoints = endpoints
    }

    /// A time as the manifest writes it: ISO 8601, UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Labels for the counts of the stores Tally fetches, in the order the summary gives them.
    public static let countLabels: [(key: String, one: String, many: String)] = [
        ("inAppPurchases", "in-app purchase", "in-app purchases"),
        ("subscriptionGroups", "subscription group", "subscription groups"),
        ("subscriptions", "subscription", "subscriptions"),
        ("subscriptionPrices", "subscription price", "subscription prices"),
        ("manualPrices", "in-app purchase price set by hand", "in-app purchase prices set by hand"),
        ("automaticPrices", "in-app purchase price derived by Apple", "in-app purchase prices derived by Apple"),
        ("introductoryOffers", "introductory offer", "introductory offers"),
        ("promotionalOffers", "promotional offer", "promotional offers"),
        ("winBackOffers", "win-back offer", "win-back offers"),
        ("offerCodes", "offer code", "offer codes"),
        ("multiSeatSubscriptions", "multi-seat subscription", "multi-seat subscriptions"),
        ("seatTierPrices", "seat tier price", "seat tier prices"),
        ("planAvailabilities", "billing plan availability", "billing plan availabilities"),
        ("planTerritories", "territory of a billing plan", "territories of billing plans"),
        ("monthlyPrices", "monthly plan price", "monthly plan prices"),
        ("versions", "metadata version", "metadata versions"),
        ("localizations", "localization", "localizations"),
        ("pricePoints", "price point", "price points"),
        ("basePlans", "base plan", "base plans"),
        ("subscriptionOffers", "subscription offer", "subscription offers"),
        ("oneTimeProducts", "one-time product", "one-time products"),
        ("oneTimeProductOffers", "one-time product offer", "one-time product offers"),
        ("inAppProducts", "legacy in-app product", "legacy in-app products"),
        ("apps", "app", "apps"), ("products", "product", "products"), ("offerings", "offering", "offerings"),
        ("entitlements", "entitlement", "entitlements"),
    ]

    static let storeNames = ["app-store-connect": "App Store Connect", "google-play": "Google Play", "revenuecat": "RevenueCat"]

    /// "App Store Connect snapshot of app 1600000001, fetched 2026-05-01T09:30:00Z from
    /// https://api.appstoreconnect.apple.com: 8 in-app purchases, 2 subscription groups, ... (52 requests)".
    public var summary: String {
        var parts: [String] = []
        var listed = Set<String>()
        for label in Self.countLabels {
            guard let count = counts[label.key] else { continue }
            parts.append("\(count) \(count == 1 ? label.one : label.many)")
            listed.insert(label.key)
        }
        for key in counts.keys.sorted() where !listed.contains(key) { parts.append("\(counts[key] ?? 0) \(key)") }
        let store = Self.storeNames[self.store] ?? self.store
        let what = parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
        return "\(store) snapshot of app \(app), fetched \(fetchedAt) from \(apiHost)\(what) (\(requests) request\(requests == 1 ? "" : "s"))"
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The manifest of a snapshot folder; nil when `path` is not a folder with one (or it cannot be read).
    public static func read(folder path: String) -> SnapshotManifest? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        let file = URL(fileURLWithPath: path).appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(SnapshotManifest.self, from: data)
    }
}
