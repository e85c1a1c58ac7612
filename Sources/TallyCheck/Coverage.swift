import TallyModel

/// What a run compared, for every product of every source and every request of a code source,
/// and why the rest was not compared (issue 48: no green verdict where Tally did not look).
///
/// A product is compared when another source of the run holds it and the two were compared (a
/// configuration beside a catalogue, a store snapshot, a paywall that shows it, the app's code that
/// asks for it). A code request is compared when a source of a store it asks holds its ID. The
/// text report names what was not compared; JSON carries this value as `coverage`
/// (docs/reports.md, "Coverage"); the exit status reads it (`FailBar.coverageFailure`).
public struct Coverage: Sendable, Hashable, Codable {
    /// Why something was not compared.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The source was compared with others, none of which has the product (a presence finding says so).
        case onlyInThisSource = "only-in-this-source"
        /// No other source of the run was compared with this one (another store, or nothing else).
        case noOtherSource = "no-other-source"
        /// The store holds the product in a state that is not for sale (set aside by the state filter).
        case setAsideByState = "set-aside-by-state"
        /// A purchase call whose IDs are built at run time or come from elsewhere.
        case notStaticallyKnown = "not-statically-known"
        /// A code request asked of a store the run has no source for.
        case noSourceOfItsStore = "no-source-of-its-store"
        /// A code request whose ID no source of the stores it asks has (`code-unknown-product`).
        case inNoSource = "in-no-source"

        /// The words for people, as the text report's "not compared" line uses them.
        public var words: String {
            switch self {
            case .onlyInThisSource: "only in its source"
            case .noOtherSource: "no other source to compare with"
            case .setAsideByState: "set aside by its state in the store"
            case .notStaticallyKnown: "IDs not known before run time"
            case .noSourceOfItsStore: "asked of a store no source of the run holds"
            case .inNoSource: "in no source of its store"
            }
        }
    }

    /// One product or code request that was not compared.
    public struct Item: Sendable, Hashable, Codable {
        /// The source's file.
        public var source: String
        /// The product ID; nil for a call whose IDs are not known.
        public var product: String?
        /// `product` or `code-request`.
        public var kind: String
        public var reason: Reason
        /// A state, a store, a call: what the reason is about.
        public var detail: String?
        public var line: Int?

        public init(source: String, product: String?, kind: String, reason: Reason, detail: String? = nil, line: Int? = nil) {
            self.source = source
            self.product = product
            self.kind = kind
            self.reason = reason
            self.detail = detail
            self.line = line
        }
    }

    /// How many sources the run read.
    public var sources: Int
    /// Every product of every source (a product two sources hold counts in each).
    public var products: Int
    public var productsCompared: Int
    /// Every distinct ID a code source asks for, and every call whose IDs are not known.
    public var codeRequests: Int
    public var codeRequestsCompared: Int
    /// What was not compared, in source order.
    public var notCompared: [Item]

    public init(sources: Int = 0, products: Int = 0, productsCompared: Int = 0, codeRequests: Int = 0, codeRequestsCompared: Int = 0,
                notCompared: [Item] = []) {
        self.sources = sources
        self.products = products
        self.productsCompared = productsCompared
        self.codeRequests = codeRequests
        self.codeRequestsCompared = codeRequestsCompared
        self.notCompared = notCompared
    }

    /// Whether anything was compared across sources.
    public var comparedAnything: Bool { productsCompared + codeRequestsCompared > 0 }

    /// Counts of what was not compared, by reason.
    public var byReason: [Reason: Int] {
        var counts: [Reason: Int] = [:]
        for item in notCompared { counts[item.reason, default: 0] += 1 }
        return counts
    }

    /// What a run compared, from its sources and the products each comparison matched
    /// (`compared`: by file, the IDs matched there).
    public static func measure(_ sources: [Catalog], compared: [String: Set<String>]) -> Coverage {
        var coverage = Coverage(sources: sources.count)
        let stores = sources.filter { $0.format.role != .code && $0.format.role != .paywall }
        for source in sources {
            if source.format.role == .code {
                coverage.measureCode(source, stores: stores)
                continue
            }
            let matched = compared[source.file]
            if let paywall = source.paywall {
                var seen = Set<String>()
                for product in paywall.products where seen.insert(product.storeID).inserted {
                    coverage.products += 1
                    if matched?.contains(product.storeID) == true {
                        coverage.productsCompared += 1
                    } else {
                        coverage.notCompared.append(Item(source: source.file, product: product.storeID, kind: "product",
                                                         reason: matched == nil ? .noOtherSource : .onlyInThisSource, line: source.location(product.position).line))
                    }
                }
                continue
            }
            var seen = Set<String>()
            for product in source.products where seen.insert(product.id).inserted {
                coverage.products += 1
                if let matched, matched.contains(product.id) || product.storeIDs.values.contains(where: matched.contains) {
                    coverage.productsCompared += 1
                } else {
                    coverage.notCompared.append(Item(source: source.file, product: product.id, kind: "product",
                                                     reason: matched == nil ? .noOtherSource : .onlyInThisSource, line: source.location(product.position).line))
                }
            }
            for product in source.heldByState where seen.insert(product.id).inserted {
                coverage.products += 1
                if matched?.contains(product.id) == true {
                    coverage.productsCompared += 1
                } else {
                    coverage.notCompared.append(Item(source: source.file, product: product.id, kind: "product", reason: .setAsideByState,
                                                     detail: product.storeState, line: source.location(product.position).line))
                }
            }
        }
        return coverage
    }

    private mutating func measureCode(_ source: Catalog, stores: [Catalog]) {
        let context = CodeContext(source: source, others: stores)
        let requests = context.requests
        var seen = Set<String>()
        for request in requests.requests where seen.insert(request.id).inserted {
            codeRequests += 1
            // Found, or held aside by state in a store source (there, not for sale: store-state says so).
            let held = context.sides(for: request).contains { side in side.heldByState.contains { $0.id == request.id } }
            if held || !context.matches(request).isEmpty {
                codeRequestsCompared += 1
                continue
            }
            let uncovered = context.uncoveredStores(request)
            let reason: Reason = uncovered.isEmpty ? .inNoSource : .noSourceOfItsStore
            let at = source.location(request.callPosition)
            notCompared.append(Item(source: at.file, product: request.id, kind: "code-request", reason: reason,
                                    detail: reason == .noSourceOfItsStore ? uncovered.map(\.displayName).joined(separator: ", ") : request.api,
                                    line: at.line))
        }
        for notice in requests.unresolved {
            codeRequests += 1
            let at = source.location(notice.position)
            notCompared.append(Item(source: at.file, product: nil, kind: "code-request", reason: .notStaticallyKnown,
                                    detail: notice.message, line: at.line))
        }
    }
}
