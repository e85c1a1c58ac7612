import TallyModel

/// Finds the purchase API calls of one file and reads the product IDs each asks for.
struct CallReader {
    let spans: FileSpans
    let tokens: [Token]
    let structure: Structure
    let source: [UInt8]
    var evaluator: Evaluator

    /// What the calls asked for.
    private(set) var requests: [ProductRequest] = []
    private(set) var notes: [CodeNote] = []
    /// The string tokens that reached a call.
    private(set) var requested: Set<Int> = []
    /// Why string tokens the calls met are not requests: part of an ID built at run time, an ID for
    /// a store Tally does not read.
    private(set) var reasons: [Int: String] = [:]
    /// Unity's general IDs whose every store has its own ID: `WithID`/`InitiatePurchase` look
    /// them up in Unity's catalogue, which asks the stores for their own IDs instead.
    private var unityGeneralIDs: Set<String> = []

    /// The language of the files (JavaScript and TypeScript are read alike).
    let language: CodeLanguage

    init(spans: FileSpans, tokens: [Token], structure: Structure, bindings: Bindings, source: [UInt8]) {
        self.spans = spans
        self.tokens = tokens
        self.structure = structure
        self.source = source
        language = spans.files.first?.language ?? .kotlin
        evaluator = Evaluator(tokens: tokens, structure: structure, bindings: bindings, language: language, spans: spans)
    }

    /// Reads the calls of each file that names a purchase API (with the import its shape needs).
    mutating func read() {
        defer {
            if !unityGeneralIDs.isEmpty {
                requests.removeAll { ["ProductCollection.WithID", "IStoreController.InitiatePurchase"].contains($0.api) && unityGeneralIDs.contains($0.id) }
            }
        }
        for (n, file) in spans.files.enumerated() {
            let end = n + 1 < spans.firstByte.count ? spans.firstByte[n + 1] : source.count
            let text = ByteSearch(bytes: Array(source[spans.firstByte[n]..<end]))
            let named = PurchaseAPI.all.filter { $0.languages.contains(file.language) && $0.isNamed(in: text) }
            guard !named.isEmpty else { continue }
            var table: [String: [PurchaseAPI]] = [:]
            for api in named { for method in api.methods { table[method, default: []].append(api) } }
            for i in spans.tokens(of: n, count: tokens.count) where tokens[i].kind == .identifier {
                guard let apis = table[tokens[i].text] else { continue }
                for api in apis where matches(api, at: i) {
                    read(api, at: i)
                    break
                }
            }
        }
    }

    // MARK: - Recognising a call

    private static let beforeCall: Set<String> = ["return", "await", "new", "yield", "throw", "else", "case", "in", "of", "typeof", "do", "is", "as"]

    private func matches(_ api: PurchaseAPI, at i: Int) -> Bool {
        if !api.receivers.isEmpty {
            guard i >= 2, tokens[i - 1].isPunctuation(".") || tokens[i - 1].isPunctuation("?."),
                  let start = Bindings.receiverStart(before: i - 1, tokens: tokens, structure: structure) else { return false }
            guard tokens[start..<(i - 1)].contains(where: { $0.kind == .identifier && api.receivers.contains($0.text) }) else { return false }
        }
        if case .selector = api.ids {
            guard i + 2 < tokens.count, tokens[i + 1].isPunctuation(":") else { return false }
            return !isObjectiveCMethodDeclaration(at: i)
        }
        guard paren(i) < tokens.count, tokens[paren(i)].isPunctuation("("), structure.partner[paren(i)] > paren(i) else { return false }
        if i > 0 {
            let previous = tokens[i - 1]
            if previous.kind == .identifier, !CallReader.beforeCall.contains(previous.text) { return false }  // `fun getProducts(`
            if previous.isPunctuation(">") || previous.isPunctuation("*") { return false }  // `List<X> getProducts(`
        }
        let close = structure.partner[paren(i)]
        if close + 1 < tokens.count {
            let next = tokens[close + 1]
            if next.isPunctuation("{") || next.isPunctuation("=>") || next.isIdentifier("async") || next.isIdentifier("throws") { return false }
        }
        if [.javaScript, .typeScript].contains(language),
           evaluator.arguments(open: paren(i), close: close).contains(where: { $0.label != nil }) {
            return false  // `getProducts(skus: string[])`: a declaration
        }
        return true
    }

