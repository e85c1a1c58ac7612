import Foundation
import TallyFormats
import TallyModel

/// Where a policy's `sources:` entries are matched: the working tree (`FileTree`), or the files
/// of a git revision (`tally diff --since`). What an entry names is decided once, in
/// `SourcePattern.match(in:base:policyFile:reads:)`, whichever tree it is matched in.
public protocol SourceTree {
    /// The files and folders `pattern` matches in the folder `base`, named as the tree names paths.
    func matching(_ pattern: String, base: String) -> [String]
    func isFolder(_ path: String) -> Bool
    /// Whether `path` is a file (not a folder) of the tree.
    func isFile(_ path: String) -> Bool
    /// Whether Tally reads the folder as one source (a snapshot, saved store pages).
    func isFolderSource(_ path: String) -> Bool
    /// Whether a file is a product source by its ending and first bytes (`SourceLoader.isProductSource`).
    func isProductSource(_ path: String) -> Bool
    /// Why it is not, for the note that skips it.
    func notAProductSource(_ path: String) -> String
    /// Where `path` really leads when that is outside the repository around the folder `base`
    /// (`RepositoryBoundary`); nil when it is inside, and always in a tree that cannot leave its
    /// repository (the files of a git revision).
    func escape(_ path: String, base: String) -> String?
    /// The files and folders directly in `folder` (`""`: the tree's top), sorted, named as the
    /// tree names paths.
    func entries(in folder: String) -> [String]
    /// What makes two paths one file (a link and its target): the real path in the working tree,
    /// the path itself in a revision.
    func identity(_ path: String) -> String
}

extension SourceTree {
    public func escape(_ path: String, base: String) -> String? { nil }

    /// The default sources of the folder `base` in this tree: the configurations in `configs/`
    /// (what only configuration readers claim: `.storekit` files and packages, product lists; an
    /// app's Info.plist beside them is not one) and every product source in `catalog/` (a file
    /// whose ending other files share, a `.json` or `.txt`, by its content). The one definition,
    /// for `check`'s sources now and `diff --since`'s at each revision (issue 51).
    public func defaultSources(in base: String) -> (configurations: [String], catalogs: [String]) {
        func inside(_ folder: String) -> [String] { entries(in: base.isEmpty || base == "." ? folder : "\(base)/\(folder)") }
        let configurations = inside("configs").filter { path in
            let claiming = SourceLoader.readers(claiming: path)
            guard !claiming.isEmpty, claiming.allSatisfy({ $0.format.role == .configuration }) else { return false }
            return claiming.contains(where: { $0.decidedByContent }) ? isProductSource(path) : true
        }
        let catalogs = inside("catalog").filter { path in
            let claiming = SourceLoader.readers(claiming: path).filter { $0.format.role == .catalog }
            guard !claiming.isEmpty else { return false }
            let ext = (path as NSString).pathExtension.lowercased()
            return claiming.allSatisfy({ $0.sniffedExtensions.contains(ext) }) ? isProductSource(path) : true
        }
        return (configurations, catalogs)
    }
}

/// The error for a path from a policy file that leads outside its repository: refused by name,
/// before a byte of it is read (docs/robustness.md, "The repository is the boundary").
public func outsideRepository(_ what: String, leadsTo real: String, at location: SourceLocation) -> FormatError {
    FormatError("\(what) leads outside the repository, to \(SafeText.line(real)): a policy file reads only files inside its repository "
                + "(the folder holding .git, else the policy's own folder); to read that file, name it on the command line", at: location)
}

/// What one `sources:` entry names in a tree.
public struct SourceMatch: Sendable {
    /// Files, and folders read as one source, in the order the tree lists them.
    public var paths: [String] = []
    /// Files the entry's glob matches that are not product sources: not read, each a warning.
    public var skipped: [SkippedSource] = []
    /// Folders the entry's glob matches that Tally does not read as one source (left alone).
    public var otherFolders: [String] = []
}

