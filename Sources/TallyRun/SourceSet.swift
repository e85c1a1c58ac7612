import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// Which files a run reads, and which mapping reads each: the first stage of every run.
///
/// The files come from the command's arguments, else the policy file's `sources:`, else the
/// default folders (`configs/` and `catalog/`, by each reader's own file kinds). A mapping
/// file (`format: tally-mapping/1`) is never read as a source.
public struct SourceSet: Sendable, Hashable {
    /// One file to read.
    public struct Entry: Sendable, Hashable {
        public var path: String
        /// The tally-mapping/1 file that reads this source, when it is a server file of its own shape.
        public var mapping: String?
        /// The file's name as the bytes the user gave, when they are not UTF-8 (a Latin-1 name on
        /// Linux): `path` is then its escaped form for messages (`caf\xE9.storekit`), and the
        /// file is opened with these bytes.
        public var rawName: [UInt8]?
        /// The revision the file is read at (through a `RevisionStore`, without a checkout), or
        /// nil for the file as it is now.
        public var revision: String?

        public init(_ path: String, mapping: String? = nil, rawName: [UInt8]? = nil, revision: String? = nil) {
            self.path = path
            self.mapping = mapping
            self.rawName = rawName
            self.revision = revision
        }

        /// How reports name the source: `configs/App.storekit`, `configs/App.storekit@HEAD~1`.
        public var label: String { revision.map { "\(path)@\($0)" } ?? path }
    }

    /// Where the files came from, for messages.
    public enum Origin: Sendable, Hashable {
        case arguments
        case policy(file: String)
        case defaultFolders
    }

    public var entries: [Entry]
    public var origin: Origin
    /// The folder relative paths (of sources and mappings) start from, when it is not the
    /// current directory; files keep their relative names in every message.
    public var root: String?
    /// Files the policy's globs match that are not product sources: not read, each a notice.
    public var skipped: [SkippedSource] = []

    public init(_ entries: [Entry], origin: Origin = .arguments, root: String? = nil) {
        self.entries = entries
        self.origin = origin
        self.root = root
    }

    /// Where a file named `path` is opened.
    public func location(of path: String) -> String {
        guard let root, !path.hasPrefix("/") else { return path }
        return path == "." ? root : (root as NSString).appendingPathComponent(path)
    }

    public var paths: [String] { entries.map(\.path) }

    /// `--mapping` as given: `MAPPING` for the files named on the command line (or, when none are
    /// named, for the sources that have no mapping of their own), or `SOURCE=MAPPING` for one file.
    public struct MappingChoice: Sendable, Hashable {
        public var general: String?
        public var perSource: [String: String]

        public init(general: String? = nil, perSource: [String: String] = [:]) {
            self.general = general
            self.perSource = perSource
        }

        /// Parses the `--mapping` values; a second value without `SOURCE=` is an error.
        public static func parse(_ values: [String]) throws(RunFailure) -> MappingChoice {
            var choice = MappingChoice()
            for value in values {
                if let equals = value.firstIndex(of: "="), !FileManager.default.fileExists(atPath: value) {
                    let source = String(value[..<equals]), mapping = String(value[value.index(after: equals)...])
                    guard !source.isEmpty, !mapping.isEmpty else { throw .usage("--mapping \(value): write SOURCE=MAPPING, or MAPPING alone") }
                    choice.perSource[source] = mapping
                } else {
                    guard choice.general == nil else {
                        throw .usage("--mapping is given twice without a source; name each file it reads: --mapping SOURCE=MAPPING")
                    }
                    choice.general = value
                }
            }
            return choice
        }

        /// Every mapping file named.
        var files: Set<String> { Set(perSource.values).union(general.map { [$0] } ?? []) }
    }

