import SwiftParser
import SwiftSyntax
import TallyModel

/// Swift source, parsed with swift-syntax's parser: the files of a run are one module, so a
/// constant, array, set, dictionary or `String` enum declared in one file resolves a purchase
/// call in another (SwiftIndex, SwiftEvaluator). An ID is a string literal that reaches a
/// purchase API (SwiftPurchaseAPI); a call whose IDs are not literals in the module gets a note.
enum SwiftScanner {
    static func scan(_ files: [CodeFile], idPattern: String?, modulePassBytes: Int = modulePassBytes) -> CodeScan {
        var scan = CodeScan()
        var readable: [CodeFile] = []
        for file in files {
            if file.text.utf8.count > TokenScanner.maxBytes {
                scan.notes.append(CodeNote(message: "not read: \(file.text.utf8.count) bytes, more than the \(TokenScanner.maxBytes >> 20) MB a source file may have",
                                           location: CodeLocation(file: file.path, position: Position(line: 1, column: 1))))
            } else if let depth = bracketDepth(file.text), depth > maxBracketDepth {
                // swift-syntax's parser takes time that doubles with each level of `[[[…]]]`
                // (16 levels: 3.5 s; 20: 27 s): a file nested this deep is not an app's purchase code.
                scan.notes.append(CodeNote(message: "not read: square brackets nested \(depth) deep, more than the \(maxBracketDepth) Tally parses",
                                           location: CodeLocation(file: file.path, position: Position(line: 1, column: 1))))
            } else {
                readable.append(file)
            }
        }
        guard !readable.isEmpty else { return scan }
        // StoreKit's SwiftUI views need `import StoreKit`, and an app's own `struct ProductView`
        // (issue 49: a real app's) is not StoreKit's.
        let searches = readable.map { ByteSearch($0.text) }
        let ownViews = Set(views.filter { name in
            searches.contains { search in
                guard search.contains(name) else { return false }
                return ["struct", "class", "enum", "actor", "typealias"].contains { keyword in
                    [" ", ":", "{", "<", "="].contains { search.contains("\(keyword) \(name)\($0)") }
                }
            }
        })
        let pattern = idPattern.flatMap { try? Regex($0) }
        var found = Found()
        var strings: [Candidate] = []
        var quoted: [RejectedString] = []
        if readable.reduce(0, { $0 + $1.text.utf8.count }) <= modulePassBytes {
            let index = SwiftIndex(readable)
            evaluateCalls(index, ownViews: ownViews, into: &found, notes: &scan.notes)
            for unit in index.units {
                strings += candidates(unit, pattern: pattern)
                quoted += SwiftRejection.quotedInComments(unit, skipping: [])
            }
        } else {
            // A module too big to keep parsed whole (about 100 bytes of memory a byte of Swift,
            // issue 47): each file is parsed on its own for its strings, its comments and the
            // names it declares and writes, then dropped; the files that refer to each other are
            // then read together, a group at a time, and only groups that ask for products.
            var summaries: [FileSummary] = []
            for file in readable {
                let unit = SwiftUnit(file)
                strings += candidates(unit, pattern: pattern)
                quoted += SwiftRejection.quotedInComments(unit, skipping: [])
                summaries.append(FileSummary(unit))
            }
            for group in components(summaries) where group.contains(where: { summaries[$0].asks }) {
                let index = SwiftIndex(group.map { readable[$0] })
                evaluateCalls(index, ownViews: ownViews, into: &found, notes: &scan.notes)
            }
        }
        scan.requests = found.requests
        let requestedIDs = Set(scan.requests.map(\.id))
        for string in strings where !found.requested.contains(string.key) {
            if let pattern, (try? pattern.wholeMatch(in: string.text)) != nil {
                scan.requests.append(ProductRequest(id: string.text, literal: string.location, call: string.location, api: TokenScanner.patternAPI))
                continue
            }
            guard string.looksLikeID, !requestedIDs.contains(string.text) else { continue }
            scan.rejected.append(RejectedString(text: string.text, location: string.location, reason: found.builtAtRunTime[string.key] ?? string.reason))
        }
        scan.rejected += quoted.filter { !requestedIDs.contains($0.text) }
        scan.requests.sort { order($0) < order($1) }
        scan.rejected.sort { ($0.location.file, $0.location.position.line, $0.location.position.column) < ($1.location.file, $1.location.position.line, $1.location.position.column) }
        return scan
    }

