import Foundation
import TallyCode
import TallyModel

/// The product IDs an app's code asks the store for, as a source (`SourceFormat.code`): the
/// calls `TallyCode.CodeScanner` finds, one product per ID, each request with its call site.
///
/// A file is a code source only when it asks for products (a purchase API call with IDs, or a
/// file `tally convert --to swift` wrote): the rest of an app's code is not. Every code file of a
/// run is read together as one source (`read(files:)`), so that a Swift constant declared in one
/// file resolves a call in another.
public enum CodeSourceReader: ModuleSourceReader {
    public static let format = SourceFormat.code
    public static let extensions = CodeLanguage.extensions
    public static let fuzzTargets = [
        FuzzTarget("code-swift", file: "StoreManager.swift"), FuzzTarget("code-objc", file: "Store.m"),
        FuzzTarget("code-kotlin", file: "BillingClient.kt"), FuzzTarget("code-java", file: "Billing.java"),
        FuzzTarget("code-dart", file: "store.dart"), FuzzTarget("code-typescript", file: "purchase.ts"),
        FuzzTarget("code-csharp", file: "IAPManager.cs"),
    ]
    /// `.js`, `.ts`, `.m`, `.java` are mostly not about products: only a file that asks is a source.
    public static let sniffedExtensions = CodeLanguage.extensions

    public static func sniff(_ head: String, file: String) -> Bool {
        guard let language = language(of: file) else { return false }
        return CodeScanner.mayAskForProducts(head, language: language)
    }

    public static var decidedByContent: Bool { true }

    public static func holdsProducts(_ bytes: [UInt8], file: String) -> Bool? {
        guard let language = language(of: file) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        guard CodeScanner.mayAskForProducts(text, language: language) else { return false }
        return !CodeScanner.scan([CodeFile(path: file, text: text, language: language)]).requests.isEmpty
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        try read(files: [(file, bytes)], name: file, options: options)
    }

    public static func takes(_ path: String) -> Bool { language(of: path) != nil }
    public static func moduleName(_ paths: [String]) -> String { commonFolder(paths) }

    /// The language of a file by its name's ending.
    public static func language(of file: String) -> CodeLanguage? {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return CodeLanguage.forExtension(String(name[name.index(after: dot)...]))
    }

    /// Reads several code files as one source named `name` (their common folder, or the file when
    /// there is one), each file a `SourcePart` so that locations name the file and its own line.
    public static func read(files: [(path: String, bytes: [UInt8])], name: String, options: ReadOptions) throws -> Catalog {
        var codeFiles: [CodeFile] = []
        var parts: [SourcePart] = []
        var firstLine: [String: Int] = [:]
        var nextLine = 1
        for (path, bytes) in files {
            guard let language = language(of: path) else {
                throw FormatError("not a code file Tally reads (\(CodeLanguage.extensions.map { "." + $0 }.joined(separator: ", ")))",
                                  file: path, position: .unknown)
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw FormatError("the file is not UTF-8 text", file: path, position: .unknown)
            }
            codeFiles.append(CodeFile(path: path, text: text, language: language))
            parts.append(SourcePart(file: path, firstLine: nextLine))
            firstLine[path] = nextLine
            nextLine += text.reduce(into: 1) { lines, character in if character == "\n" || character == "\r\n" { lines += 1 } }
        }
        let scan = CodeScanner.scan(codeFiles, idPattern: options.codeIDPattern)
        func position(_ location: CodeLocation) -> Position {
            guard location.position.isKnown, let first = firstLine[location.file] else { return .unknown }
            return Position(line: Int(location.position.line) + first - 1, column: Int(location.position.column))
        }
        var requests: [CodeRequest] = []
        var seen = Set<CodeRequest>()
        for found in scan.requests {
            let request = CodeRequest(id: found.id, position: position(found.literal), callPosition: position(found.call), api: found.api,
                                      kind: found.kind.flatMap(productKind), oneTime: found.kind == .oneTime, store: found.store)
            if seen.insert(request).inserted { requests.append(request) }
        }
        var products: [Product] = []
        var index: [String: Int] = [:]
        for request in requests {
            if let at = index[request.id] {
                // A later call that states the kind tells it where the first did not.
                if products[at].fieldPositions[.kind] == nil, let kind = request.kind {
                    products[at].kind = kind
                    products[at].fieldPositions[.kind] = request.callPosition
                }
                continue
            }
            var product = Product(id: request.id, kind: request.kind ?? .nonConsumable, position: request.position)
            if request.kind != nil { product.fieldPositions[.kind] = request.callPosition }
            index[request.id] = products.count
            products.append(product)
        }
        let unresolved = scan.notes.map { CodeNotice(text: "", message: oneLine($0.message), position: position($0.location)) }
        let rejected = scan.rejected.map { CodeNotice(text: oneLine($0.text), message: oneLine($0.reason), position: position($0.location)) }
        var catalog = Catalog(file: name, format: .code, products: products, knownFields: [.id])
        catalog.parts = files.count > 1 ? parts : []
        catalog.code = CodeRequests(requests: requests, unresolved: unresolved, files: files.count, rejected: rejected)
        catalog.code?.askingFiles = Set(scan.requests.flatMap { [$0.call.file, $0.literal.file] }).count
        catalog.distinguishesConsumables = false
        return catalog
    }

    /// Code quoted in a message on one line: runs of white space (a call split over lines) as one space.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    static func productKind(_ kind: RequestedKind) -> ProductKind? {
        switch kind {
        case .subscription: return .autoRenewableSubscription
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .oneTime: return nil
        }
    }

    /// The name of a source of several files: their longest common folder ("." when none).
    public static func commonFolder(_ paths: [String]) -> String {
        guard let first = paths.first else { return "." }
        if paths.count == 1 { return first }
        var common = first.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for path in paths.dropFirst() {
            let folders = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
            var count = 0
            while count < min(common.count, folders.count), common[count] == folders[count] { count += 1 }
            common = Array(common.prefix(count))
        }
        let joined = common.joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }
}