    /// The sources of a run: `arguments` when any, else the policy's, else the default folders
    /// of `directory`. Nil when there are none anywhere (the caller says how to name some).
    /// A file a policy glob matches that is not a product source is skipped (`skipped`), unless
    /// `format` forces a reader or a mapping reads it.
    public static func resolve(arguments: [String], policy: PolicyFile?, mapping: MappingChoice = MappingChoice(),
                               root: String? = nil, format: SourceFormat? = nil) throws(RunFailure) -> SourceSet? {
        let opened = SourceSet([], root: root)
        var set: SourceSet
        if !arguments.isEmpty {
            // A folder or glob of the app's code is its code files (`tally show App/`).
            let arguments = (format?.role ?? .code) == .code ? try CodeArguments.expand(arguments, root: root) : arguments
            for path in arguments where isMappingFile(opened.location(of: path)) {
                throw .usage("\(path) is a tally-mapping/1 file, not a source: pass it with --mapping \(path)")
            }
            // `FILE@REV` reads the file as it was at a git revision, in every command that reads sources.
            set = SourceSet(arguments.map { argument in
                var entry = DiffPlan.entry(parsing: argument, root: root) ?? Entry(argument)
                entry.mapping = mapping.perSource[argument] ?? mapping.perSource[entry.path] ?? mapping.general
                return entry
            }, origin: .arguments, root: root)
            // A file named twice (or by two paths: a link, `./p.yaml`) is one source, by its real
            // path: it is never compared with itself, and 300 names of it are read once.
            var seen = Set<String>()
            let named = set
            set.entries = named.entries.filter { entry in
                let opened = named.location(of: entry.path)
                return seen.insert("\(entry.revision ?? "")\u{0}\(SourceLinks.realPath(opened) ?? RepositoryBoundary.absolute(opened))").inserted
            }
        } else if let policy, !policy.sources.isEmpty {
            let resolution: SourceResolution
            let readsAll = format != nil || mapping.general != nil
            do { resolution = try policy.resolveSources(root: root) { readsAll || mapping.perSource[$0] != nil } } catch {
                // A source gone missing is often the file a scheme runs the app against: say which (issue 50).
                let failure = SourceSet.formatError(error, file: policy.file)
                throw .policy(FormatError.combining([failure] + SchemeFindings.missingFiles(in: opened.location(of: policy.directory))))
            }
            let matches = resolution.entries
            set = SourceSet(matches.filter { !isMappingFile(opened.location(of: $0.path)) }.map { match in
                Entry(match.path, mapping: mapping.perSource[match.path] ?? match.mapping ?? mapping.general)
            }, origin: .policy(file: policy.file), root: root)
            set.skipped = resolution.skipped
        } else {
            // The default folders are repository content: a committed `catalog -> /some/dir` is
            // refused before anything in it is listed or read (RepositoryBoundary).
            let boundary = RepositoryBoundary(around: root ?? ".")
            for folder in ["configs", "catalog"] {
                let path = opened.location(of: folder)
                if FileManager.default.fileExists(atPath: path), let real = boundary.escape(path) {
                    throw .policy(outsideRepository("the default folder \(folder)/", leadsTo: real, at: SourceLocation(file: folder)))
                }
            }
            let found = FileTree(root: root).defaultSources(in: "")
            var paths = (found.configurations + found.catalogs).filter { !isMappingFile(opened.location(of: $0)) }
            // The policy's `code:` beside the default folders.
            if let policy, !policy.code.isEmpty {
                do { paths += try policy.resolveSources(root: root).entries.map(\.path) } catch { throw .policy(SourceSet.formatError(error, file: policy.file)) }
            }
            guard !paths.isEmpty else { return nil }
            set = SourceSet(paths.map { Entry($0, mapping: mapping.perSource[$0] ?? mapping.general) }, origin: .defaultFolders, root: root)
        }
        let named = mapping.files.union(set.entries.compactMap(\.mapping))
        let mappings = SourcePlanner.mappingFiles(among: set.paths, named: named) { _ in false }
        set.entries.removeAll { mappings.contains($0.path) }
        for source in mapping.perSource.keys where !set.entries.contains(where: { $0.path == source }) {
            throw .usage("--mapping \(source)=…: \(source) is not one of the sources read (\(set.paths.joined(separator: ", ")))")
        }
        return set
    }

    /// Whether a file is a tally-mapping/1 file (a YAML or JSON file that says so in its first bytes).
    public static func isMappingFile(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ["yml", "yaml", "json"].contains(ext),
              let head = try? SourceLoader.readBytes(path: path, prefix: 4096) else { return false }
        return String(decoding: head, as: UTF8.self).contains("tally-mapping/1")
    }
}
