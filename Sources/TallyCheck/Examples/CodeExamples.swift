import TallyModel

// The code rules' examples: the app's code beside a store source.
// Each rule owns its examples (`Rule.examples`); `RuleExampleTests` runs them and docs/rules.md shows them.

extension CodeUnknownProductRule {
    public static let examples = RuleExample.fires(
        .storeKit(products: [.product("com.example.gems.100", price: "0.99")]),
        .file("Store.swift", """
            import StoreKit

            let products = try await Product.products(for: ["com.example.gems.100", "com.example.gems.1000"])
            """)
    ).andPasses(replacing: #", "com.example.gems.1000""#, with: "")
}

extension CodeUnusedProductRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(products: [
                .product("com.example.gems.100", price: "0.99"),
                .product("com.example.gems.500", price: "3.99"),
            ]),
            .file("Store.swift", """
                import StoreKit

                let products = try await Product.products(for: ["com.example.gems.100"])
                """)),
    ]
}
