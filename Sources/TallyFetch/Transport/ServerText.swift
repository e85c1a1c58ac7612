import Foundation
import TallyModel

/// Text a server sent (an error's detail, a link, an ID), made safe to print or keep in a message:
/// control characters (ESC, OSC, BEL, newlines, C1, bidirectional overrides) written out as
/// `\u{1B}`, the length capped, and credentials redacted: the secrets given (the token just
/// sent), any `Bearer …` value, and anything shaped like a JWT.
public enum ServerText {
    /// Characters kept of one server text.
    public static let defaultLimit = 300

    public static func clean(_ text: String, secrets: [String] = [], limit: Int = defaultLimit) -> String {
        var text = text
        for secret in secrets where secret.count >= 8 { text = text.replacingOccurrences(of: secret, with: "[redacted]") }
        text = redactBearer(text)
        text = redactJWTs(text)
        var out = ""
        var count = 0
        var dropped = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                dropped += 1
                continue
            }
            if isUnsafe(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        if dropped > 0 { out += "… (\(dropped) more characters)" }
        return out
    }

    /// Whether a scalar can move the cursor, change the terminal or reorder what is shown.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { SafeText.isUnsafe(scalar) }

    /// `Bearer abc.def` → `Bearer [redacted]` (any case, any whitespace after the word).
    static func redactBearer(_ text: String) -> String {
        guard text.range(of: "bearer", options: .caseInsensitive) != nil else { return text }
        var result = ""
        var rest = Substring(text)
        while let found = rest.range(of: "bearer", options: .caseInsensitive) {
            result += rest[..<found.upperBound]
            var index = found.upperBound
            var sawSpace = false
            while index < rest.endIndex, rest[index] == " " || rest[index] == "\t" || rest[index] == "+" || rest[index] == "=" || rest[index] == ":" {
                index = rest.index(after: index)
                sawSpace = true
            }
            var end = index
            while end < rest.endIndex, !rest[end].isWhitespace, rest[end] != "\"", rest[end] != "'", rest[end] != ",", rest[end] != "}" {
                end = rest.index(after: end)
            }
            if sawSpace, end > index {
                result += rest[found.upperBound..<index] + "[redacted]"
                rest = rest[end...]
            } else {
                rest = rest[found.upperBound...]
            }
        }
        return result + rest
    }

    /// Three base64url parts joined by dots, the first a JSON header (`eyJ`): a JWT, redacted.
    static func redactJWTs(_ text: String) -> String {
        guard text.contains("eyJ") else { return text }
        let pattern = "eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return regex.stringByReplacingMatches(in: text, range: range, withTemplate: "[redacted JWT]")
    }
}