    /// The `(` of a call at `i`: after the name, or after its type arguments (Dart's and
    /// TypeScript's `fetchProducts<ProductSubscription>(…)`).
    func paren(_ i: Int) -> Int {
        guard i + 1 < tokens.count, tokens[i + 1].isPunctuation("<"), let end = evaluator.typeArgumentsEnd(from: i + 1),
              end < tokens.count, tokens[end].isPunctuation("(") else { return i + 1 }
        return end
    }

    /// `- (void)getProductsWithIdentifiers:(NSArray *)ids` declares the selector; it asks for nothing.
    private func isObjectiveCMethodDeclaration(at i: Int) -> Bool {
        var k = i
        while k > 0, !tokens[k].newlineBefore, i - k < 64 { k -= 1 }
        return tokens[k].isPunctuation("-") || tokens[k].isPunctuation("+")
    }

    // MARK: - Reading a call

    private mutating func read(_ api: PurchaseAPI, at i: Int) {
        evaluator.beginCall()
        var found: [(Value, RequestedKind?)] = []
        let stated = statedKind(api, at: i)
        switch api.ids {
        case .selector:
            let (value, end) = evaluator.expression(at: i + 2)
            found.append((end > i + 2 ? value : evaluator.unknown(i + 2, i + 3), stated))
        case .argument(let position):
            let args = evaluator.arguments(open: paren(i), close: structure.partner[paren(i)])
            guard position < args.count else { return }
            let general = evaluator.value(of: args[position], depth: 0)
            guard api.api == "ConfigurationBuilder.AddProduct", args.count > 2 else {
                found.append((general, stated))
                break
            }
            // Unity's `AddProduct("gold", type, new IDs { {"gold_ios", AppleAppStore.Name}, … })`: a
            // store named there is asked for its own ID, not the general one; the others for the general one.
            let own = unityStoreIDs(args[2], kind: stated)
            found += own
            let named = Set(own.flatMap { $0.0.flattened().literals.compactMap(\.store) })
            // The stores it names none for are those a call of no store asks (the App Store and
            // Google Play): a store only some apps build for (the Amazon Appstore) is not assumed.
            let rest = Store.askedByCallsOfNoStore.filter { !named.contains($0) }
            if rest.count == Store.askedByCallsOfNoStore.count {
                found.append((general, stated))
            } else if !rest.isEmpty {
                for store in rest { found.append((general.tagged(store), stated)) }
            } else {
                for ref in general.flattened().literals {
                    reasons[ref.token] = "Unity's general product ID: each store is asked for its own ID (new IDs {…})"
                    unityGeneralIDs.insert(evaluator.text(of: ref))
                }
            }
        case .keyed(let position, let keys):
            let close = structure.partner[paren(i)]
            let args = evaluator.arguments(open: paren(i), close: close)
            let value: Value
            if !args.isEmpty, args.allSatisfy({ $0.label != nil }) {
                value = .object(args.map { .init(key: $0.label ?? "", keyToken: nil, value: evaluator.value(of: $0, depth: 0)) }, i..<(close + 1))
            } else {
                guard position < args.count else { return }
                value = evaluator.value(of: args[position], depth: 0)
            }
            if value.isObject {
                var keyed: [(Value, RequestedKind?)] = []
                collect(value, keys: Set(keys), kind: stated, into: &keyed, depth: 0)
                found += keyed
            } else {
                found.append((value, stated))
            }
        }
        record(found, api: api, at: i)
    }

    /// The kind the call states outside the IDs' argument: fixed, a chained setter, an argument.
    private mutating func statedKind(_ api: PurchaseAPI, at i: Int) -> RequestedKind? {
        switch api.kind {
        case .none, .key:
            return nil
        case .fixed(let kind):
            return kind
        case .chain(let setter):
            guard let (open, close) = chainedCall(setter, around: i) else { return nil }
            guard let first = evaluator.arguments(open: open, close: close).first else { return nil }
            return kind(of: evaluator.value(of: first, depth: 0))
        case .argument(let position, let label):
            guard paren(i) < tokens.count, tokens[paren(i)].isPunctuation("(") else { return nil }
            let args = evaluator.arguments(open: paren(i), close: structure.partner[paren(i)])
            let labelled = label.flatMap { label in args.first { $0.label == label } }
            let positional = args.filter { $0.label == nil }
            guard let arg = labelled ?? (position < positional.count ? positional[position] : nil) else { return api.defaultKind }
            return kind(of: evaluator.value(of: arg, depth: 0))
        }
    }

