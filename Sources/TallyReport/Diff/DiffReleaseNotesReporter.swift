import TallyDiff
import TallyModel

/// Markdown release notes for people: what a change does for buyers, to paste into a release
/// ticket. The attention items come once, at the top; then the changes grouped by what buyers
/// see: new and removed products, price rises and cuts (per product, by territory, summarised
/// when many), trials and offers, periods, levels and groups, and the rest. Products are named by
/// reference name with the ID beside it (identity is always the ID); money is in its currency's
/// minor units; there are no line numbers. The same line from two diffs (a price raised in the
/// StoreKit configuration and in the server catalogue) is written once.
///
/// ```markdown
/// ## Catalogue changes
///
/// `catalog/products.yaml@v1.2` → `catalog/products.yaml`: 1 added, 1 removed, 3 changed, 10 unchanged products
///
/// **⚠️ Check before release**
///
/// - **Tip: Cup of Tea** (`com.calmly.app.tip.tea`): removed product: its ID can never be used again in the App Store
///
/// ### Price rises
///
/// - **Session Pack 20** (`com.calmly.app.sessions.20`): USA 5.99 USD → 6.49 USD (+0.50 USD, +8.3%)
/// ```
public struct DiffReleaseNotesReporter: DiffReporter {
    public static let identifier = "release-notes"

    /// A product's rises (or cuts) are listed territory by territory up to this many, then summarised.
    public static let territoriesListed = 3

    public init() {}

