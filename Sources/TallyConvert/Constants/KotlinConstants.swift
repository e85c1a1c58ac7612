/// `object ProductIds { const val PLUS_MONTHLY = "…" }` with the lists Play Billing queries by
/// product type (`subscriptions` for `ProductType.SUBS`, `inApp` for `INAPP`), and the group IDs.
/// No trailing commas: Kotlin before 1.4 rejects them.
struct KotlinConstants {
    let plan: ConstantsPlan

    var lines: [String] {
        let names = Identifiers.names(plan.constants.map(\.words), style: .screaming, fallback: "product")
        var lines = ["/** The product IDs \(plan.whose), one constant each. */",
                     "object ProductIds {"]
        for (constant, name) in zip(plan.constants, names) {
            lines.append("    /** " + CodeText.comment(constant.comment) + " */")
            lines.append("    const val \(name) = \(CodeText.literal(constant.id, .kotlin))")
        }
        let lists: [(name: String, what: String, members: [Int])] = [
            ("all", "Every product ID.", Array(plan.constants.indices)),
            ("subscriptions", "Subscriptions: query them with ProductType.SUBS.", plan.constants(where: ConstantsPlan.subscriptionKinds)),
            ("inApp", "One-time products: query them with ProductType.INAPP.", plan.constants(where: ConstantsPlan.inAppKinds)),
        ]
        for list in lists {
            lines += ["", "    /** \(list.what) */"]
            if list.members.isEmpty {
                lines.append("    val \(list.name): List<String> = listOf()")
            } else {
                lines.append("    val \(list.name): List<String> = listOf(")
                lines.append(list.members.map { "        \(names[$0])" }.joined(separator: ",\n"))
                lines.append("    )")
            }
        }
        lines.append("}")
        if !plan.groups.isEmpty {
            let groupNames = Identifiers.names(plan.groups.map(\.words), style: .screaming, fallback: "group")
            lines += ["", "/** The subscription group IDs. */", "object SubscriptionGroupIds {"]
            for (group, name) in zip(plan.groups, groupNames) {
                lines.append("    /** " + CodeText.comment(group.comment) + " */")
                lines.append("    const val \(name) = \(CodeText.literal(group.id, .kotlin))")
            }
            lines.append("}")
        }
        return lines
    }
}
