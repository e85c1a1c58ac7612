/// `export const ProductIds = { PLUS_MONTHLY: '…', } as const;`, the `ProductId` type, arrays of
/// every ID, the subscriptions and the one-time products, and the group IDs.
struct TypeScriptConstants {
    let plan: ConstantsPlan

    var lines: [String] {
        let names = Identifiers.names(plan.constants.map(\.words), style: .screaming, fallback: "product")
        var lines = ["/** The product IDs \(plan.whose), one key each. */",
                     "export const ProductIds = {"]
        for (constant, name) in zip(plan.constants, names) {
            lines.append("  /** " + CodeText.comment(constant.comment) + " */")
            lines.append("  \(name): \(CodeText.literal(constant.id, .typeScript)),")
        }
        lines += ["} as const;", "", "/** One of the product IDs. */", "export type ProductId = (typeof ProductIds)[keyof typeof ProductIds];"]
        let lists: [(name: String, what: String, members: [Int])] = [
            ("allProductIds", "Every product ID.", Array(plan.constants.indices)),
            ("subscriptionProductIds", "Subscriptions (Play's ProductType.SUBS).", plan.constants(where: ConstantsPlan.subscriptionKinds)),
            ("inAppProductIds", "One-time products (Play's ProductType.INAPP).", plan.constants(where: ConstantsPlan.inAppKinds)),
        ]
        for list in lists {
            lines += ["", "/** \(list.what) */"]
            let open = "export const \(list.name): readonly ProductId[] = ["
            lines += list.members.isEmpty ? [open + "];"] : [open] + list.members.map { "  ProductIds.\(names[$0])," } + ["];"]
        }
        if !plan.groups.isEmpty {
            let groupNames = Identifiers.names(plan.groups.map(\.words), style: .screaming, fallback: "group")
            lines += ["", "/** The subscription group IDs. */", "export const SubscriptionGroupIds = {"]
            for (group, name) in zip(plan.groups, groupNames) {
                lines.append("  /** " + CodeText.comment(group.comment) + " */")
                lines.append("  \(name): \(CodeText.literal(group.id, .typeScript)),")
            }
            lines.append("} as const;")
        }
        return lines
    }
}