    public func report(_ result: DiffResult) -> String {
        var blocks = ["## Catalogue changes"]
        blocks.append(result.diffs.map { diff in
            let what = diff.hasChanges ? DiffWords.productCounts(diff.summary) : "no changes (\(DiffWords.counted(diff.summary.unchanged, "product")) identical)"
            return "\(code(diff.old.file)) → \(code(diff.new.file)): \(text(what))"
        }.joined(separator: "<br>\n"))
        guard result.hasChanges else {
            blocks.append("Nothing changes for buyers.")
            return blocks.joined(separator: "\n\n")
        }
        let products = result.diffs.flatMap(\.products)
        let sourceChanges = result.diffs.flatMap(\.sourceChanges)

        // The same change in a configuration and in a catalogue (`--since`) is one line.
        func unique(_ items: [String]) -> [String] {
            var seen = Set<String>()
            return items.filter { seen.insert($0).inserted }
        }
        let attention = unique(attentionItems(sourceChanges, products))
        if !attention.isEmpty {
            blocks.append((["**⚠️ Check before release**", ""] + attention.map { "- " + $0 }).joined(separator: "\n"))
        }
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            blocks.append((["### \(title)", ""] + unique(items).map { "- " + $0 }).joined(separator: "\n"))
        }
        section("New products", products.filter { $0.status == .added }.map { product in
            "\(name(product)): \(text(product.changes.first?.summary.dropPrefix("added: ") ?? ""))"
        })
        section("Removed products", products.filter { $0.status == .removed }.map { product in
            "\(name(product)): \(text(product.changes.first?.summary.dropPrefix("removed: ") ?? ""))"
        })
        section("Renamed products", items(products, [.id]))
        section("Price rises", products.compactMap { prices($0, .up) })
        section("Price cuts", products.compactMap { prices($0, .down) })
        section("Prices in another currency", products.compactMap { prices($0, .otherCurrency) })
        section("Where products are sold", products.compactMap(territories))
        section("Free trials and offers", items(products, [.introductoryOffer, .promotionalOffer, .codeOffer, .winbackOffer]))
        section("Subscription periods", items(products, [.period]))
        section("Subscription levels and groups", sourceChanges.filter { $0.aspect == .subscriptionGroup }.map { text($0.summary) }
            + items(products, [.group, .level]))
        section("Other changes", sourceChanges.filter { $0.aspect != .subscriptionGroup }.map { "\(text($0.aspect.pathName ?? "")): \(text($0.summary))" }
            + items(products, [.kind, .familySharing, .localization, .file, .seatTier]))
        return blocks.joined(separator: "\n\n")
    }

    /// One line per attention reason and product (a sweep's many price rows in one), source changes first.
    private func attentionItems(_ sourceChanges: [Change], _ products: [ProductChanges]) -> [String] {
        var items = sourceChanges.filter(\.needsAttention).map { change in
            "\(text(change.summary)): \(text(change.attention.map(\.explanation).joined(separator: "; ")))"
        }
        for product in products {
            for reason in Attention.allCases {
                let changes = product.changes.filter { $0.needsAttention(reason) }
                guard let first = changes.first else { continue }
                var line = "\(name(product)): \(text(reason.explanation))"
                if first.aspect == .product {
                    if let note = first.noteText { line += " (\(text(note)))" }
                } else if changes.count == 1 {
                    line += " — \(text(what(first)))"
                } else {
                    line += " (in \(DiffWords.counted(changes.count, "territory", plural: "territories")))"
                }
                items.append(line)
            }
        }
        return items
    }

    /// The product's price changes in one direction: each territory, or a summary when many.
    private func prices(_ product: ProductChanges, _ direction: PriceChange.Direction) -> String? {
        guard product.status == .changed else { return nil }
        let changes = product.changes.filter { $0.aspect == .price && $0.action == .changed && $0.priceDirection == direction }
        guard let first = changes.first else { return nil }
        if changes.count <= Self.territoriesListed {
            return "\(name(product)): " + changes.map { text("\(place($0)) \($0.summary)") }.joined(separator: "; ")
        }
        let percents = changes.compactMap { $0.priceChange?.percent }
        var range = ""
        if let low = percents.min(), let high = percents.max() {
            let a = PriceChange.signed(low) + "%", b = PriceChange.signed(high) + "%"
            range = low == high ? " (\(a))" : " (\(a) to \(b))"
        }
        let example = changes.first { $0.territory == .usa } ?? first
        return "\(name(product)): in \(DiffWords.counted(changes.count, "territory", plural: "territories"))\(range); e.g. "
            + text("\(place(example)) \(example.summary)")
    }

    /// Territories a product is newly priced in or no longer priced in.
    private func territories(_ product: ProductChanges) -> String? {
        guard product.status == .changed else { return nil }
        func codes(_ action: ChangeAction) -> [String] {
            product.changes.filter { $0.aspect == .price && $0.action == action }.map(place)
        }
        var parts: [String] = []
        let added = codes(.added), removed = codes(.removed)
        if !added.isEmpty { parts.append("now sold in " + list(added)) }
        if !removed.isEmpty { parts.append("no longer sold in " + list(removed)) }
        return parts.isEmpty ? nil : "\(name(product)): \(text(parts.joined(separator: "; ")))"
    }

    /// `AUS, BRA and 3 more`.
    private func list(_ codes: [String]) -> String {
        let shown = codes.prefix(8)
        return shown.joined(separator: ", ") + (codes.count > shown.count ? " and \(codes.count - shown.count) more" : "")
    }

    /// One line per change of these aspects, product by product.
    private func items(_ products: [ProductChanges], _ aspects: Set<ChangeAspect>) -> [String] {
        products.flatMap { product in
            product.changes.filter { aspects.contains($0.aspect) }.map { "\(name(product)): \(text(what($0)))" }
        }
    }

    /// `introductory offer: free trial of 1 week → free trial of 3 days`.
    private func what(_ change: Change) -> String {
        let path = DiffWords.relativePath(change)
        switch change.aspect {
        case .product, .group, .file, .id: return change.summary
        case .price: return "\(place(change)) \(change.summary)"
        default: return "\(path): \(change.summary)"
        }
    }

    /// The territory (or storefront pair) of a price change.
    private func place(_ change: Change) -> String { change.territory?.code ?? change.key ?? "" }

    /// `**Session Pack 20** (`com.calmly.app.sessions.20`, shown as "20 Guided Sessions")`, or the ID alone.
    private func name(_ product: ProductChanges) -> String {
        let shown = product.displayName.flatMap { $0 == product.name ? nil : ", " + text("shown as \"\($0)\"") } ?? ""
        guard let name = product.name else { return code(product.productID) }
        return "**\(text(name))** (\(code(product.productID))\(shown))"
    }

    private func code(_ value: String) -> String { DiffMarkdownReporter.code(value) }
    private func text(_ value: String) -> String { DiffMarkdownReporter.text(value) }
}

private extension String {
    func dropPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
