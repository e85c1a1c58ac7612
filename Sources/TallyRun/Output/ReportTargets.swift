import Foundation
import TallyCheck
import TallyModel
import TallyReport

/// One report of a run: its format and its file (nil: standard output).
public struct ReportTarget<Format: ReportKind>: Sendable, Hashable {
    public var format: Format
    public var path: String?

    public init(format: Format, path: String?) {
        self.format = format
        self.path = path
    }

    /// `--report FORMAT` (standard output; `FORMAT:-` too) or `--report FORMAT:FILE`.
    public static func parse(_ text: String) throws(RunFailure) -> ReportTarget {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        guard let format = Format(rawValue: name.lowercased()) else {
            var message = "unknown report format \"\(name)\" in --report \(text)"
            if let near = NearMatch.best(for: name, among: Format.allCases.map(\.rawValue)) { message += "; did you mean \"\(near)\"?" }
            throw .usage(message + " (formats: \(Format.names))")
        }
        guard parts.count == 2 else { return ReportTarget(format: format, path: nil) }
        let path = parts[1]
        guard !path.isEmpty else { throw .usage("--report \(text) names no file after the ':'; write \(name):FILE, or \(name) alone for standard output") }
        return ReportTarget(format: format, path: path == "-" ? nil : path)
    }
}

/// Every report a run writes, as `check`, `lint` and `diff` are asked for them: `--format F`
/// and `--output FILE` (one report), then each `--report FORMAT[:FILE]`; with none named, the
/// format's standard one (GitHub annotations on GitHub Actions where it has them) on standard
/// output. What the run must do for them (record passing checks, know the repository's top
/// folder) is read from the formats' traits.
public struct ReportTargets<Format: ReportKind>: Sendable, Hashable {
    public var all: [ReportTarget<Format>]

    public init(all: [ReportTarget<Format>]) { self.all = all }

    public init(format: Format?, output: String?, reports: [String],
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(RunFailure) {
        var all: [ReportTarget<Format>] = []
        for report in reports { all.append(try ReportTarget.parse(report)) }
        if format != nil || output != nil || all.isEmpty {
            let automatic = format == nil && output == nil ? Format.standard(environment: environment) : Format.standard(environment: [:])
            all.insert(ReportTarget(format: format ?? automatic, path: output), at: 0)
        }
        self.all = all
    }

    /// A usage error when two reports would go to standard output or to one file.
    public func validate() throws(RunFailure) {
        if all.filter({ $0.path == nil }).count > 1 {
            throw .usage("only one report can go to standard output; give the others a file, e.g. --report \(Format.exampleFileReport)")
        }
        let paths = all.compactMap(\.path)
        for (index, path) in paths.enumerated() {
            guard let other = paths[..<index].first(where: { RunFiles.same($0, path) }) else { continue }
            throw .usage(other == path ? "two reports would be written to \(path); give each its own file"
                         : "two reports would be written to one file (\(other) and \(path)); give each its own file")
        }
    }

    /// Every report goes to a file: the console gets the summary and where they went.
    public var allToFiles: Bool { !all.contains { $0.path == nil } }
    /// A report names files from the repository's top folder.
    public var needsRepositoryRoot: Bool { all.contains { $0.format.needsRepositoryRoot } }
    /// A report lists passing checks, which the run then records.
    public var listsPassingChecks: Bool { all.contains { $0.format.listsPassingChecks } }
    /// The report on standard output says what was suppressed, so the console need not.
    public var mentionsSuppressionsOnStandardOutput: Bool { all.contains { $0.path == nil && $0.format.showsSuppressions } }

    /// `junit build/tally.xml, sarif build/tally.sarif`: where the reports went.
    public var written: String {
        all.compactMap { target in target.path.map { "\(target.format) \($0)" } }.joined(separator: ", ")
    }
}
