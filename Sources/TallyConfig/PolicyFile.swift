import Foundation
import TallyCheck
import TallyCode
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
    /// `code:`'s globs: the app's code files, read together as one source (relative to the file's directory).
    public var code: [SourcePattern] = []
    /// `code: {ids: REGEX}`: every string literal in the code that the whole pattern matches is a product ID.
    public var codeIDs: String?
    /// `code: {exclude: [GLOB]}`: code files a `paths` glob matches that are not the app's own
    /// (besides `CodeExclusions`' defaults), relative to the file's directory.
    public var codeExclude: [String] = []

    public init(file: String, policy: Policy = Policy(), sources: [SourcePattern] = [], baseline: String? = nil) {
        self.file = file
        self.policy = policy
        self.sources = sources
        self.baseline = baseline
    }

    /// The directory paths in the file are relative to (`.` for a file in the current directory).
    public var directory: String {
        let parent = PathText.parent(file)
        return parent.isEmpty ? "." : parent
    }

    /// A path from the file, as seen from the current directory.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") || directory == "." ? path : "\(directory)/\(path)"
    }

    /// The most a policy file may hold: 4 MB, whatever the input limit (a policy is a page of YAML).
    public static let maxBytes = 4 << 20

    /// Reads and validates a policy file; every problem is a `FormatError` with line and column.
    public static func load(path: String) throws -> PolicyFile {
        let bytes = try SourceLoader.readBytes(path: path, maxBytes: maxBytes, whose: "a policy file")
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

    /// The copy the files it matches together form (`copy: server`): files of one copy are
    /// pooled, never compared with each other. Nil: each file is a copy of its own.
    public var copy: String?

    public init(_ pattern: String, mapping: String? = nil, location: SourceLocation? = nil, copy: String? = nil) {
        self.pattern = pattern
        self.mapping = mapping
        self.location = location
        self.copy = copy
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
        try resolveSources(root: root).entries
    }

    /// What the `sources:` entries name, as seen from the current directory (or `root`):
    ///
    /// - a file, or a glob's files, in the order the entries are written (the first entry
    ///   matching a file wins);
    /// - a folder Tally reads as one source (`asc`, `asc/`, or a glob whose last name matches it,
    ///   `asc*`): the folder, without a trailing `/`; another folder named without a glob is an
    ///   error that says what Tally expected inside it;
    /// - a file a glob matches that is not a product source (a YAML file without catalogue keys
    ///   beside the catalogue) is skipped, and said so in `skipped`.
    ///
    /// An entry that names nothing is an error at its line: a typo must not quietly check less.
    /// - Parameter reads: files read whatever their content (the run forces a format, or names
    ///   a mapping that reads them): never skipped.
    public func resolveSources(root: String? = nil, reads: (String) -> Bool = { _ in false }) throws -> SourceResolution {
        try resolveSources(in: FileTree(root: root), reads: reads)
    }

    /// `resolveSources(root:reads:)` in any tree: the working tree, or the files of a revision
    /// (`diff --since`, each side), one rule for both (issue 51).
    /// - Parameters:
    ///   - base: the policy's folder as the tree names paths (its `directory` by default).
    ///   - everyEntryMatches: whether an entry that names nothing is an error (in the working
    ///     tree); at a revision, an entry may name a file of the other side only.
    ///   - withCode: whether `code:` is read (`diff` compares products, not code).
    ///   - mappingPath: how a mapping's path is named in the run (`resolve` by default).
    public func resolveSources(in tree: some SourceTree, base: String? = nil, reads: (String) -> Bool = { _ in false },
                               everyEntryMatches: Bool = true, withCode: Bool = true,
                               mappingPath: ((String) throws -> String)? = nil) throws -> SourceResolution {
        var resolution = SourceResolution()
        var seen = Set<String>()
        let base = base ?? directory
        let mappingPath = mappingPath ?? { resolve($0) }
        var unmatched: [FormatError] = []
        for source in sources {
            let match: SourceMatch
            do {
                match = try source.match(in: tree, base: base, policyFile: file, reads: reads)
            } catch let error as FormatError {
                unmatched.append(error)
                continue
            }
            guard !match.paths.isEmpty || !everyEntryMatches else {
                // Every entry that names nothing is reported in the one run, not the first only.
                unmatched.append(source.nothingMatched(match, place: directory == "." ? "this directory" : directory, policyFile: file))
                continue
            }
            // A mapping is repository content too: it must not lead out (RepositoryBoundary).
            if let mapping = try source.mapping.map(mappingPath), let real = tree.escape(mapping, base: base) {
                var at = source.location ?? SourceLocation(file: file)
                at.file = file
                unmatched.append(outsideRepository("the mapping \"\(SafeText.line(mapping))\"", leadsTo: real, at: at))
                continue
            }
            // A file two globs reach by different paths (a link) is one source.
            let mapping = try source.mapping.map(mappingPath)
            for path in match.paths where seen.insert(tree.identity(path)).inserted {
                resolution.entries.append((path, mapping))
            }
            for skipped in match.skipped where seen.insert(tree.identity(skipped.path)).inserted {
                resolution.skipped.append(skipped)
            }
        }
        guard withCode else {
            guard unmatched.isEmpty else { throw FormatError.combining(unmatched) }
            return resolution
        }
        // `code:`: every code file the globs match, whatever it holds (an `ids:` pattern may find
        // IDs in a file without a purchase call); a file of another kind is skipped.
        for source in code {
            let match: SourceMatch
            do {
                match = try source.match(in: tree, base: base, policyFile: file, reads: { _ in true })
            } catch let error as FormatError {
                unmatched.append(error)
                continue
            }
            // The app's code, not its dependencies', samples' or tests' (CodeExclusions), nor
            // what `exclude:` names; a file named without a glob is read as named.
            let isGlob = SourceGlob.hasGlob(source.pattern)
            let files = match.paths.filter { path in
                guard CodeSourceReader.language(of: path) != nil else { return false }
                let relative = CodeExclusions.relative(path, to: base)
                if isGlob, CodeExclusions.excludedByDefault(relative) { return false }
                // `Folder/**` leaves out everything under the folder.
                return !codeExclude.contains { SourceGlob.matches($0, path: relative) || ($0.hasSuffix("**") && SourceGlob.matches($0 + "/*", path: relative)) }
            }
            guard !files.isEmpty else {
                unmatched.append(FormatError("code: \"\(source.pattern)\" matches no code file (\(CodeLanguage.extensions.prefix(8).map { "." + $0 }.joined(separator: ", ")), …)",
                                             file: file, position: source.location.map { Position(line: $0.line ?? 0, column: $0.column ?? 0) } ?? .unknown))
                continue
            }
            for path in files where seen.insert(tree.identity(path)).inserted {
                resolution.entries.append((path, nil))
            }
        }
        guard unmatched.isEmpty else { throw FormatError.combining(unmatched) }
        return resolution
    }

    /// The baseline the file names, resolved from the current directory.
    public var baselinePath: String? { baseline.map(resolve) }
}

