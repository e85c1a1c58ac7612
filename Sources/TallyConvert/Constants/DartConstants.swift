/// `abstract final class ProductIds { static const plusMonthly = '…'; }` (Dart 3) with the sets
/// `all`, `subscriptions` and `inApp`, and the group IDs.
struct DartConstants {
    let plan: ConstantsPlan

    var lines: [String] {
        let names = Identifiers.names(plan.constants.map(\.words), style: .dartMember, fallback: "product")
        var lines = ["/// The product IDs \(plan.whose), one constant each.",
                     "abstract final class ProductIds {"]
        for (constant, name) in zip(plan.constants, names) {
            lines.append("  /// " + CodeText.comment(constant.comment))
            lines.append("  static const \(name) = \(CodeText.literal(constant.id, .dart));")
        }
        let lists: [(name: String, what: String, members: [Int])] = [
            ("all", "Every product ID.", Array(plan.constants.indices)),
            ("subscriptions", "Subscriptions (Play's ProductType.SUBS).", plan.constants(where: ConstantsPlan.subscriptionKinds)),
            ("inApp", "One-time products (Play's ProductType.INAPP).", plan.constants(where: ConstantsPlan.inAppKinds)),
        ]
        for list in lists {
            lines += ["", "  /// \(list.what)"]
            let open = "  static const Set<String> \(list.name) = {"
            lines += list.members.isEmpty ? [open + "};"] : [open] + list.members.map { "    \(names[$0])," } + ["  };"]
        }
        lines.append("}")
        if !plan.groups.isEmpty {
            let groupNames = Identifiers.names(plan.groups.map(\.words), style: .dartMember, fallback: "group")
            lines += ["", "/// The subscription group IDs.", "abstract final class SubscriptionGroupIds {"]
            for (group, name) in zip(plan.groups, groupNames) {
                lines.append("  /// " + CodeText.comment(group.comment))
                lines.append("  static const \(name) = \(CodeText.literal(group.id, .dart));")
            }
            lines.append("}")
        }
        return lines
    }
}
