import TallyModel

/// A code source beside the run's other sources: each ID the code asks for looked up in every
/// source of the store it asks (a cross-platform call asks both).
public struct CodeContext: Sendable {
    public let source: Catalog
    public let requests: CodeRequests
    /// The sources that sell or grant products (configurations, catalogues, store snapshots):
    /// not paywalls, not other code.
    public let sides: [Catalog]
    /// Whether a paywall platform's source is in the run: the app then asks for what the
    /// platform's offerings name, which the code does not list.
    public let paywallInRun: Bool
    /// The run's `store-state` rule (configured by the policy): an ID a store source holds aside by
    /// state (Ready to Submit, Missing Metadata) is reported by it, with its cause, not as unknown.
    public var storeState: StoreStateRule? = nil

    public init(source: Catalog, others: [Catalog]) {
        self.source = source
        requests = source.code ?? CodeRequests()
        sides = others.filter { $0.format.role != .paywall && $0.format.role != .code }
        paywallInRun = others.contains { $0.format.role == .paywall }
    }

    /// The sides a request is asked of.
    func sides(for request: CodeRequest) -> [Catalog] {
        // A server catalogue answers for every store (it names each product's ID in each).
        sides.filter { request.asks($0.format.store) || $0.format.role == .catalog }
    }

    /// The products of the sides a request asks that hold its ID, with their sides.
    func matches(_ request: CodeRequest) -> [(Catalog, Product)] {
        let stores = Self.storesAsked(request)
        return sides(for: request).compactMap { side in
            // A server catalogue names each product in every store (covers), so it answers for any.
            stores.lazy.filter { $0 == side.format.store || side.format.store.keysCatalogues || side.format.role == .catalog }
                .compactMap { Self.ids(of: side, for: $0)[request.id] }.first.map { (side, $0) }
        }
    }

    /// The stores a request asks: its own, or those a cross-platform call reaches.
    public static func storesAsked(_ request: CodeRequest) -> [Store] {
        request.store.map { [$0] } ?? Store.askedByCallsOfNoStore
    }

    /// Whether `side` can answer for `store`: a source of that store, or a server catalogue
    /// (which names each product's ID in every store).
    public static func covers(_ side: Catalog, _ store: Store) -> Bool {
        side.format.store == store || side.format.role == .catalog
    }

    /// The stores a request asks that no source of the run can answer for: an ID asked of
    /// them is not compared (coverage), never `code-unknown-product`.
    func uncoveredStores(_ request: CodeRequest) -> [Store] {
        // An ID the policy's `code: {ids: …}` pattern took is the team's own word that it is a
        // product ID, of no store in particular: it is looked up in whatever the run holds.
        guard request.api != Self.patternAPI else { return [] }
        return Self.storesAsked(request).filter { store in !sides.contains { Self.covers($0, store) } }
    }

    /// How the code reader names a request that the policy's `ids:` pattern found (TallyCode's
    /// `TokenScanner.patternAPI`).
    static let patternAPI = "code: ids pattern"

    /// The products of a side under the ID its store knows them by (a catalogue's Google Play ID
    /// on the Play side of a cross-platform request).
    static func ids(of side: Catalog, for store: Store) -> [String: Product] {
        var table: [String: Product] = [:]
        for product in side.products {
            if store != side.format.store, let other = product.storeIDs[store] {
                if table[other] == nil { table[other] = product }
            }
            if store == side.format.store, !product.isSold(in: store) { continue }
            if table[product.id] == nil { table[product.id] = product }
            // Play Billing asks for a subscription by its product ID; a Play source names each
            // base plan `subscription:plan`.
            if let id = storeID(product, in: side, store), store.askedID(id) != id {
                let subscription = store.askedID(id)
                if table[subscription] == nil { table[subscription] = product }
            }
        }
        return table
    }

    /// The product's ID in `store` as `side` names it: its own ID in a source of that store, the
    /// ID the source names for it there otherwise.
    static func storeID(_ product: Product, in side: Catalog, _ store: Store) -> String? {
        side.format.store == store ? product.id : product.storeIDs[store]
    }

    /// The ID the code would ask for: a Play base plan's subscription (`premium` for `premium:monthly`).
    static func askedID(_ product: Product, in side: Catalog) -> String {
        side.format.store.askedID(product.id)
    }

