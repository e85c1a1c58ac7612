/// How much a finding or a diagnostic matters. For findings, `error` fails the gate; `warning`
/// fails it only with `--strict`.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    case note, warning, error

    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
