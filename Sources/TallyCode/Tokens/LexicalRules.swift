/// What a language's strings and comments look like, as far as the tokenizer needs.
struct LexicalRules: Sendable {
    /// Kotlin and Dart nest block comments; Java, C#, Objective-C and JavaScript do not.
    var nestedBlockComments = false
    /// `$name` and `${…}` inside strings (Kotlin, Dart).
    var dollarInterpolation = false
    /// Backtick template literals with `${…}` (JavaScript, TypeScript).
    var templateLiterals = false
    /// `"""…"""` (Kotlin raw strings, Java text blocks, Dart, C# raw strings) and Dart's `'''…'''`.
    var tripleQuotes = false
    /// Whether a triple-quoted string takes backslash escapes (Java, Dart) or not (Kotlin, C#).
    var tripleQuotesEscape = false
    /// Dart raw strings: `r'…'`, `r"…"`.
    var rawPrefix = false
    /// C#: `@"…"` verbatim, `$"…"` interpolated, `$@"…"` both.
    var cSharpPrefixes = false
    /// Objective-C: `@"…"`.
    var atStrings = false
    /// JavaScript regular expression literals.
    var regexLiterals = false
    /// `'…'` is a string (JavaScript, Dart); elsewhere it is a character literal, lexed the same way.
    var singleQuoteStrings = false
    /// What a line starting with `#` is: C#'s directives are skipped whole; Objective-C's are read
    /// (a `#define` holds constants) except `#pragma`, `#warning` and `#error`, whose text is prose.
    var hashLines: HashLines = .tokens

    enum HashLines: Sendable { case tokens, skipDirectives, objectiveC }

    static func forLanguage(_ language: CodeLanguage) -> LexicalRules {
        var rules = LexicalRules()
        switch language {
        case .kotlin:
            rules.nestedBlockComments = true
            rules.dollarInterpolation = true
            rules.tripleQuotes = true
        case .dart:
            rules.nestedBlockComments = true
            rules.dollarInterpolation = true
            rules.tripleQuotes = true
            rules.tripleQuotesEscape = true
            rules.rawPrefix = true
            rules.singleQuoteStrings = true
        case .java:
            rules.tripleQuotes = true
            rules.tripleQuotesEscape = true
        case .javaScript, .typeScript:
            rules.templateLiterals = true
            rules.regexLiterals = true
            rules.singleQuoteStrings = true
        case .cSharp:
            rules.tripleQuotes = true
            rules.cSharpPrefixes = true
            rules.hashLines = .skipDirectives
        case .objectiveC:
            rules.atStrings = true
            rules.hashLines = .objectiveC
        case .swift:
            rules.nestedBlockComments = true
            rules.tripleQuotes = true
            rules.tripleQuotesEscape = true
        }
        return rules
    }
}

/// How one string literal is delimited and what it takes inside.
struct StringForm: Sendable {
    enum Interpolation: Sendable { case none, dollar, dollarBrace, brace }

    var quote: UInt8
    var triple = false
    /// No backslash escapes (Kotlin `"""`, C# `@"…"` and raw strings, Dart `r'…'`).
    var raw = false
    /// `""` stands for one quote (C# verbatim strings).
    var doubledQuote = false
    var interpolation: Interpolation = .none
    /// May span lines (triple-quoted, template, C# verbatim).
    var multiline = false
}
