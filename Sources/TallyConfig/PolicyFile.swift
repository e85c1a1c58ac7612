import Foundation
import TallyCheck
import TallyFormats
import TallyModel

/// A `.tally.yml` file: the policy, plus what belongs to the repository rather than to the
/// check itself (which sources to read, which baseline to use). Reference: docs/policy.md.
///
/// ```yaml
/// version: 1
/// sources: [configs/*.storekit, catalog/*.yaml]
/// fail_on: error
/// rules: {family-sharing: error, level: warning}
/// ignore:
///   - {rule: price, product: com.example.legacy.*, reason: priced by the old server until June}
/// required_territories: [USA, GBR, JPN]
/// groups:
///   - {configuration: Example Pro, catalog: pro}
/// baseline: .tally-baseline.json
/// ```
public struct PolicyFile: Sendable, Hashable {
    /// The name `tally check` looks for in the current directory.
    public static let defaultName = ".tally.yml"
    /// The `version:` this Tally reads and writes.
    public static let currentVersion = 1

    /// The file, as the user named it.
    public var file: String
    public var policy: Policy
    /// Source globs, relative to the file's directory; empty when the file names none.
    public var sources: [SourcePattern]
    /// The baseline file, relative to the file's directory.
    public var baseline: String?

    public init(file: String, policy: Policy = Policy(), sources: [SourcePattern] = [], baseline: String? = nil) {
        self.file = file
        self.policy = policy
        self.sources = sources
        self.baseline = baseline
    }

    /// The directory paths in the file are relative to (`.` for a file in the current directory).
    public var directory: String {
        let parent = (file as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// A path from the file, as seen from the current directory.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") || directory == "." ? path : "\(directory)/\(path)"
    }

    /// Reads and validates a policy file; every problem is a `FormatError` with line and column.
    public static func load(path: String) throws -> PolicyFile {
        let bytes = try SourceLoader.readBytes(path: path, maxBytes: 4 * 1024 * 1024)
        return try read(bytes: bytes, file: path)
    }

    /// Reads a policy file already in memory, as if it were the file `file`.
    public static func read(bytes: [UInt8], file: String) throws -> PolicyFile {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FormatError("the file is not valid UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            throw FormatError("the policy file is empty; it needs at least 'version: 1' (run 'tally init' for a starter file)",
                              file: file, position: Position(line: 1, column: 1))
        }
        let root = try YAMLReader.tree(bytes: bytes, file: file)
        var decoder = PolicyDecoder(file: file)
        return try decoder.decode(root)
    }
}

/// One `sources:` entry: a glob relative to the policy file's directory, and the
/// tally-mapping/1 file that reads the files it matches (`{path: …, mapping: …}`), if any.
public struct SourcePattern: Sendable, Hashable, CustomStringConvertible {
    public var pattern: String
    /// The mapping file, relative to the policy file's directory.
    public var mapping: String?
    /// Where the entry is written.
    public var location: SourceLocation?

    public init(_ pattern: String, mapping: String? = nil, location: SourceLocation? = nil) {
        self.pattern = pattern
        self.mapping = mapping
        self.location = location
    }

    public var description: String { pattern }
}

extension PolicyFile {
    /// The files the `sources:` globs match, as seen from the current directory, in the order
    /// the globs are written. A glob that matches nothing is an error at its line: a typo must
    /// not quietly check less.
    public func sourcePaths() throws -> [String] {
        try sourceEntries().map(\.path)
    }

    /// The files the `sources:` globs match with the mapping that reads each (resolved from the
    /// current directory), in the order the globs are written; the first entry matching a file wins.
    /// - Parameter root: the folder relative paths start from, when it is not the current
    ///   directory (the paths returned stay relative to it).
    public func sourceEntries(root: String? = nil) throws -> [(path: String, mapping: String?)] {
        var paths: [(path: String, mapping: String?)] = []
        var seen = Set<String>()
        let prefix = root.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        var unmatched: [FormatError] = []
        for source in sources {
            var matches = SourceGlob.expand(source.pattern, in: prefix.map { directory == "." ? $0 : $0 + directory } ?? directory)
            if let prefix {
                matches = matches.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
            }
            guard !matches.isEmpty else {
                // Every glob that matches nothing is reported in the one run, not the first only.
                unmatched.append(FormatError("the source \"\(source.pattern)\" matches no file (relative to \(directory == "." ? "this directory" : directory))",
                                             at: source.location ?? SourceLocation(file: file)))
                continue
            }
            // A file two globs reach by different paths (a link) is one source.
            for path in matches where seen.insert(SourceGlob.realPath(prefix.map { $0 + path } ?? path)).inserted {
                paths.append((path, source.mapping.map(resolve)))
            }
        }
        guard unmatched.isEmpty else { throw FormatError.combining(unmatched) }
        return paths
    }

    /// The baseline the file names, resolved from the current directory.
    public var baselinePath: String? { baseline.map(resolve) }
}
