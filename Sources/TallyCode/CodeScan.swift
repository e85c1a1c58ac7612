import Foundation
import TallyModel

/// A programming language whose source Tally reads for the product IDs the app asks the store for.
public enum CodeLanguage: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case swift
    case objectiveC = "objective-c"
    case kotlin
    case java
    case dart
    case javaScript = "javascript"
    case typeScript = "typescript"
    case cSharp = "csharp"

    public var description: String { rawValue }

    /// The language of a file name ending (lower-case, without the dot); nil for any other.
    public static func forExtension(_ ext: String) -> CodeLanguage? {
        switch ext.lowercased() {
        case "swift": return .swift
        case "m", "mm", "h": return .objectiveC
        case "kt", "kts": return .kotlin
        case "java": return .java
        case "dart": return .dart
        case "js", "jsx", "mjs", "cjs": return .javaScript
        case "ts", "tsx", "mts", "cts": return .typeScript
        case "cs": return .cSharp
        default: return nil
        }
    }

    /// The languages read as one index: JavaScript with TypeScript, each other language alone.
    public var family: CodeLanguage { self == .javaScript ? .typeScript : self }

    /// Every file name ending of a language Tally reads.
    public static let extensions = ["swift", "m", "mm", "h", "kt", "kts", "java", "dart", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "cs"]
}

/// One file of source code handed to the scanner.
public struct CodeFile: Sendable, Hashable {
    public var path: String
    public var text: String
    public var language: CodeLanguage

    public init(path: String, text: String, language: CodeLanguage) {
        self.path = path
        self.text = text
        self.language = language
    }
}

/// A place in a code file (1-based line and column, columns in UTF-8 bytes like every other reader).
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var position: Position

    public init(file: String, position: Position) {
        self.file = file
        self.position = position
    }

    public var description: String { "\(file):\(position.line):\(position.column)" }
}

/// What kind of product the API call states, where it states one (Play's `ProductType.SUBS` /
/// `INAPP`, Unity's `ProductType.Consumable`, StoreKit 1 has none).
public enum RequestedKind: String, Sendable, Hashable, CustomStringConvertible {
    /// A subscription (Play `SUBS`, Unity `ProductType.Subscription`, react-native-iap `subs`).
    case subscription
    /// A one-time product whose consumability the API does not say (Play `INAPP`).
    case oneTime = "one-time"
    case consumable
    case nonConsumable = "non-consumable"

    public var description: String { rawValue }
}

/// One product ID the app's code asks a store for.
public struct ProductRequest: Sendable, Hashable {
    /// The product ID, as the string literal spells it.
    public var id: String
    /// Where the ID's string literal stands (a constant's declaration when the call names a constant).
    public var literal: CodeLocation
    /// The call that asks the store for it (`Product.products(for:)`, `setProductId`); the same
    /// as `literal` when the ID is written inline.
    public var call: CodeLocation
    /// The API, as a reader would name it: "Product.products(for:)", "SKProductsRequest(productIdentifiers:)",
    /// "QueryProductDetailsParams.Product.setProductId", "getProducts", "tally convert" (a generated file).
    public var api: String
    /// The kind, where the API states it.
    public var kind: RequestedKind?
    /// The store the API speaks to: `.appStore` for StoreKit, `.googlePlay` for Play Billing, nil
    /// for cross-platform SDKs (RevenueCat, react-native-iap, Flutter, Unity).
    public var store: Store?

    public init(id: String, literal: CodeLocation, call: CodeLocation, api: String, kind: RequestedKind? = nil, store: Store? = nil) {
        self.id = id
        self.literal = literal
        self.call = call
        self.api = api
        self.kind = kind
        self.store = store
    }
}

/// A string a naive scan would take for a product ID (reverse DNS, or `premium_monthly`-like)
/// that the scanner did not, and why: a bundle ID, a UserDefaults key, a notification name.
public struct RejectedString: Sendable, Hashable {
    public var text: String
    public var location: CodeLocation
    /// Why it is not a product ID ("not passed to a purchase API", "in a comment", "a UserDefaults key").
    public var reason: String

    public init(text: String, location: CodeLocation, reason: String) {
        self.text = text
        self.location = location
        self.reason = reason
    }
}

/// Something the scanner wants the user to know: a purchase API call whose IDs it could not
/// resolve to literals (built at run time, read from a server or the environment).
public struct CodeNote: Sendable, Hashable {
    public var message: String
    public var location: CodeLocation

    public init(message: String, location: CodeLocation) {
        self.message = message
        self.location = location
    }
}

/// What the scanner found in a set of files.
public struct CodeScan: Sendable {
    /// Every request, in file order then position order; one ID may be asked for at several call sites.
    public var requests: [ProductRequest] = []
    public var rejected: [RejectedString] = []
    public var notes: [CodeNote] = []

