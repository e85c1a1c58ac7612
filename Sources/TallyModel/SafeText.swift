/// The one sanitiser for text that came from a file, a file name or a server on its way to a
/// terminal, a CI log, Markdown or a spreadsheet. Such text is data: it must not move the cursor,
/// recolour or clear a terminal, open a link (OSC 8), reorder what is shown (bidirectional
/// overrides), start a line of its own, be read by GitHub Actions or Azure Pipelines as a workflow
/// command, mention a person or team in a pull-request comment, or run as a spreadsheet formula.
///
/// - `line(_:)`: one value inside a line (a product ID in a message, a cell of a table): every
///   control character, line break and bidirectional or invisible format character written out as
///   `\u{1B}`, so the value stays on its line and shows what it holds.
/// - `block(_:)`: a whole text for a terminal or a log, lines kept: the same escapes but for line
///   feeds and tabs, and a line a CI runner would read as a command (`::add-mask::…`,
///   `::stop-commands::…`, `##[error]…`, `##vso[…]`) defused by writing its first `:` or `#` as
///   `\u{3A}`/`\u{23}`. The console applies it to everything it writes to standard error and to
///   every report for people, so nothing prints around it.
/// - `markdownMentions(_:)`: `@name` and `@org/team` no longer notify anyone (`@&#8203;name`, as
///   Renovate writes them); the Markdown escaping itself is the Markdown reporter's.
/// - `csvCell(_:)`: a cell a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a
///   carriage return first) starts with `'`; numbers such as `-1.5` stay numbers.
public enum SafeText {
    /// Whether a scalar can move the cursor, change the terminal, break a line or reorder or hide
    /// what is shown: C0 and C1 controls, DEL, line and paragraph separators, the bidirectional
    /// marks, embeddings, overrides and isolates, and the invisible format characters a reader
    /// cannot see (zero-width space and joiners, word joiner, byte-order mark).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// `\u{1B}`: how an unsafe scalar is written.
    public static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// One value for a line of text: every unsafe scalar (see `isUnsafe`) but those `kept`
    /// written out. Text without any is returned as it is.
    public static func line(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !kept.contains($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) && !kept.contains(scalar) {
                out.append(contentsOf: escaped(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A whole text for a terminal or a CI log: line feeds and tabs kept, every other unsafe
    /// scalar written out, and every line a CI runner would read as a command defused.
    /// With `keepingColour`, the colour codes a reporter painted (`ESC [ 1;31 m`) stay; every
    /// other escape sequence is written out.
    public static func block(_ text: String, keepingColour: Bool = false) -> String {
        let cleaned = keepingColour ? lineKeepingColour(text) : line(text, keeping: ["\n", "\t"])
        guard mayHoldCommand(cleaned) else { return cleaned }
        return cleaned.split(separator: "\n", omittingEmptySubsequences: false).map { defuseCommand(String($0)) }.joined(separator: "\n")
    }

    /// `line(_:keeping:)` with line feeds, tabs and SGR colour sequences (`ESC [` digits and `;`,
    /// then `m`) kept.
    static func lineKeepingColour(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
                if end < scalars.count, scalars[end] == "m" {
                    out.append(contentsOf: scalars[index...end])
                    index = end + 1
                    continue
                }
            }
            if isUnsafe(scalar) && scalar != "\n" && scalar != "\t" {
                out.append(contentsOf: escaped(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    /// Whether `text` could hold a workflow command at all (a quick test before splitting lines).
    static func mayHoldCommand(_ text: String) -> Bool {
        text.contains("::") || text.contains("##")
    }

    /// GitHub Actions reads a line whose first characters after white space are `::` as a
    /// command (`::add-mask::`, `::stop-commands::`, `::error file=…::`); its older syntax and
    /// Azure Pipelines' read `##[command]` and `##vso[command]` anywhere in a line.
    public static func defuseCommand(_ line: String) -> String {
        var line = line
        let body = line.drop { $0 == " " || $0 == "\t" }
        if body.hasPrefix("::") {
            let start = body.startIndex
            line.replaceSubrange(start..<line.index(after: start), with: "\\u{3A}")
        }
        guard line.contains("##") else { return line }
        var out = ""
        var rest = Substring(line)
        while let found = rest.range(of: "##") {
            let after = rest[found.upperBound...]
            if after.hasPrefix("[") || after.lowercased().hasPrefix("vso[") {
                out += rest[..<found.lowerBound] + "\\u{23}#"
            } else {
                out += rest[..<found.upperBound]
            }
            rest = after
        }
        return out + rest
    }

    /// `@octocat` → `@&#8203;octocat`: Markdown shows the same text, GitHub notifies nobody.
    /// An `@` inside a word (an e-mail address) is left alone.
    public static func markdownMentions(_ text: String) -> String {
        guard text.contains("@") else { return text }
        var out = ""
        var previous: Character?
        for character in text {
            out.append(character)
            if character == "@", previous.map({ !($0.isLetter || $0.isNumber) }) ?? true { out += "&#8203;" }
            previous = character
        }
        return out
    }

    /// A cell for CSV: text a spreadsheet would evaluate (starting with `=`, `+`, `-`, `@`, a tab
    /// or a carriage return, or their full-width forms) gets a leading `'`; a plain number keeps
    /// its sign.
    public static func csvCell(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]
        guard triggers.contains(first) else { return text }
        if first == "-" || first == "+", isPlainNumber(text.dropFirst()) { return text }
        return "'" + text
    }

    /// `1.5`, `20`: digits with at most one dot.
    private static func isPlainNumber(_ text: Substring) -> Bool {
        var dots = 0
        var digits = 0
        for character in text {
            if character == "." { dots += 1 } else if character.isASCII && character.isNumber { digits += 1 } else { return false }
        }
        return digits > 0 && dots <= 1
    }
}
