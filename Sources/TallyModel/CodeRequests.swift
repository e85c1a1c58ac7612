/// One product ID the app's code asks a store for, located in the code source (positions in the
/// source's line numbering, `Catalog.parts` naming each file).
public struct CodeRequest: Sendable, Hashable, Codable {
    public var id: String
    /// Where the ID's string literal stands (a constant's declaration when the call names one).
    public var position: Position
    /// The call that asks the store (`Product.products(for:)`); the literal's place when inline.
    public var callPosition: Position
    /// The API as a reader names it: "Product.products(for:)", "setProductId", "tally convert".
    public var api: String
    /// What the call states the product is (Play's `SUBS`: `auto-renewable-subscription`), or nil.
    public var kind: ProductKind?
    /// A one-time product whose consumability the call does not state (Play's `INAPP`).
    public var oneTime: Bool
    /// The store the API speaks to, or nil for a cross-platform SDK (asked of either store).
    public var store: Store?

    public init(id: String, position: Position, callPosition: Position, api: String, kind: ProductKind? = nil, oneTime: Bool = false,
                store: Store? = nil) {
        self.id = id
        self.position = position
        self.callPosition = callPosition
        self.api = api
        self.kind = kind
        self.oneTime = oneTime
        self.store = store
    }

    /// Whether a source of `store` is asked for this ID.
    public func asks(_ store: Store) -> Bool { self.store.map { $0 == store } ?? true }
}

/// What a code source holds besides its products: every request, and the calls whose IDs the
/// reader could not follow (built at run time, read from a server or the environment).
public struct CodeRequests: Sendable, Hashable, Codable {
    public var requests: [CodeRequest]
    /// Purchase API calls whose IDs are not literals in the code, each with why: the app then
    /// asks for products Tally cannot list, so `code-unused-product` stays quiet.
    public var unresolved: [CodeNotice]
    /// How many files were read.
    public var files: Int
    /// How many of them hold a request's call or its literal (what `init` and the `compared:` line count).
    public var askingFiles: Int = 0
    /// Strings a naive scan would take for product IDs that the reader did not (`show` lists them).
    public var rejected: [CodeNotice]

    public init(requests: [CodeRequest] = [], unresolved: [CodeNotice] = [], files: Int = 0, rejected: [CodeNotice] = []) {
        self.requests = requests
        self.unresolved = unresolved
        self.files = files
        self.rejected = rejected
    }

    /// The stores the code asks (a cross-platform request asks both).
    public var stores: Set<Store> {
        var stores = Set<Store>()
        for request in requests {
            if let store = request.store { stores.insert(store) } else { stores.formUnion(Store.askedByCallsOfNoStore) }
        }
        return stores
    }
}

/// A located sentence about the code: an unresolved call, or a string that is not a product ID.
public struct CodeNotice: Sendable, Hashable, Codable {
    public var text: String
    public var message: String
    public var position: Position

    public init(text: String, message: String, position: Position) {
        self.text = text
        self.message = message
        self.position = position
    }
}