    /// The code's side of a finding: the call that asks, with the ID.
    func codeSide(_ request: CodeRequest) -> FindingSide {
        FindingSide(role: .code, value: .text(request.id), location: source.location(request.callPosition))
    }
}

/// A rule about the product IDs the app's code asks for.
public protocol CodeRule: Rule {
    func evaluate(_ context: CodeContext, findings: inout [Finding], checked: inout CheckedLog)
}

extension CodeRule {
    public static var category: String { "code" }

    func finding(_ productID: String?, _ message: FindingMessage, left: FindingSide?, right: FindingSide? = nil, hint: String? = nil) -> Finding {
        Self.finding(productID: productID, field: .id, message: message, left: left, right: right, hint: hint)
    }
}

/// The code asks for an ID that no configuration, catalogue or store snapshot of the run has.
public struct CodeUnknownProductRule: CodeRule {
    public static let description = describe(
        id: .codeUnknownProduct, defaultSeverity: .error,
        summary: "The app's code asks the store for a product ID that no configuration, catalogue or store snapshot of the run has.",
        rationale: "The store answers a request for an ID it does not sell with nothing, silently: the product is missing from "
            + "the paywall, the purchase button does nothing, and App Review rejects the build (Guideline 2.1). RevenueCat's SDK "
            + "says it at run time (\"None of the products registered ... could be fetched\"); Tally says it before release.",
        fix: "Correct the ID in the code (the hint names the nearest ID the other sources have: a case or separator difference, "
            + "or the same plan under another name), or add the product to the StoreKit configuration and the store.")
    public init() {}

    public func evaluate(_ context: CodeContext, findings: inout [Finding], checked: inout CheckedLog) {
        var reported = Set<String>()
        for request in context.requests.requests {
            let sides = context.sides(for: request)
            guard !sides.isEmpty else { continue }
            mark(request.id, at: context.source.location(request.callPosition), &checked)
            let stores = CodeContext.storesAsked(request)
            let tables = sides.map { side in (side, stores.filter { $0 == side.format.store || side.format.store.keysCatalogues }.map { CodeContext.ids(of: side, for: $0) }) }
            let found = tables.contains { _, byStore in byStore.contains { $0[request.id] != nil } }
            // Unknown only when a source of every store the request asks is in the run (issue 49):
            // a Play ID in a Flutter set, beside the App Store's .storekit alone, is not compared.
            guard !found, context.uncoveredStores(request).isEmpty, reported.insert(request.id).inserted else { continue }
            // A store source holds it aside by state: not unknown, not for sale; store-state says why.
            if let storeState = context.storeState,
               let (side, held) = sides.lazy.compactMap({ side in side.heldByState.first { $0.id == request.id }.map { (side, $0) } }).first {
                findings.append(storeState.heldFinding(held, in: side, wantedBy: (context.codeSide(request), "the app's code", true)))
                continue
            }
            // The nearest ID any side has, and where it stands.
            var near: (id: String, side: Catalog, product: Product)?
            for (side, byStore) in tables {
                for table in byStore {
                    guard near == nil, let match = NearMatch.productID(for: request.id, among: table.keys), let product = table[match] else { continue }
                    near = (match, side, product)
                }
            }
            let whereNot: FindingMessage = sides.count == 1
                ? "\(source: sides[0].file)"
                : "any of the \(count: sides.count) sources it is asked of"
            let right = near.map { FindingSide(role: $0.side.format.role, store: $0.side.format.store.namesItsSide ? $0.side.format.store : nil,
                                              value: .text($0.id), location: $0.side.location($0.product.position)) }
                ?? sides.first.map { FindingSide(role: $0.format.role, value: FindingValue?.none, location: SourceLocation(file: $0.file)) }
            findings.append(finding(request.id, "the code asks the store for \(product: request.id) (\(name: request.api)), which is not in \(whereNot)",
                                    left: context.codeSide(request), right: right,
                                    hint: near.map { "did you mean \($0.id)?" }))
        }
    }
}