    /// Up to this many bytes of Swift, a code source's files are parsed once and kept together;
    /// past it, each file is parsed on its own first and only files that refer to each other are
    /// kept together (`components`), so memory follows the largest group, not the module.
    static let modulePassBytes = 2 << 20

    private static let views: Set<String> = ["ProductView", "StoreView", "SubscriptionStoreView"]

    /// What the purchase calls of a module ask for.
    struct Found {
        var requests: [ProductRequest] = []
        /// The literals requests came from.
        var requested = Set<SwiftUnit.Key>()
        /// Strings in an argument not followed to its end: the reason they are not requests.
        var builtAtRunTime: [SwiftUnit.Key: String] = [:]
    }

    /// A string literal of a file that a request may take, or that looks like a product ID.
    struct Candidate {
        var text: String
        var location: CodeLocation
        var key: SwiftUnit.Key
        var looksLikeID: Bool
        /// Why it is not a request (when it is not one, and no call built it at run time).
        var reason: String
    }

    /// A file's names, for grouping the files that refer to each other.
    struct FileSummary {
        /// Whether it holds a purchase call.
        var asks: Bool
        var declared: Set<String>
        /// Every identifier it writes (and `init`).
        var written: Set<String>

        init(_ unit: SwiftUnit) {
            let finder = CallFinder(viewMode: .sourceAccurate)
            finder.walk(unit.tree)
            asks = !finder.calls.isEmpty
            declared = SwiftIndex.declaredNames(unit)
            var written = Set<String>()
            for token in unit.tree.tokens(viewMode: .sourceAccurate) {
                switch token.tokenKind {
                case .identifier(let text): written.insert(text)
                case .keyword(.`init`): written.insert("init")
                default: break
                }
            }
            self.written = written
        }
    }