/// What a policy's `sources:` name: the entries to read, and the files its globs matched that
/// are not product sources (skipped, each said on standard error).
public struct SourceResolution: Sendable {
    public var entries: [(path: String, mapping: String?)] = []
    public var skipped: [SkippedSource] = []

    public init() {}
}

/// A file a `sources:` glob matches that Tally does not read as a product source.
public struct SkippedSource: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var pattern: String
    /// Why: `a YAML file without catalogue keys ('format: tally-catalog/1')`.
    public var reason: String
    /// The `sources:` entry.
    public var location: SourceLocation

    /// `backend/config/deploy.yaml matches the source "backend/config/*.yaml" but is not a product source (...); skipped`.
    public var message: String {
        "\(path) matches the source \"\(pattern)\" but is not a product source (\(reason)); skipped"
    }

    public var description: String { diagnostic.description }

    public var diagnostic: Diagnostic { Diagnostic(.warning, message, at: location) }
}

/// The code a `code:` glob or `init` leaves out by default: it is not the app's own. Vendored and
/// generated code (`Pods/`, `Carthage/`, `node_modules/`, `.dart_tool/`, `build/`, `.build/`,
/// `DerivedData/`, `vendor/`), Unity's imported package samples (`Assets/Samples/`) and packages
/// (`Packages/` at the top, C#), and tests (`Tests/`, `test/`, `__tests__/`, `spec/`, `AppTests/`,
/// `fixtures/`). `code: {exclude: [GLOB]}` leaves out more; a file named without a glob is read.
public enum CodeExclusions {
    /// Whether `path` (relative to the policy's folder or the scanned one) lies in a folder that
    /// is not the app's own code.
    public static func excludedByDefault(_ path: String) -> Bool {
        let folders = path.split(separator: "/").dropLast().map(String.init)
        if folders.contains(where: { SourceScan.skipped.contains($0) || $0 == ".dart_tool" }) { return true }
        if SourceScan.isUnderTestFolder(path) { return true }
        // Unity's `Packages/` (C#): an iOS app's local Swift packages often sit in `Packages/` too, and are its own.
        if folders.first == "Packages", folders.count >= 2, path.hasSuffix(".cs") { return true }
        return zip(folders, folders.dropFirst()).contains { $0 == "Assets" && $1 == "Samples" }
    }

    /// `path` relative to `directory` when it is inside it (`./` and the folder's prefix dropped).
    static func relative(_ path: String, to directory: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        guard directory != ".", !directory.isEmpty else { return path }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