extension CodeUnknownProductRule {
    /// The IDs the other sources have that an unknown request is a near miss of.
    static func nearMisses(_ context: CodeContext) -> Set<String> {
        var found = Set<String>()
        for request in context.requests.requests {
            let sides = context.sides(for: request)
            let stores = CodeContext.storesAsked(request)
            let tables = sides.flatMap { side in stores.filter { $0 == side.format.store || side.format.store.keysCatalogues }.map { CodeContext.ids(of: side, for: $0) } }
            guard !tables.contains(where: { $0[request.id] != nil }) else { continue }
            for table in tables {
                guard let match = NearMatch.productID(for: request.id, among: table.keys) else { continue }
                found.insert(match)
                if let product = table[match] { found.insert(product.id) }
                break
            }
        }
        return found
    }
}

/// A product the store or the app's configuration sells that no code of the run asks for.
public struct CodeUnusedProductRule: CodeRule {
    public static let description = describe(
        id: .codeUnusedProduct, defaultSeverity: .warning,
        summary: "A product the StoreKit configuration or a store snapshot sells that the app's code never asks for.",
        rationale: "A product nobody asks for is never shown: a plan left behind after a rename, or a new product the code was "
            + "not updated for. The rule stays quiet where the app learns its IDs elsewhere: a paywall platform's source is in "
            + "the run, or the code asks with IDs Tally cannot follow (built at run time, read from a server or the environment).",
        fix: "Ask for the product in the code (or generate the IDs with 'tally convert SOURCE --to swift'), or remove it from "
            + "the configuration; turn the rule off in .tally.yml where the app loads its IDs from a server.")
    public init() {}

    public func evaluate(_ context: CodeContext, findings: inout [Finding], checked: inout CheckedLog) {
        guard Self.applies(context) else { return }
        let stores = context.requests.stores
        var asked = Set(context.requests.requests.map(\.id))
        // A product the code misspells is named once, by code-unknown-product with its hint.
        asked.formUnion(CodeUnknownProductRule.nearMisses(context))
        var reported = Set<String>()
        for side in context.sides where Self.sells(side.format) && stores.contains(side.format.store) {
            for product in side.products {
                if !product.isSold(in: side.format.store) { continue }
                mark(product.id, at: side.location(product.position), &checked)
                guard !asked.contains(product.id), !asked.contains(CodeContext.askedID(product, in: side)),
                      reported.insert(product.id).inserted else { continue }
                let noun = Comparison.runNoun(side) ?? side.file
                findings.append(finding(product.id, "\(source: noun) sells \(product: product.id), which the app's code never asks for",
                                        left: FindingSide(role: side.format.role, store: side.format.store.namesItsSide ? side.format.store : nil,
                                                          value: .text(product.id), location: side.location(product.position)),
                                        right: FindingSide(role: .code, value: FindingValue?.none, location: SourceLocation(file: context.source.file))))
            }
        }
    }

    /// Whether a source is what the app or the store sells (not a server's catalogue, which may
    /// grant products the app no longer offers).
    static func sells(_ format: SourceFormat) -> Bool {
        format.isWhatIsSold
    }

    /// Whether the code lists every ID the app asks for: no paywall platform in the run, no call
    /// whose IDs Tally cannot follow, and at least one ID asked for.
    public static func applies(_ context: CodeContext) -> Bool {
        !context.paywallInRun && context.requests.unresolved.isEmpty && !context.requests.requests.isEmpty
    }

    /// Why the rule is quiet for this code source, for the `compared:` line; nil when it runs.
    public static func quietReason(_ context: CodeContext) -> CodeQuiet? {
        if context.requests.requests.isEmpty { return .noRequests }
        if context.paywallInRun { return .paywallInRun }
        if let first = context.requests.unresolved.first {
            return .unresolved(count: context.requests.unresolved.count, first: context.source.location(first.position))
        }
        return nil
    }
}

/// The `compared:` line of a code source, as values (TallyReport words it).
enum CodeCoverage {
    static func summary(_ context: CodeContext) -> CodeSummary {
        let requests = context.requests
        return CodeSummary(file: context.source.file, productIDs: Set(requests.requests.map(\.id)).count, filesRead: requests.files,
                           askingFiles: requests.askingFiles, sides: context.sides.map(\.file), quiet: CodeUnusedProductRule.quietReason(context))
    }
}
