import TallyCode
import TallyModel

/// What a constants file (`--to swift|kotlin|dart|typescript`) declares, whatever its language:
/// one constant per product ID of one store, sorted by ID, each with a comment stating its kind,
/// and the subscription groups' IDs. Nothing in it depends on the time or the machine, so writing
/// twice gives the same bytes; `GeneratedConstants.scan` reads the file back.
struct ConstantsPlan {
    struct Constant {
        /// The product ID the app asks the store for.
        var id: String
        /// The words its identifier is made of.
        var words: [String]
        var kind: GeneratedConstants.StatedKind
        /// The comment's text: the kind first, then the group, level and period (or base plans).
        var comment: String
    }

    struct Group {
        var id: String
        var words: [String]
        var comment: String
    }

    let source: String
    let format: SourceFormat
    let store: Store
    let target: ConvertTarget
    private(set) var constants: [Constant] = []
    private(set) var groups: [Group] = []

    init(catalog: Catalog, store: Store, target: ConvertTarget, notes: inout ConvertNotes) {
        source = catalog.file
        format = catalog.format
        self.store = store
        self.target = target
        let entries = store.basePlanSeparator.map { Self.playEntries(catalog, store: store, separator: $0, notes: &notes) }
            ?? Self.appStoreEntries(catalog, store: store, notes: &notes)
        let sorted = entries.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        let parts = Identifiers.distinctParts(sorted.map(\.id))
        constants = zip(sorted, parts).map { entry, part in
            Constant(id: entry.id, words: Identifiers.words(part), kind: entry.kind, comment: entry.comment)
        }
        if store.hasSubscriptionGroups { groups = Self.groups(catalog, written: Set(sorted.map(\.id))) }
    }

    /// The header, one comment line each (the writers put `// ` before them).
    var header: [String] {
        let file = CodeText.comment(source)
        return [
            "\(GeneratedConstants.marker) from \(file) (\(format)). Do not edit.",
            GeneratedConstants.storeLine(store),
            "Regenerate with: tally convert \(file) --to \(target)\(store == format.store ? "" : " --store \(store.rawValue)") -o THIS_FILE",
            "Check with: tally check \(file) THIS_FILE",
        ]
    }

    /// Whose product IDs the file holds, for its doc comment ("of the App Store").
    var whose: String {
        switch store {
        case .appStore: return "of the App Store"
        case .googlePlay: return "Google Play Billing asks for"
        }
    }

    func constants(where kinds: Set<GeneratedConstants.StatedKind>) -> [Int] {
        constants.indices.filter { kinds.contains(constants[$0].kind) }
    }

    /// The kinds of Play's `ProductType.SUBS` (or the App Store's auto-renewable subscriptions), and of everything else.
    static let subscriptionKinds: Set<GeneratedConstants.StatedKind> = [.autoRenewable, .suite, .bundle, .playSubscription]
    static let inAppKinds: Set<GeneratedConstants.StatedKind> = [.consumable, .nonConsumable, .nonRenewing, .oneTime]

    private typealias Entry = (id: String, kind: GeneratedConstants.StatedKind, comment: String)

