import TallyModel

// The code rules' examples: the app's code beside a store source.
// Each rule owns its examples (`Rule.examples`); `RuleExampleTests` runs them and docs/rules.md shows them.

extension CodeUnknownProductRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("Store.swift", """
                import StoreKit

                let products = try await Product.products(for: ["com.example.gems.100", "com.example.gems.1000"])
                """)),
        .passes(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("Store.swift", """
                import StoreKit

                let products = try await Product.products(for: ["com.example.gems.100"])
                """)),
    ]
}

extension CodeUnusedProductRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []},
                    {"productID": "com.example.gems.500", "type": "Consumable", "displayPrice": "3.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("Store.swift", """
                import StoreKit

                let products = try await Product.products(for: ["com.example.gems.100"])
                """)),
    ]
}
