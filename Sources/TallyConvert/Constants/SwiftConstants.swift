import TallyCode

/// `public enum ProductID: String, CaseIterable, Sendable`, a set of IDs per kind, the group IDs,
/// and (where StoreKit is) `ProductID.products()`.
struct SwiftConstants {
    let plan: ConstantsPlan

    var lines: [String] {
        let names = Identifiers.names(plan.constants.map(\.words), style: .swiftCase, fallback: "product", reserved: Identifiers.swiftMembers)
        // StoreKit's own kinds, and `ProductID.products()`, where the IDs are the App Store's.
        let appStore = plan.store.tellsConsumablesApart
        var lines: [String] = []
        if appStore { lines += ["#if canImport(StoreKit)", "import StoreKit", "#endif", ""] }
        lines.append("/// The product IDs \(plan.store.billingAPI) asks for, one case each.")
        if plan.constants.isEmpty {
            // An enum without cases cannot have a raw type; this one still answers `rawValue`.
            lines += ["public enum ProductID: CaseIterable, Hashable, Sendable {", "    public var rawValue: String { switch self {} }"]
        } else {
            lines.append("public enum ProductID: String, CaseIterable, Sendable {")
        }
        for (constant, name) in zip(plan.constants, names) {
            lines.append("    /// " + CodeText.comment(constant.comment))
            lines.append("    case \(name) = \(CodeText.literal(constant.id, .swift))")
        }
        let sets: [(name: String, what: String, kinds: Set<GeneratedConstants.StatedKind>)] = appStore ? [
            ("subscriptions", "Auto-renewable subscriptions (suites and bundles too).", ConstantsPlan.subscriptionKinds),
            ("nonRenewingSubscriptions", "Non-renewing subscriptions.", [.nonRenewing]),
            ("consumables", "Consumables.", [.consumable]),
            ("nonConsumables", "Non-consumables.", [.nonConsumable]),
        ] : [
            ("subscriptions", "Subscriptions (Play's ProductType.SUBS).", ConstantsPlan.subscriptionKinds),
            ("inApp", "One-time products (Play's ProductType.INAPP).", ConstantsPlan.inAppKinds),
        ]
        for set in sets {
            let members = plan.constants(where: set.kinds).map { "        .\(names[$0])," }
            lines += ["", "    /// \(set.what)"]
            lines += members.isEmpty ? ["    public static let \(set.name): Set<ProductID> = []"]
                : ["    public static let \(set.name): Set<ProductID> = ["] + members + ["    ]"]
        }
        lines.append("}")
        if !plan.groups.isEmpty {
            let groupNames = Identifiers.names(plan.groups.map(\.words), style: .swiftCase, fallback: "group", reserved: ["self", "init", "allCases", "rawValue", "hashValue", "hash", "description"])
            lines += ["", "/// The subscription group IDs.", "public enum SubscriptionGroupID: String, CaseIterable, Sendable {"]
            for (group, name) in zip(plan.groups, groupNames) {
                lines.append("    /// " + CodeText.comment(group.comment))
                lines.append("    case \(name) = \(CodeText.literal(group.id, .swift))")
            }
            lines.append("}")
        }
        if appStore {
            lines += [
                "",
                "#if canImport(StoreKit)",
                "@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)",
                "extension ProductID {",
                "    /// The products of every ID, as the App Store has them (an ID it does not know is left out).",
                "    public static func products() async throws -> [StoreKit.Product] {",
                "        try await StoreKit.Product.products(for: allCases.map(\\.rawValue))",
                "    }",
                "}",
                "#endif",
            ]
        }
        return lines
    }
}