    /// The files that refer to each other, as groups of indices: two files are in one group when
    /// a name one declares is written in the other (or both declare it). Everything the evaluator
    /// looks up is such a name, so a group's index answers a call as the whole module's would.
    static func components(_ summaries: [FileSummary]) -> [[Int]] {
        var parent = Array(summaries.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        var declarer: [String: Int] = [:]
        for (i, summary) in summaries.enumerated() {
            for name in summary.declared {
                if let other = declarer[name] { parent[root(i)] = root(other) } else { declarer[name] = i }
            }
        }
        for (i, summary) in summaries.enumerated() {
            for name in summary.written {
                if let other = declarer[name] { parent[root(i)] = root(other) }
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in summaries.indices { groups[root(i), default: []].append(i) }
        return groups.values.sorted { $0[0] < $1[0] }
    }

    /// Follows every purchase call of a module to the literals it asks for.
    private static func evaluateCalls(_ index: SwiftIndex, ownViews: Set<String>, into found: inout Found, notes: inout [CodeNote]) {
        let evaluator = SwiftEvaluator(index: index)
        for unit in index.units {
            let finder = CallFinder(viewMode: .sourceAccurate)
            finder.walk(unit.tree)
            let unitSearch = ByteSearch(unit.file.text)
            let importsStoreKit = unitSearch.contains("import StoreKit") || unitSearch.contains("import _StoreKit_SwiftUI")
            for (call, api, argument) in finder.calls {
                if case .named(let name) = api.callee, views.contains(name),
                   ownViews.contains(name) || !importsStoreKit, !call.calledExpression.trimmedDescription.hasPrefix("StoreKit.") {
                    continue
                }
                let callSite = callLocation(call, unit: unit)
                let (literals, unknown) = evaluator.value(of: argument).flattened(index)
                if evaluator.exhausted {
                    notes.append(CodeNote(message: "\(api.api) asks for IDs Tally stopped following after \(SwiftEvaluator.steps) steps "
                                          + "(a parameter passed through many calls or names): the IDs it found are checked, others may be missing",
                                          location: callLocation(call, unit: unit)))
                }
                var seen = Set<SwiftLiteral>()
                for literal in literals where seen.insert(literal).inserted {
                    found.requested.insert(literal.key)
                    found.requests.append(ProductRequest(id: literal.text, literal: literal.location, call: callSite, api: api.api, store: api.store))
                }
                guard !unknown.isEmpty else { continue }
                let line = callSite.position.line
                for node in unknown.prefix(64) {
                    guard let owner = index.unit(of: node) else { continue }
                    for string in StringFinder.strings(in: node, limit: 256) where found.builtAtRunTime[owner.key(string)] == nil {
                        found.builtAtRunTime[owner.key(string)] = "part of an ID built at run time for \(api.api) at line \(line)"
                    }
                }
                // The argument as the call writes it: the parts not followed may stand in other files.
                let shown = "`\(snippet(Syntax(argument)).replacingOccurrences(of: "`", with: "'"))`"
                let which = literals.isEmpty ? "the product IDs" : "some of the product IDs"
                notes.append(CodeNote(message: "\(api.api) asks for \(which) from \(shown), not string literals in this module: "
                                      + "they are built at run time or come from elsewhere (configuration, a server, another file)", location: callSite))
            }
        }
    }

    /// A file's string literals that a request may take (the policy's `ids` pattern matches them)
    /// or that look like product IDs, with the reason each is not a request.
    private static func candidates(_ unit: SwiftUnit, pattern: Regex<AnyRegexOutput>?) -> [Candidate] {
        var found: [Candidate] = []
        // Keyed by node: one a file, since a dropped file's identifiers may come back in the next.
        let operators = SwiftRejection.Operators()
        for string in StringFinder.strings(in: Syntax(unit.tree), limit: .max) {
            guard let text = string.representedLiteralValue else { continue }
            let looksLikeID = TokenScanner.looksLikeProductID(text)
            guard looksLikeID || pattern.map({ (try? $0.wholeMatch(in: text)) != nil }) == true else { continue }
            found.append(Candidate(text: text, location: unit.location(string), key: unit.key(string), looksLikeID: looksLikeID,
                                   reason: looksLikeID ? SwiftRejection.reason(for: string, operators: operators) : ""))
        }
        return found
    }

    static let maxBracketDepth = 12

    /// The deepest nesting of `[` in a file's code: brackets in string literals (plain, raw
    /// `#"…"#`, multi-line `"""`) and in comments (`//`, nested `/* */`) are not counted, so a
    /// file whose strings or comments hold many `[` is read like any other.
    static func bracketDepth(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        let count = bytes.count
        var i = 0, depth = 0, deepest = 0
        func at(_ index: Int) -> UInt8 { index < count ? bytes[index] : 0 }
        while i < count {
            let byte = bytes[i]
            switch byte {
            case 0x2F where at(i + 1) == 0x2F: // `//` to the end of the line
                while i < count, bytes[i] != 0x0A { i += 1 }
            case 0x2F where at(i + 1) == 0x2A: // `/*`, nested as Swift nests them
                var level = 0
                while i < count {
                    if bytes[i] == 0x2F, at(i + 1) == 0x2A { level += 1; i += 2; continue }
                    if bytes[i] == 0x2A, at(i + 1) == 0x2F { level -= 1; i += 2; if level == 0 { break }; continue }
                    i += 1
                }
            case 0x23, 0x22: // `#…"` or `"`: a string literal
                var hashes = 0
                var j = i
                while at(j) == 0x23 { hashes += 1; j += 1 }
                guard at(j) == 0x22 else { i = j; continue }
                let multiLine = at(j + 1) == 0x22 && at(j + 2) == 0x22
                j += multiLine ? 3 : 1
                // Closed by `"` (or `"""`) followed by as many `#` as opened it; `\` escapes one
                // byte in a plain string, `\#` in a raw one.
                scan: while j < count {
                    let c = bytes[j]
                    if c == 0x5C {
                        var k = j + 1, marks = 0
                        while marks < hashes, at(k) == 0x23 { marks += 1; k += 1 }
                        j = marks == hashes ? k + 1 : j + 1
                        continue
                    }
                    if c == 0x0A, !multiLine { break scan }
                    if c == 0x22, !multiLine || (at(j + 1) == 0x22 && at(j + 2) == 0x22) {
                        var k = j + (multiLine ? 3 : 1), marks = 0
                        while marks < hashes, at(k) == 0x23 { marks += 1; k += 1 }
                        if marks == hashes { j = k; break scan }
                    }
                    j += 1
                }
                i = j
                continue
            case 0x5B:
                depth += 1
                deepest = max(deepest, depth)
            case 0x5D where depth > 0:
                depth -= 1
            default:
                break
            }
            i += 1
        }
        return deepest
    }

    private static func order(_ request: ProductRequest) -> (String, UInt32, UInt32, String, UInt32, UInt32) {
        (request.call.file, request.call.position.line, request.call.position.column,
         request.literal.file, request.literal.position.line, request.literal.position.column)
    }

    /// Where a call stands: its receiver type (`Product` of `Product.products(for:)`) or its name;
    /// a SwiftUI modifier at its name, not at the start of the view it modifies.
    static func callLocation(_ call: FunctionCallExprSyntax, unit: SwiftUnit) -> CodeLocation {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, !base.is(DeclReferenceExprSyntax.self) {
            if let inner = base.as(MemberAccessExprSyntax.self), inner.base?.is(DeclReferenceExprSyntax.self) == true { return unit.location(call) }
            return unit.location(member.declName)
        }
        return unit.location(call)
    }

    /// An expression on one line, cut at 60 characters.
    static func snippet(_ node: Syntax) -> String {
        let text = String(node.trimmedDescription.prefix(240))
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        return words.count > 60 ? String(words.prefix(60)) + "…" : words
    }

    static func mayAskForProducts(_ text: String) -> Bool {
        let search = ByteSearch(text)
        return SwiftPurchaseAPI.names.contains { search.contains($0) }
    }
}

extension SwiftValue {
    /// The literals an ID position receives, and the expressions that are not literals in the module.
    func flattened(_ index: SwiftIndex) -> (literals: [SwiftLiteral], unknown: [Syntax]) {
        var literals: [SwiftLiteral] = []
        var unknown: [Syntax] = []
        var stack: [SwiftValue] = [self]
        var steps = 0
        while let value = stack.popLast(), steps < 100_000 {
            steps += 1
            switch value {
            case .literal(let literal): literals.append(literal)
            case .list(let items), .either(let items): stack.append(contentsOf: items.reversed())
            case .dictionary(let keys, _): stack.append(contentsOf: keys.reversed())
            case .enumCase(let type, let name):
                if let element = index.caseElement(type, name), let literal = index.rawValue(of: element) {
                    literals.append(literal)
                }
            case .instance(let type, let arguments):
                // A value made with an ID (`Tier(id: "…")`) passed where IDs go: its string arguments.
                let strings = arguments.filter { if case .literal = $0.value { return true } else { return false } }
                if strings.count == 1 { stack.append(strings[0].value) } else { _ = type }
            case .unknown(let nodes): unknown += nodes
            case .nothing: break
            }
        }
        return (literals, unknown)
    }
}

/// The purchase calls of a file, with the argument that holds their IDs.
private final class CallFinder: SyntaxVisitor {
    var calls: [(FunctionCallExprSyntax, SwiftPurchaseAPI, ExprSyntax)] = []
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let (api, argument) = SwiftPurchaseAPI.match(node) { calls.append((node, api, argument)) }
        return .visitChildren
    }
}

/// The string literals under a node.
final class StringFinder: SyntaxVisitor {
    var strings: [StringLiteralExprSyntax] = []
    var limit = Int.max
    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        if strings.count < limit { strings.append(node) }
        return strings.count < limit ? .visitChildren : .skipChildren
    }

    static func strings(in node: Syntax, limit: Int) -> [StringLiteralExprSyntax] {
        if let string = node.as(StringLiteralExprSyntax.self) { return [string] }
        let finder = StringFinder(viewMode: .sourceAccurate)
        finder.limit = limit
        finder.walk(node)
        return finder.strings
    }
}
