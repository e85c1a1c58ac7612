import TallyModel

/// A string literal a value holds: its token, and the store a `Platform.select` branch names.
struct LiteralRef: Hashable, Sendable {
    var token: Int
    var store: Store?
    /// A string built of constant parts (`PREFIX + "pro"`, `"$PREFIX.pro"`): its text, where it
    /// is not the token's own; `token` is the part that ends it, `parts` every literal in it.
    var text: String? = nil
    var parts: [Int] = []
}

/// What an expression is, as far as a file alone tells: literals (in lists and objects), nothing
/// (`nil`, `null`), or unknown (with the tokens that spell it, for the note).
indirect enum Value: Sendable {
    case literal(LiteralRef)
    case list([Value])
    /// One of these, depending on the platform or a condition (`Platform.select`, `c ? a : b`).
    case either([Value])
    /// An object literal, a dictionary, or a call with named arguments only (`Foo(sku: 'x')`).
    case object([ObjectEntry], Range<Int>)
    case unknown(Range<Int>)
    case nothing

    struct ObjectEntry: Sendable {
        var key: String
        /// The key's token when the key is a string literal (for `Object.keys`).
        var keyToken: Int?
        var value: Value
    }

    /// The literals an ID position receives, and the parts that are not literals in this file.
    func flattened() -> (literals: [LiteralRef], unknown: [Range<Int>]) {
        var literals: [LiteralRef] = []
        var unknown: [Range<Int>] = []
        var stack: [Value] = [self]
        while let value = stack.popLast() {
            switch value {
            case .literal(let ref): literals.append(ref)
            case .list(let items), .either(let items): stack.append(contentsOf: items.reversed())
            case .object(_, let range): unknown.append(range)
            case .unknown(let range): unknown.append(range)
            case .nothing: break
            }
        }
        return (literals, unknown)
    }

    /// The same value with every literal not already tagged taken as asked of `store`.
    func tagged(_ store: Store?) -> Value {
        guard let store else { return self }
        switch self {
        case .literal(var ref):
            if ref.store == nil { ref.store = store }
            return .literal(ref)
        case .list(let items): return .list(items.map { $0.tagged(store) })
        case .either(let items): return .either(items.map { $0.tagged(store) })
        case .object(let entries, let range):
            return .object(entries.map { Value.ObjectEntry(key: $0.key, keyToken: $0.keyToken, value: $0.value.tagged(store)) }, range)
        case .unknown, .nothing: return self
        }
    }

    /// The member `key` of an object, or of each object in a list (a `Platform.select` of objects).
    func member(_ key: String) -> Value? {
        switch self {
        case .object(let entries, _):
            return entries.last { $0.key == key }?.value
        case .list(let items), .either(let items):
            // Each element's or branch's member (`plans.map { it.productId }`); an unknown one stays
            // unknown, one without the member gives nothing.
            guard containsObject else { return nil }
            let members = items.map { item -> Value in
                if case .unknown = item { return item }
                return item.member(key) ?? .nothing
            }
            if case .list = self { return .list(members) }
            return .either(members)
        default:
            return nil
        }
    }

    /// A hash of the value's shape and leaves, or nil past `budget` nodes: equal values from
    /// several call sites are kept once (`Value.unique`).
    func shapeHash(budget: inout Int) -> Int? {
        var hasher = Hasher()
        var stack: [Value] = [self]
        while let value = stack.popLast() {
            budget -= 1
            guard budget > 0 else { return nil }
            switch value {
            case .literal(let ref): hasher.combine(0); hasher.combine(ref)
            case .list(let items): hasher.combine(1); hasher.combine(items.count); stack.append(contentsOf: items)
            case .either(let items): hasher.combine(2); hasher.combine(items.count); stack.append(contentsOf: items)
            case .object(let entries, let range):
                hasher.combine(3); hasher.combine(range.lowerBound); hasher.combine(range.upperBound)
                for entry in entries { hasher.combine(entry.key); stack.append(entry.value) }
            case .unknown(let range): hasher.combine(4); hasher.combine(range.lowerBound); hasher.combine(range.upperBound)
            case .nothing: hasher.combine(5)
            }
        }
        return hasher.finalize()
    }

    /// `values` with repeats left out (by `shapeHash`; a value too large to hash is kept).
    static func unique(_ values: [Value]) -> [Value] {
        var seen = Set<Int>()
        return values.filter { value in
            var budget = 4_096
            guard let hash = value.shapeHash(budget: &budget) else { return true }
            return seen.insert(hash).inserted
        }
    }

    /// Whether an object stands anywhere in the value (in a list or a choice).
    var containsObject: Bool {
        var stack: [Value] = [self], visited = 0
        while let value = stack.popLast(), visited < 100_000 {
            visited += 1
            switch value {
            case .object: return true
            case .list(let items), .either(let items): stack.append(contentsOf: items)
            default: break
            }
        }
        return false
    }

    /// The element at `index` of a list whose elements are single values (`itemSkus[0]`).
    func element(_ index: Int) -> Value? {
        switch self {
        case .list(let items):
            guard index >= 0, index < items.count, items.allSatisfy({ if case .list = $0 { false } else { true } }) else { return nil }
            return items[index]
        case .either(let items):
            let elements = items.compactMap { $0.element(index) }
            return elements.isEmpty || elements.count != items.count ? nil : .either(elements)
        default:
            return nil
        }
    }

    /// An object, or a list or choice of objects (`[{id, type}, …]`, `Platform.select({ios: {…}, android: {…}})`).
    var isObject: Bool {
        switch self {
        case .object: return true
        case .list(let items), .either(let items): return items.contains { $0.isObject } && items.allSatisfy { $0.isObject || $0.isUnknown || $0.isNothing }
        default: return false
        }
    }

    var isNothing: Bool {
        if case .nothing = self { return true }
        return false
    }

    var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }

    var isCollection: Bool {
        switch self {
        case .list: return true
        case .either(let items): return !items.isEmpty && items.allSatisfy(\.isCollection)
        default: return false
        }
    }
}