    /// App Store product IDs: every product but those sold on Google Play only.
    private static func appStoreEntries(_ catalog: Catalog, store: Store, notes: inout ConvertNotes) -> [Entry] {
        var seen = Set<String>()
        var entries: [Entry] = []
        let groupNames = Dictionary(catalog.groups.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for product in catalog.products where seen.insert(product.id).inserted {
            if !product.isSold(in: store) {
                notes.add("left out: sold on Google Play only, it has no App Store product ID (--store google-play writes Play IDs)", product.id)
                continue
            }
            let kind = GeneratedConstants.StatedKind(catalog.statedKind(of: product))
            if kind == .unstated { notes.add("the source does not state the kind: in no kind list of the constants file", product.id) }
            var parts = [kind.rawValue]
            if let group = product.group, !group.groupID.isEmpty {
                let name: String? = group.groupName ?? (groupNames[group.groupID] ?? nil)
                parts.append("group \"\(name ?? group.groupID)\"" + (group.level.map { " (level \($0))" } ?? ""))
            }
            if let period = product.period { parts.append(every(period)) }
            entries.append((product.id, kind, parts.joined(separator: ", ") + "."))
        }
        return entries
    }

    /// Google Play product IDs: a one-time product's ID, and a subscription's product ID once for
    /// all its base plans (`premium` for `premium:monthly` and `premium:yearly`), as Play Billing
    /// asks for them.
    private static func playEntries(_ catalog: Catalog, store: Store, separator: Character, notes: inout ConvertNotes) -> [Entry] {
        var order: [String] = []
        var plans: [String: [(plan: String, period: Period?)]] = [:]
        var subscription: [String: Bool] = [:]
        for product in catalog.products {
            guard let identity = catalog.id(of: product, in: store), !identity.isEmpty else {
                notes.add("left out: not sold on Google Play (google_play: null)", product.id)
                continue
            }
            let parts = identity.split(separator: separator, maxSplits: 1, omittingEmptySubsequences: false)
            let id = String(parts[0])
            if plans[id] == nil { order.append(id) }
            plans[id, default: []] += parts.count > 1 ? [(String(parts[1]), product.period)] : []
            let isSubscription = parts.count > 1 || (catalog.statedKind(of: product)?.isAutoRenewable ?? false)
            subscription[id] = (subscription[id] ?? false) || isSubscription
        }
        return order.map { id in
            guard subscription[id] ?? false else { return (id, .oneTime, GeneratedConstants.StatedKind.oneTime.rawValue + ".") }
            let named = (plans[id] ?? []).map { plan in "\"\(plan.plan)\"" + (plan.period.map { " (\(every($0)))" } ?? "") }
            let comment = GeneratedConstants.StatedKind.playSubscription.rawValue
                + (named.isEmpty ? "." : ", base plan\(named.count == 1 ? "" : "s") \(named.joined(separator: ", ")).")
            return (id, .playSubscription, comment)
        }
    }

    /// The subscription groups of the products written, sorted by ID, named by their names.
    private static func groups(_ catalog: Catalog, written: Set<String>) -> [Group] {
        var names: [String: String?] = [:]
        for group in catalog.groups where names[group.id] == nil { names[group.id] = group.name }
        for product in catalog.products where written.contains(product.id) {
            guard let group = product.group, !group.groupID.isEmpty else { continue }
            if names[group.groupID] ?? nil == nil { names[group.groupID] = group.groupName }
        }
        return names.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { id in
            let name = names[id] ?? nil
            let words = Identifiers.words(name ?? id)
            return Group(id: id, words: words.isEmpty ? Identifiers.words(id) : words,
                         comment: name.map { "Subscription group \"\($0)\"." } ?? "Subscription group.")
        }
    }

    /// "every month", "every 3 months", "every year".
    private static func every(_ period: Period) -> String {
        let words = period.words
        let single = words.hasPrefix("1 ") && !words.dropFirst(2).contains(" ")
        return "every " + (single ? String(words.dropFirst(2)) : words)
    }
}

/// Writes a constants file for one language.
enum ConstantsWriter {
    static func write(_ catalog: Catalog, target: ConvertTarget, store: Store, to sink: inout ByteSink, notes: inout ConvertNotes) {
        let plan = ConstantsPlan(catalog: catalog, store: store, target: target, notes: &notes)
        var lines = plan.header.map { "// " + $0 }
        lines.append("")
        switch target {
        case .swift: lines += SwiftConstants(plan: plan).lines
        case .kotlin: lines += KotlinConstants(plan: plan).lines
        case .dart: lines += DartConstants(plan: plan).lines
        case .typeScript: lines += TypeScriptConstants(plan: plan).lines
        case .tallyCatalogYAML, .tallyCatalogJSON, .storeKit, .csv: return
        }
        for line in lines {
            sink.append(utf8: line)
            sink.append(UInt8(ascii: "\n"))
        }
    }
}
