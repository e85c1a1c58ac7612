import TallyModel

/// Objective-C, Kotlin, Java, Dart, JavaScript/TypeScript and C#, through a tokenizer that knows
/// each language's strings and comments. To be written.
enum TokenScanner {
    static func scan(_ file: CodeFile, idPattern: String?) -> CodeScan { CodeScan() }
    static func mayAskForProducts(_ text: String, language: CodeLanguage) -> Bool { false }
}
