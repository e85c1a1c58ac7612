import TallyFormats
import TallyModel

/// Why a run could not give an outcome: always an input or usage problem (exit 2), never a
/// mismatch. The messages name no command-line flag; `remedy` says what would help.
public enum RunFailure: Error, Sendable, Hashable {
    /// Sources that could not be read, every one of them with all its located errors.
    case unreadable([FormatError])
    /// The policy file, the baseline or a mapping file could not be read.
    case policy(FormatError)
    /// A file a source needs could not be read (the mapping file, the price-tier table): its
    /// errors, then `WHAT could not be read; OUTCOME`.
    case needed(FormatError, what: String)
    /// A usage problem in what was asked.
    case usage(String)
    /// No sources were named and none were found.
    case noSources
    /// Files at a revision could not be listed or read (git is missing, the revision is unknown).
    case revision(RevisionError)

    /// The exit status a command ends with.
    public var status: ExitStatus { .usageOrInput }
}

/// How a run ends, as a value: the CLI exits with it, a test asserts on it.
public enum ExitStatus: Int32, Sendable, Hashable {
    case consistent = 0
    case mismatches = 1
    case usageOrInput = 2
    /// A check of two or more sources that compared nothing across them (or less than the
    /// policy's `require_compared` asks): not green, since Tally did not look (issue 48). As
    /// pytest's "no tests ran" (5) is not a pass.
    case notCompared = 3

    /// How a command ends, read from what it said (its diagnostics, in the one stream) and from its
    /// verdict: a command that said an error (a source it could not read, a report or standard
    /// output it could not write, a usage error, a reason it stopped) ends with 2 whatever it
    /// found; otherwise with its verdict, 0 or 1; a command without a verdict (`show`, `convert`,
    /// `init`, `rules`) with 0. Warnings and notes never change the exit.
    public static func ending(verdict: ExitStatus?, said diagnostics: [Diagnostic]) -> ExitStatus {
        diagnostics.contains { $0.severity == .error } ? .usageOrInput : verdict ?? .consistent
    }
}

extension RunFailure {
    /// What the failure says, as diagnostics: every located error, then what did not happen.
    /// - Parameter outcome: "nothing was checked".
    public func diagnostics(outcome: String) -> [Diagnostic] {
        switch self {
        case .unreadable(let errors):
            let noun = errors.count == 1 ? "source" : "sources"
            return errors.flatMap(\.diagnostics) + [Diagnostic(.error, "\(errors.count) \(noun) could not be read; \(outcome)")]
        case .policy(let error):
            return error.diagnostics
        case .needed(let error, let what):
            return error.diagnostics + [Diagnostic(.error, "\(what) could not be read; \(outcome)")]
        case .usage(let message):
            return [Diagnostic(.error, message)]
        case .noSources:
            return [Diagnostic(.error, "no sources given, no .tally.yml with sources, and no configs/*.{storekit,plist} or catalog/* files here. Name the files to compare (e.g. 'tally check configs/ExampleApp.storekit catalog/products.yaml') or run 'tally init'.")]
        case .revision(let error):
            return [Diagnostic(.error, error.message, remedy: error.remedy)]
        }
    }
}