    public init(requests: [ProductRequest] = [], rejected: [RejectedString] = [], notes: [CodeNote] = []) {
        self.requests = requests
        self.rejected = rejected
        self.notes = notes
    }

    public mutating func append(_ other: CodeScan) {
        requests += other.requests
        rejected += other.rejected
        notes += other.notes
    }
}

/// Reads the product IDs an app's code asks the store for.
public enum CodeScanner {
    /// Scans `files` together: Swift files are one module (a constant, array, set, dictionary or
    /// `String` enum declared in one file resolves a call in another), and so are each other
    /// language's files (JavaScript and TypeScript as one): an object, companion, enum, list,
    /// exported module constant or `#define` in one file resolves a call in another. `idPattern` (the policy's `code: {ids: REGEX}`) takes, besides the calls,
    /// every string literal that the whole pattern matches, for apps that build their IDs another way.
    /// A file `tally convert --to swift|kotlin|dart|typescript` wrote is read as the constants it declares.
    public static func scan(_ files: [CodeFile], idPattern: String? = nil) -> CodeScan {
        scan(files, idPattern: idPattern, swiftModuleBytes: SwiftScanner.modulePassBytes)
    }

    /// `swiftModuleBytes`: up to how many bytes of Swift are parsed once and kept whole
    /// (`SwiftScanner.modulePassBytes`; tests set 0 to read every module file by file).
    static func scan(_ files: [CodeFile], idPattern: String?, swiftModuleBytes: Int) -> CodeScan {
        // On a thread whose stack is sized for swift-syntax (ReaderStack.codeBytes), never the
        // caller's: the main thread's 8 MB crashed on a deep expression (issue 47).
        (try? ReaderStack.run(stack: ReaderStack.codeBytes) { scanHere(files, idPattern: idPattern, swiftModuleBytes: swiftModuleBytes) }) ?? CodeScan()
    }

    private static func scanHere(_ files: [CodeFile], idPattern: String?, swiftModuleBytes: Int) -> CodeScan {
        var scan = CodeScan()
        // An invalid pattern is said once (the policy reader refuses it first; this is for callers that do not).
        var idPattern = idPattern
        if let pattern = idPattern, (try? Regex(pattern)) == nil, let first = files.first {
            scan.notes.append(CodeNote(message: "the ids pattern \"\(pattern.prefix(80))\" is not a regular expression Tally can read; it is not used",
                                       location: CodeLocation(file: first.path, position: .unknown)))
            idPattern = nil
        }
        if let pattern = idPattern, let risk = IDPattern.backtrackingRisk(pattern), let first = files.first {
            scan.notes.append(CodeNote(message: "the ids pattern \"\(pattern.prefix(80))\" is not used: \(risk)",
                                       location: CodeLocation(file: first.path, position: .unknown)))
            idPattern = nil
        }
        var swift: [CodeFile] = []
        // The other languages' files, each language one index (JavaScript and TypeScript import each other).
        var groups: [CodeLanguage: [CodeFile]] = [:]
        var order: [CodeLanguage] = []
        for file in files {
            if file.text.utf8.count > TokenScanner.maxBytes {
                // The same limit for every code file, a generated constants file too (issue 47).
                scan.notes.append(CodeNote(message: "not read: \(file.text.utf8.count) bytes, more than the \(TokenScanner.maxBytes >> 20) MB a source file may have",
                                           location: CodeLocation(file: file.path, position: Position(line: 1, column: 1))))
            } else if GeneratedConstants.isGenerated(file.text) {
                scan.append(GeneratedConstants.scan(file))
            } else if file.language == .swift {
                swift.append(file)
            } else {
                let family = file.language.family
                if groups[family] == nil { order.append(family) }
                groups[family, default: []].append(file)
            }
        }
        for family in order { scan.append(TokenScanner.scan(group: groups[family] ?? [], idPattern: idPattern)) }
        if !swift.isEmpty { scan.append(SwiftScanner.scan(swift, idPattern: idPattern, modulePassBytes: swiftModuleBytes)) }
        for file in files { scan.notes += PaywallPlatformUse.notes(in: file) }
        return scan
    }

    /// Whether a file may hold a request, cheaply (for choosing files in a repository): it names a
    /// purchase API the scanner knows. `scan` decides; this only narrows which files are read whole.
    public static func mayAskForProducts(_ text: String, language: CodeLanguage) -> Bool {
        if GeneratedConstants.isGenerated(text) { return true }
        return language == .swift ? SwiftScanner.mayAskForProducts(text) : TokenScanner.mayAskForProducts(text, language: language)
    }
}