extension SourcePattern {
    /// What this entry names in `tree`, the entry being written in `policyFile`:
    ///
    /// - a file, or the files a glob matches;
    /// - a folder Tally reads as one source (`asc`, `asc/`, or a glob whose last name matches it,
    ///   `asc*`); another folder named without a glob is an error that says what Tally expected
    ///   inside it, and one a glob matches is left alone (`otherFolders`);
    /// - a file a glob matches that is not a product source (a YAML file without catalogue keys
    ///   beside the catalogue) is skipped (`skipped`), unless `reads` says it is read whatever its
    ///   content (a mapping or a forced format reads it).
    public func match(in tree: some SourceTree, base: String, policyFile: String,
                      reads: (String) -> Bool = { _ in false }) throws -> SourceMatch {
        var at = location ?? SourceLocation(file: policyFile)
        at.file = policyFile
        let isGlob = SourceGlob.hasGlob(pattern)
        var result = SourceMatch()
        for path in tree.matching(pattern, base: base) {
            if let real = tree.escape(path, base: base) {
                throw outsideRepository("the source \"\(pattern)\" (\(SafeText.line(path)))", leadsTo: real, at: at)
            }
            if tree.isFolder(path) {
                if tree.isFolderSource(path) {
                    result.paths.append(path)
                } else if !isGlob {
                    throw FormatError("the source \"\(pattern)\" is a folder that Tally does not read as one source: "
                                      + "expected \(SourceLoader.folderExpectation); to read the files in it, write a glob such as \(path)/*.yaml",
                                      at: at)
                } else {
                    result.otherFolders.append(path)
                }
            } else if isGlob, mapping == nil, !reads(path), !tree.isProductSource(path) {
                result.skipped.append(SkippedSource(path: path, pattern: pattern, reason: tree.notAProductSource(path), location: at))
            } else {
                result.paths.append(path)
            }
        }
        return result
    }

    /// The error for an entry that names nothing to read in a tree (`place`: where it was looked
    /// for, for the message): a typo must not quietly check less.
    public func nothingMatched(_ match: SourceMatch, place: String, policyFile: String) -> FormatError {
        var at = location ?? SourceLocation(file: policyFile)
        at.file = policyFile
        if let first = match.skipped.first {
            let names = match.skipped.map(\.path).joined(separator: ", ")
            return FormatError("the source \"\(pattern)\" matches no product source: \(names) \(match.skipped.count == 1 ? "is" : "are") not one (\(first.reason)); "
                               + "a server file of its own shape is read through a mapping: {path: \"\(pattern)\", mapping: FILE}", at: at)
        }
        if !match.otherFolders.isEmpty {
            return FormatError("the source \"\(pattern)\" matches no file, and only folders that Tally does not read as one source "
                               + "(\(match.otherFolders.joined(separator: ", "))): expected \(SourceLoader.folderExpectation)", at: at)
        }
        return FormatError("the source \"\(pattern)\" matches no file (relative to \(place))", at: at)
    }
}

/// The working tree as a `SourceTree`: paths relative to `root` (the current directory when nil).
public struct FileTree: SourceTree {
    public var root: String?

    public init(root: String? = nil) {
        self.root = root
    }

    private var prefix: String? { root.map { $0.hasSuffix("/") ? $0 : $0 + "/" } }

    /// Where `path` is opened.
    public func location(_ path: String) -> String {
        guard let prefix, !path.hasPrefix("/") else { return path }
        return path == "." ? prefix : prefix + path
    }

    public func matching(_ pattern: String, base: String) -> [String] {
        let found = SourceGlob.expand(pattern, in: location(base), folders: true)
        guard let prefix else { return found }
        return found.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
    }

    public func isFolder(_ path: String) -> Bool { SourceGlob.isDirectory(location(path)) }
    public func identity(_ path: String) -> String { SourceGlob.realPath(location(path)) }
    public func isFile(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: location(path), isDirectory: &flag) && !flag.boolValue
    }
    public func entries(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: location(folder.isEmpty ? "." : folder))) ?? []
        return names.sorted().map { folder.isEmpty || folder == "." ? $0 : "\(folder)/\($0)" }
    }
    public func isFolderSource(_ path: String) -> Bool { FolderSource.at(location(path)) != nil }
    public func isProductSource(_ path: String) -> Bool { SourceLoader.isProductSource(path: location(path), name: path) }
    public func notAProductSource(_ path: String) -> String { SourceLoader.notAProductSource(path, opened: location(path)) }
    public func escape(_ path: String, base: String) -> String? {
        RepositoryBoundary(around: location(base)).escape(location(path))
    }
}
