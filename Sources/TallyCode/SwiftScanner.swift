import TallyModel

/// Swift source, parsed with swift-syntax (see issue 35). To be written.
enum SwiftScanner {
    static func scan(_ files: [CodeFile], idPattern: String?) -> CodeScan { CodeScan() }
    static func mayAskForProducts(_ text: String) -> Bool { false }
}