/// Strings a naive scan takes for product IDs: reverse DNS with three or more parts
/// (`com.example.app.pro`), or a word with a purchase word in it (`premium_monthly`, `remove_ads`).
public enum NaiveScan {
    public static func looksLikeProductID(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 200, !text.contains(" "), !text.contains("/") else { return false }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let isIdentifierish = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
        guard isIdentifierish else { return false }
        if parts.count >= 3, parts.allSatisfy({ !$0.isEmpty }) { return true }
        let lower = text.lowercased()
        return ["premium", "monthly", "yearly", "annual", "weekly", "subscription", "remove_ads", "removeads", "pro_", "_pro", "lifetime", "coins", "gems", "tip"].contains { lower.contains($0) }
    }
}

/// Calls that load the products to show from a paywall platform (RevenueCat's offerings, Adapty's
/// paywalls, Qonversion's offerings): the app then asks the store for IDs the platform names,
/// which the code does not list. Each is a note, so that `code-unused-product` stays quiet.
enum PaywallPlatformUse {
    static let calls: [(text: String, platform: String)] = [
        ("getOfferings", "RevenueCat"), ("Purchases.shared.offerings", "RevenueCat"), ("Purchases.sharedInstance.offerings", "RevenueCat"),
        ("awaitOfferings", "RevenueCat"), ("getPaywall(", "Adapty"), ("getPaywallProducts", "Adapty"), ("Adapty.getPlacement", "Adapty"),
        ("Qonversion.shared().offerings", "Qonversion"), ("Qonversion.shared.offerings", "Qonversion"),
    ]

    static func notes(in file: CodeFile) -> [CodeNote] {
        // Bytes, not `String.contains` (Foundation's search took a third of reading 650 Kotlin files).
        let search = ByteSearch(file.text)
        guard calls.contains(where: { search.contains($0.text) }) else { return [] }
        var notes: [CodeNote] = []
        var seen = Set<String>()
        var line = 0
        for text in file.text.split(separator: "\n", omittingEmptySubsequences: false) {
            line += 1
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            // A line comment is not a call (a rough test; the scanners know comments exactly).
            guard !trimmed.hasPrefix("//"), !trimmed.hasPrefix("*"), !trimmed.hasPrefix("#") else { continue }
            for call in calls where text.contains(call.text) && seen.insert(call.platform).inserted {
                let column = text.utf8.count - (text.range(of: call.text).map { text[$0.lowerBound...].utf8.count } ?? text.utf8.count) + 1
                notes.append(CodeNote(message: "the app loads the products it shows from \(call.platform) (\(call.text.trimmingCharacters(in: CharacterSet(charactersIn: ".(")))): their IDs come from the paywall platform",
                                      location: CodeLocation(file: file.path, position: Position(line: line, column: column))))
            }
        }
        return notes
    }
}

/// The policy's `code: {ids: REGEX}` is run against every string literal of the code, and Swift's
/// regular expressions backtrack: `(a|aa)+b` against 40 `a`s took 105 s (issue 47). A pattern that
/// repeats (`*`, `+`, `{n,}`) a group holding a repetition or an alternation can take time
/// exponential in a string's length, so it is refused; product-ID patterns never need one
/// (`com\.app\.tip\.[a-z]+`, `(pro|plus)_(monthly|yearly)`).
public enum IDPattern {
    /// Why `pattern` may backtrack without bound, or nil when it cannot.
    public static func backtrackingRisk(_ pattern: String) -> String? {
        let characters = Array(pattern)
        // Per open group: whether it holds a repetition or an alternation so far.
        var groups: [Bool] = []
        var i = 0
        func quantifier(at index: Int) -> Bool {
            guard index < characters.count else { return false }
            return characters[index] == "*" || characters[index] == "+" || characters[index] == "{"
        }
        while i < characters.count {
            let c = characters[i]
            switch c {
            case "\\":
                i += 2
                if quantifier(at: i), !groups.isEmpty { groups[groups.count - 1] = true }
                continue
            case "[":
                // A class is one atom: skip to its closing bracket.
                var j = i + 1
                if j < characters.count, characters[j] == "^" { j += 1 }
                if j < characters.count, characters[j] == "]" { j += 1 }
                while j < characters.count, characters[j] != "]" { j += characters[j] == "\\" ? 2 : 1 }
                i = j + 1
                if quantifier(at: i), !groups.isEmpty { groups[groups.count - 1] = true }
                continue
            case "(":
                groups.append(false)
                i += 1
                if i < characters.count, characters[i] == "?" { i += 1 }  // (?: … ), (?i), lookarounds: not a quantifier
                continue
            case ")":
                let inner = groups.popLast() ?? false
                i += 1
                if quantifier(at: i) {
                    if inner { return "it repeats a group that holds a repetition or an alternation, which can take time exponential in a string's length" }
                    if !groups.isEmpty { groups[groups.count - 1] = true }
                } else if inner, !groups.isEmpty {
                    groups[groups.count - 1] = true
                }
                continue
            case "|":
                if !groups.isEmpty { groups[groups.count - 1] = true }
            case "*", "+", "{":
                if !groups.isEmpty { groups[groups.count - 1] = true }
            default:
                break
            }
            i += 1
        }
        return nil
    }
}
