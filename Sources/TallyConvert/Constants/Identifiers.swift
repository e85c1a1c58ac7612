import Foundation

/// How a language spells a constant's name.
enum IdentifierStyle {
    /// `plusMonthly`, keywords in backticks (Swift).
    case swiftCase
    /// `plusMonthly`, reserved words with a suffix (Dart has no escape).
    case dartMember
    /// `PLUS_MONTHLY` (Kotlin constants, TypeScript keys).
    case screaming
}

/// Names for constants, derived from product IDs: valid in the language, unique, and the same
/// for the same IDs every time.
enum Identifiers {
    /// The words of an ID: runs of ASCII letters and digits (accents dropped, `prämie` is `pramie`),
    /// split at every other character and where a lower-case letter meets an upper-case one.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLower = false
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            let isLetterOrDigit = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            guard isLetterOrDigit else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousIsLower = false
                continue
            }
            let isUpper = ("A"..."Z").contains(scalar)
            if isUpper, previousIsLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.unicodeScalars.append(scalar)
            previousIsLower = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Each ID without the dot-separated parts every ID starts with (`com.example.app.`), so long
    /// as each keeps one part: `plus.monthly` for `com.example.app.plus.monthly`.
    static func distinctParts(_ ids: [String]) -> [String] {
        let split = ids.map { $0.split(separator: ".", omittingEmptySubsequences: false) }
        guard let first = split.first else { return [] }
        var common = 0
        let most = (split.map(\.count).min() ?? 1) - 1
        while common < most, split.allSatisfy({ $0[common] == first[common] }) { common += 1 }
        return split.map { $0.dropFirst(common).joined(separator: ".") }
    }

    /// One name per list of words, in order: `fallback` for no words or before a leading digit,
    /// a reserved name suffixed with `fallback`, a Swift keyword in backticks, and a number
    /// after a name an earlier list took (`premiumMonthly`, `premiumMonthly2`).
    static func names(_ words: [[String]], style: IdentifierStyle, fallback: String, reserved: Set<String> = []) -> [String] {
        let bases = words.map { unreserved(base($0, style: style, fallback: fallback), style: style, fallback: fallback, reserved: reserved) }
        var counts: [String: Int] = [:]
        for base in bases { counts[base, default: 0] += 1 }
        var used = Set(bases.filter { counts[$0] == 1 })
        var names: [String] = []
        // The next number to try per base: 50,000 IDs with one base (no ASCII letters: all the
        // fallback) tried 2, 3, … afresh for each, quadratic (issue 47).
        var next: [String: Int] = [:]
        for base in bases {
            var name = base
            if counts[base, default: 0] > 1 {
                var number = next[base] ?? 2
                while used.contains(name) {
                    name = base + (style == .screaming ? "_\(number)" : "\(number)")
                    number += 1
                }
                next[base] = number
                used.insert(name)
            }
            names.append(style == .swiftCase && swiftKeywords.contains(name) ? "`\(name)`" : name)
        }
        return names
    }

    private static func base(_ words: [String], style: IdentifierStyle, fallback: String) -> String {
        let words = words.isEmpty ? [fallback] : words
        let leadsWithDigit = words[0].first?.isNumber ?? false
        let all = leadsWithDigit ? [fallback] + words : words
        switch style {
        case .screaming:
            return all.map { $0.uppercased() }.joined(separator: "_")
        case .swiftCase, .dartMember:
            return all.enumerated().map { index, word in
                index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
            }.joined()
        }
    }

    /// A name that cannot be used as it is (a member the file declares itself, a Dart reserved
    /// word) with `fallback` after it: `productsProduct`, `inProduct`.
    private static func unreserved(_ name: String, style: IdentifierStyle, fallback: String, reserved: Set<String>) -> String {
        let isReserved = reserved.contains(name) || (style == .dartMember && dartReserved.contains(name))
        guard isReserved else { return name }
        return style == .screaming ? name + "_" + fallback.uppercased() : name + fallback.prefix(1).uppercased() + fallback.dropFirst()
    }

    /// Swift's keywords and contextual keywords (a backticked name that is not a keyword is still valid).
    static let swiftKeywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private", "precedencegroup", "protocol",
        "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "as", "false", "is", "nil", "super", "throws", "true", "try", "await", "async", "any", "some",
        "actor", "macro", "consume", "copy", "discard", "each", "isolated", "get", "set", "willSet", "didSet", "mutating",
        "nonmutating", "override", "convenience", "dynamic", "final", "indirect", "lazy", "optional", "required",
        "unowned", "weak", "prefix", "postfix", "infix", "left", "right", "none", "assignment", "associativity",
        "higherThan", "lowerThan", "throws", "sending",
    ]

    /// Swift names that cannot be a case even in backticks, or that `ProductID` declares itself.
    static let swiftMembers: Set<String> = [
        "self", "init", "allCases", "rawValue", "hashValue", "hash", "description", "products",
        "subscriptions", "nonRenewingSubscriptions", "consumables", "nonConsumables", "inApp",
    ]

    /// Dart's reserved words, built-in identifiers, contextual keywords, `Object`'s members and the
    /// members `ProductIds` declares itself.
    static let dartReserved: Set<String> = [
        "abstract", "as", "assert", "async", "await", "base", "break", "case", "catch", "class", "const", "continue",
        "covariant", "default", "deferred", "do", "dynamic", "else", "enum", "export", "extends", "extension", "external",
        "factory", "false", "final", "finally", "for", "get", "hide", "if", "implements", "import", "in", "interface",
        "is", "late", "library", "mixin", "new", "null", "of", "on", "operator", "part", "required", "rethrow", "return",
        "sealed", "set", "show", "static", "super", "switch", "sync", "this", "throw", "true", "try", "type", "typedef",
        "var", "void", "when", "while", "with", "yield", "hashCode", "runtimeType", "toString", "noSuchMethod",
        "all", "subscriptions", "inApp",
    ]
}