    /// `QueryProductDetailsParams.Product.newBuilder().setProductType(…).setProductId(x).build()`:
    /// the parentheses of `setter` in the same builder chain as the call at `i`.
    private func chainedCall(_ setter: String, around i: Int) -> (Int, Int)? {
        // Forward: `.setter(…)` after the call.
        var close = structure.partner[paren(i)], steps = 0
        while close > 0, close + 3 < tokens.count, steps < 32, tokens[close + 1].isPunctuation(".") || tokens[close + 1].isPunctuation("?.") {
            let name = close + 2, open = close + 3
            guard tokens[name].kind == .identifier, tokens[open].isPunctuation("("), structure.partner[open] > open else { break }
            if tokens[name].text == setter { return (open, structure.partner[open]) }
            close = structure.partner[open]
            steps += 1
        }
        // Backward: `.setter(…)` before it.
        var j = i
        steps = 0
        while j >= 2, steps < 32, tokens[j - 1].isPunctuation(".") || tokens[j - 1].isPunctuation("?.") {
            let before = j - 2
            if tokens[before].isPunctuation(")"), structure.partner[before] >= 1 {
                let open = structure.partner[before]
                if tokens[open - 1].isIdentifier(setter) { return (open, before) }
                j = open - 1
            } else if tokens[before].kind == .identifier {
                j = before
            } else {
                break
            }
            steps += 1
        }
        return nil
    }

    /// The kind a value names: a string (`'subs'`) or the last word of a constant (`ProductType.SUBS`).
    private func kind(of value: Value) -> RequestedKind? {
        switch value {
        case .literal(let ref):
            return RequestedKind(word: evaluator.text(of: ref))
        case .unknown(let range):
            guard let last = range.reversed().first(where: { $0 < tokens.count && tokens[$0].kind == .identifier }) else { return nil }
            return RequestedKind(word: tokens[last].text)
        case .list(let items), .either(let items):
            return items.lazy.compactMap { kind(of: $0) }.first
        case .object, .nothing:
            return nil
        }
    }

    /// The values of `keys` at any depth of an object (`{request: {ios: {sku}, android: {skus}}}`),
    /// each with the kind its own object states (`type: 'subs'`) and the store its `ios`/`android` key names.
    private func collect(_ value: Value, keys: Set<String>, kind: RequestedKind?, into found: inout [(Value, RequestedKind?)], depth: Int) {
        guard depth < 16 else { return }
        switch value {
        case .object(let entries, _):
            var local = kind
            for entry in entries where ["type", "productCategory", "productType", "category"].contains(entry.key) {
                local = self.kind(of: entry.value) ?? local
            }
            // cordova-plugin-purchase's `platform: Platform.GOOGLE_PLAY` names the store asked.
            let platform = entries.first { $0.key == "platform" }.flatMap { platformStore($0.value) }
            for entry in entries {
                if keys.contains(entry.key) {
                    found.append((entry.value.tagged(platform), local))
                } else if entry.value.isObject {
                    collect(entry.value.tagged(Evaluator.store(forPlatform: entry.key)), keys: keys, kind: local, into: &found, depth: depth + 1)
                }
            }
        case .list(let items), .either(let items):
            for item in items { collect(item, keys: keys, kind: kind, into: &found, depth: depth + 1) }
        case .unknown:
            found.append((value, kind))  // a part not known here: the call's note names it
        case .literal, .nothing:
            break
        }
    }

    /// The store a `platform` value names: `Platform.GOOGLE_PLAY`, `Platform.APPLE_APPSTORE`, `'ios'`.
    private func platformStore(_ value: Value) -> Store? {
        switch value {
        case .literal(let ref):
            return Evaluator.store(forPlatform: evaluator.text(of: ref).replacingOccurrences(of: "_", with: ""))
        case .unknown(let range):
            let words = range.compactMap { $0 < tokens.count && tokens[$0].kind == .identifier ? tokens[$0].text : nil }
            if words.contains(where: { $0.hasPrefix("GOOGLE") || $0 == "googlePlay" }) { return .googlePlay }
            if words.contains(where: { $0.hasPrefix("APPLE") || $0 == "appleAppStore" }) { return .appStore }
            return nil
        default:
            return nil
        }
    }

