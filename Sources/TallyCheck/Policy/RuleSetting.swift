import TallyModel

/// What a policy makes of a rule's findings: report them as errors or warnings, or not at all.
public enum RuleSetting: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case error, warning, off

    /// The severity findings get, or nil when the rule is off.
    public var severity: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .off: nil
        }
    }

    public var description: String { rawValue }
}
