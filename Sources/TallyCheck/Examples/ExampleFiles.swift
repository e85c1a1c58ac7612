import TallyModel

// Builders for the rule examples' files: the skeleton of each format written once, so that an
// example states only its products, groups and the value it turns on. Each builder writes the text
// exactly as it stands in docs/rules.md (`RulesPageTests` fails on a changed byte).

extension RuleExample.File {
    /// A StoreKit configuration (`App.storekit`) as Xcode writes it, in Xcode's key order:
    /// `{"products": [...], "settings": {"_storefront": "USA"}, "subscriptionGroups": [...], "version": ...}`,
    /// a product or a subscription a line.
    static func storeKit(
        _ name: String = "App.storekit", storefront: String = "USA", products: [StoreKitEntry] = [],
        groups: [StoreKitEntry] = []
    ) -> Self {
        .file(name, """
            {
              "products": \(StoreKitEntry.list(products)),
              "settings": {"_storefront": "\(storefront)"},
              "subscriptionGroups": \(StoreKitEntry.list(groups)),
              "version": {"major": 3, "minor": 0}
            }
            """)
    }

    /// A `tally-catalog/1` catalogue: its products, then its subscription groups (`subscriptions`
    /// are one group's, `group`; `groups` are more, from `CatalogExample.group`). Each entry is a
    /// YAML list item without its dash (`{id: …, kind: consumable}`), its further lines indented
    /// as under the first.
    static func catalog(
        _ name: String = "catalog.yaml", products: [String] = [], group: String = "pro", subscriptions: [String] = [],
        groups: [String] = []
    ) -> Self {
        let groups = (subscriptions.isEmpty ? [] : [CatalogExample.group(group, subscriptions)]) + groups
        var text = "format: tally-catalog/1"
        if !products.isEmpty { text += "\nproducts:\n" + CatalogExample.items(products) }
        if !groups.isEmpty { text += "\nsubscription_groups:\n" + CatalogExample.items(groups) }
        return .file(name, text)
    }

    /// Qonversion's products export (`qonversion-products.json`), a product a line.
    static func qonversionProducts(_ products: String...) -> Self {
        .file("qonversion-products.json", """
            {
              "object": "list",
              "data": [
            \(products.map { "    " + $0 }.joined(separator: ",\n"))
              ]
            }
            """)
    }
}

/// Google Play's subscriptions export (`subscriptions.json`, the Play Developer API's list):
/// `PlayExample.subscription`s and their base plans.
enum PlayExample {
    /// The file: `{"subscriptions": [...]}`.
    static func file(_ subscriptions: String...) -> RuleExample.File {
        .file("subscriptions.json", "{\n  \"subscriptions\": [\n" + indented(subscriptions.joined(separator: ",\n")) + "\n  ]\n}")
    }

    /// A subscription (`productId`) and its base plans.
    static func subscription(_ productID: String, _ basePlans: String...) -> String {
        "{\n  \"productId\": \"\(productID)\",\n  \"basePlans\": [\n" + indented(basePlans.joined(separator: ",\n")) + "\n  ]\n}"
    }

    /// An active auto-renewing base plan priced in the US at `units`.99 dollars, as two lines.
    static func basePlan(_ id: String, period: String, units: String) -> String {
        #"""
        {"basePlanId": "\#(id)", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "\#(period)"},
         "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "\#(units)", "nanos": 990000000}}]}
        """#
    }

    /// Each line four spaces in.
    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}

/// A line (or, for a group, lines) of a StoreKit configuration's `products` or `subscriptionGroups`.
struct StoreKitEntry: Sendable {
    var text: String

    /// A product; `extra` is more of its keys (`"colour": "blue"`), after the usual ones.
    static func product(
        _ id: String, _ type: String = "Consumable", price: String, familyShareable: Bool = false, extra: String? = nil
    ) -> Self {
        Self(text: #"{"productID": "\#(id)", "type": "\#(type)", "displayPrice": "\#(price)", "familyShareable": \#(familyShareable), "localizations": []\#(more(extra))}"#)
    }

    /// An auto-renewable subscription; `extra` is more of its keys (`"introductoryOffer": {…}`).
    static func subscription(
        _ id: String, period: String = "P1M", price: String = "4.99", level: Int = 1, groupID: String = "1A2B3C4D",
        extra: String? = nil
    ) -> Self {
        Self(text: #"{"productID": "\#(id)", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "\#(period)", "displayPrice": "\#(price)", "groupNumber": \#(level), "subscriptionGroupID": "\#(groupID)", "familyShareable": false, "localizations": []\#(more(extra))}"#)
    }

    /// A subscription group and its subscriptions, a line each.
    static func group(id: String = "1A2B3C4D", name: String = "Pro", _ subscriptions: Self...) -> Self {
        Self(text: #"{"id": "\#(id)", "name": "\#(name)", "localizations": [], "subscriptions": ["#
            + "\n" + subscriptions.map { "  " + $0.text }.joined(separator: ",\n") + "\n]}")
    }

    /// `[]`, or the entries a line each, indented under their key.
    static func list(_ entries: [Self]) -> String {
        guard !entries.isEmpty else { return "[]" }
        let lines = entries.map(\.text).joined(separator: ",\n").split(separator: "\n", omittingEmptySubsequences: false)
        return "[\n" + lines.map { "    " + $0 }.joined(separator: "\n") + "\n  ]"
    }

    private static func more(_ extra: String?) -> String { extra.map { ", " + $0 } ?? "" }
}

/// The parts of a `tally-catalog/1` catalogue (`RuleExample.File.catalog`).
enum CatalogExample {
    /// A subscription group: `id: pro`, then its subscriptions.
    static func group(_ id: String, _ subscriptions: [String]) -> String {
        "id: \(id)\nsubscriptions:\n" + items(subscriptions)
    }

    /// Each entry as a list item (`  - …`), its further lines under its first.
    static func items(_ entries: [String]) -> String {
        entries.map { entry in
            entry.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { $0.offset == 0 ? "  - " + $0.element : "    " + $0.element }
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

extension RuleExample {
    /// This example, then its twin that passes: the same files and policy with `old` replaced by
    /// `new`, for a pair that differs in one value. `old` stands once in the files and policy.
    func andPasses(replacing old: String, with new: String) -> [RuleExample] {
        [self, twin(fires: false, replacing: old, with: new)]
    }

    /// This example's twin (`fires`, with `old` replaced by `new`); `old` stands once in its files and policy.
    func twin(fires: Bool, replacing old: String, with new: String) -> RuleExample {
        let texts = files.map(\.text) + (policy.map { [$0] } ?? [])
        precondition(texts.map { $0.ranges(of: old).count }.reduce(0, +) == 1, "“\(old)” stands once in the example")
        return RuleExample(
            fires: fires,
            files: files.map { File($0.name, $0.text.replacing(old, with: new)) },
            policy: policy?.replacing(old, with: new))
    }
}