    /// Unity's `new IDs { {"x", AppleAppStore.Name}, {"y", GooglePlay.Name} }`: store-specific IDs.
    private mutating func unityStoreIDs(_ argument: Argument, kind: RequestedKind?) -> [(Value, RequestedKind?)] {
        guard let open = (argument.start..<argument.end).first(where: { tokens[$0].isPunctuation("{") }), structure.partner[open] > open else { return [] }
        var found: [(Value, RequestedKind?)] = []
        var k = open + 1
        while k < structure.partner[open] {
            guard tokens[k].isPunctuation("{"), structure.partner[k] > k else { k += 1; continue }
            let close = structure.partner[k]
            let names = tokens[k..<close].filter { $0.kind == .identifier }.map(\.text)
            let store: Store? = names.contains { ["AppleAppStore", "MacAppStore"].contains($0) } ? .appStore
                : names.contains("GooglePlay") ? .googlePlay : nil
            if let first = evaluator.elements(open: k, close: close, depth: 0).first {
                if store != nil {
                    found.append((first.tagged(store), kind))
                } else if let other = names.first(where: { $0.hasSuffix("Store") || $0.hasSuffix("Apps") || $0.hasSuffix("Market") }) {
                    for ref in first.flattened().literals { reasons[ref.token] = "an ID for \(other), a store Tally does not read" }
                }
            }
            k = close + 1
        }
        return found
    }

    // MARK: - Results

    private mutating func record(_ found: [(Value, RequestedKind?)], api: PurchaseAPI, at i: Int) {
        let call = location(of: i)
        var unknown: [Range<Int>] = []
        var seen: Set<LiteralRef> = []
        var any = false
        for (value, kind) in found {
            let flat = value.flattened()
            unknown += flat.unknown
            for ref in flat.literals where seen.insert(ref).inserted {
                let id = evaluator.text(of: ref)
                guard !id.isEmpty else { continue }
                requested.insert(ref.token)
                for part in ref.parts { requested.insert(part) }
                any = true
                requests.append(ProductRequest(id: id, literal: location(of: ref.token), call: call, api: api.api,
                                               kind: kind, store: ref.store ?? api.store))
            }
        }
        guard !unknown.isEmpty else { return }
        let callName = tokens[i].text
        for range in unknown {
            for k in range.prefix(512) where k < tokens.count && tokens[k].kind == .string {
                reasons[k] = "part of an ID built at run time for \(callName) at line \(tokens[i].line)"
            }
        }
        guard api.notesUnresolved else { return }
        var parts: [String] = []
        for range in unknown {
            let part = snippet(range)
            if !part.isEmpty, !parts.contains(part) { parts.append(part) }
        }
        let shown = parts.prefix(4).map { $0.contains("`") ? $0 : "`\($0)`" }.joined(separator: ", ") + (parts.count > 4 ? ", …" : "")
        let which = any ? "some of the product IDs" : "the product IDs"
        let name = api.api.hasSuffix(callName) ? api.api : "\(api.api) (\(callName))"
        if evaluator.exhausted {
            notes.append(CodeNote(message: "\(name) asks for \(which) from \(shown): Tally stopped following them at its budget "
                                  + "(\(Evaluator.maxSteps) steps a call, \(Evaluator.maxDepth) levels); name the IDs with code: {ids: REGEX} in .tally.yml", location: call))
            return
        }
        notes.append(CodeNote(message: "\(name) asks for \(which) from \(shown), not string literals Tally can follow in the code read: "
                              + "they are built at run time or come from elsewhere (configuration, a server, another file)", location: call))
    }

    func location(of i: Int) -> CodeLocation {
        CodeLocation(file: spans.files[spans.file(of: i)].path, position: Position(line: tokens[i].line, column: tokens[i].column))
    }

    /// The source text of tokens, on one line, cut at 60 characters.
    func snippet(_ range: Range<Int>) -> String {
        let lower = min(range.lowerBound, tokens.count - 1), upper = min(range.upperBound, tokens.count) - 1
        guard lower >= 0, upper >= lower else { return "" }
        let start = tokens[lower].start, end = min(tokens[upper].end, source.count, tokens[lower].start + 240)
        guard start < end else { return "" }
        let text = String(decoding: source[start..<end], as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        return words.count > 60 ? String(words.prefix(60)) + "…" : words
    }
}
