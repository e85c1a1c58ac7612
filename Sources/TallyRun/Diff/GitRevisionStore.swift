import Foundation
import Synchronization
import TallyFormats
import TallyModel

/// The revisions of a git repository, read through the `git` command; nothing is checked out.
///
/// A revision is resolved to its commit once (`git rev-parse --end-of-options`); every later
/// command names that hash, so no revision can read as an option. A file's type and size come
/// from `git cat-file -t` and `-s`, a folder's from `git ls-tree -l`, which read no content: a
/// file over the limit is refused before a byte of it is read. A folder's files come through one
/// `git cat-file --batch` process, however many.
public struct GitRevisionStore: RevisionStore {
    /// The run's directory: git asks there which repository and which folder of it the run is
    /// in. Paths given to `contents` and `folder` are as the process opens them.
    public let directory: String
    private let commits = Commits()

    public init(directory: String = ".") { self.directory = directory }

    public func verify(_ revision: String) throws(RevisionError) {
        _ = try commits.hash(of: revision, in: directory)
    }

    /// The top folder of the git work tree holding `directory`, or nil outside one (or without git).
    public static func topLevel(of directory: String = ".") -> String? {
        guard let result = try? GitProcess.run(["rev-parse", "--show-toplevel"], in: directory), result.status == 0 else { return nil }
        let path = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }

    /// The one-line message for a folder outside any git repository.
    static func notARepository(_ directory: String) -> String {
        let place = directory == "." ? "this folder is" : "\(directory) is"
        return "\(place) not in a git repository; FILE@REV and --since read files through git (compare two files with 'tally diff OLD NEW')"
    }

    public func prefix() throws(RevisionError) -> String {
        let result = try GitProcess.run(["rev-parse", "--show-prefix"], in: directory)
        guard result.status == 0 else {
            if result.stderr.contains("not a git repository") { throw RevisionError(Self.notARepository(directory)) }
            throw RevisionError("git cannot find the repository here: \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    public func files(at revision: String) throws(RevisionError) -> [String] {
        let commit = try commits.hash(of: revision, in: directory)
        let result = try GitProcess.run(["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit], in: directory)
        guard result.status == 0 else {
            throw RevisionError("git cannot list the files at \(revision): \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return result.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    public func contents(of path: String, at revision: String, maxBytes: Int, whose: String?) throws(RevisionError) -> [UInt8]? {
        let (directory, relative) = Self.anchor(path)
        let commit = try commits.hash(of: revision, in: directory)
        let spec = "\(commit):./\(relative)"
        guard try Self.type(of: spec, in: directory) == "blob" else { return nil }
        if try Self.isLink(commit, relative, in: directory) {
            return try linked(path, spec: spec, commit: commit, relative: relative, in: directory, at: revision, maxBytes: maxBytes, whose: whose)
        }
        let sized = try GitProcess.run(["cat-file", "-s", spec], in: directory)
        guard sized.status == 0, let size = Int(sized.text) else {
            throw RevisionError("git cannot tell the size of \(path) at \(revision): \(sized.stderr.split(separator: "\n").first ?? "")")
        }
        guard size <= maxBytes else { throw Self.over(size, maxBytes, at: revision, whose: whose) }
        let result = try GitProcess.run(["cat-file", "blob", spec], in: directory)
        guard result.status == 0 else {
            throw RevisionError("git cannot read \(path) at \(revision): \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return [UInt8](result.stdout)
    }

    /// A symbolic link at a revision (a blob of mode 120000 whose bytes are where it leads): the
    /// file it leads to at the same revision when that is inside the repository, read as any
    /// file; a link out of it (`/etc/passwd`, `../../secrets`) is refused by name, as in the
    /// working tree (`SourceLinks`). A chain of links is followed 8 deep.
    private func linked(_ path: String, spec: String, commit: String, relative: String, in directory: String,
                        at revision: String, maxBytes: Int, whose: String?, depth: Int = 0) throws(RevisionError) -> [UInt8]? {
        let read = try GitProcess.run(["cat-file", "blob", spec], in: directory)
        let target = String(decoding: read.stdout.prefix(4096), as: UTF8.self)
        guard read.status == 0, depth < 8 else {
            throw RevisionError("\(path) at \(revision): a symbolic link Tally cannot follow (\(depth < 8 ? "git cannot read it" : "more than 8 links in a row"))")
        }
        let prefix = try GitProcess.run(["rev-parse", "--show-prefix"], in: directory)
        let here = String(decoding: prefix.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
        let folder = PathText.parent(here + relative)
        guard !target.hasPrefix("/"), let inside = Self.normalised(folder.isEmpty ? target : folder + "/" + target) else {
            throw RevisionError("\(path) at \(revision) is a symbolic link to \(SafeText.line(target)), outside the repository: Tally reads linked files only inside it")
        }
        guard let top = Self.topLevel(of: directory) else { return nil }
        let next = "\(commit):\(inside)"
        guard try Self.type(of: next, in: top) == "blob" else { return nil }
        if try Self.isLink(commit, inside, in: top) {
            return try linked(path, spec: next, commit: commit, relative: inside, in: top, at: revision, maxBytes: maxBytes, whose: whose, depth: depth + 1)
        }
        let sized = try GitProcess.run(["cat-file", "-s", next], in: top)
        guard sized.status == 0, let size = Int(sized.text) else { return nil }
        guard size <= maxBytes else { throw Self.over(size, maxBytes, at: revision, whose: whose) }
        let result = try GitProcess.run(["cat-file", "blob", next], in: top)
        return result.status == 0 ? [UInt8](result.stdout) : nil
    }

    /// Whether the entry `relative` (from `directory`) is a symbolic link at `commit`: its mode
    /// in the tree listing, which reads trees only, never the blob.
    static func isLink(_ commit: String, _ relative: String, in directory: String) throws(RevisionError) -> Bool {
        let listing = try GitProcess.run(["ls-tree", "-z", commit, "--", relative.isEmpty ? "." : relative], in: directory)
        guard listing.status == 0 else { return false }
        return listing.stdout.starts(with: Array("120000 ".utf8))
    }

    /// `a/b/../c` → `a/c`; nil when the path climbs above the repository's top.
    static func normalised(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard parts.popLast() != nil else { return nil }
            } else {
                parts.append(part)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    public func folder(_ path: String, at revision: String) throws(RevisionError) -> [String]? {
        let (directory, relative) = Self.anchor(path.hasSuffix("/") ? String(path.dropLast()) : path)
        let commit = try commits.hash(of: revision, in: directory)
        return try Self.entries(commit, relative, in: directory)?.filter { $0.type == "blob" }.map(\.name)
    }

    /// The files directly in the folder, sizes checked from the listing, bytes read through one
    /// `git cat-file --batch` and written to `destination` one at a time.
    public func copyFiles(in path: String, at revision: String, to destination: String, maxBytes: Int) throws(RevisionError) -> Bool {
        let (directory, relative) = Self.anchor(path.hasSuffix("/") ? String(path.dropLast()) : path)
        let commit = try commits.hash(of: revision, in: directory)
        guard let listed = try Self.entries(commit, relative, in: directory) else { return false }
        let blobs = listed.filter { $0.type == "blob" }
        // A StoreKit configuration package's `Assets/`: its promotional images are checked by name
        // only (`promotional-image`), so their names are written, empty, never their bytes.
        if path.lowercased().hasSuffix(".storekit") || path.lowercased().hasSuffix(".storekit/"),
           listed.contains(where: { $0.type == "tree" && $0.name == "Assets" }),
           let images = try Self.entries(commit, (relative as NSString).appendingPathComponent("Assets"), in: directory) {
            let assets = (destination as NSString).appendingPathComponent("Assets")
            do { try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true) } catch {
                throw RevisionError("cannot copy \(path)/Assets at \(revision) to a temporary folder")
            }
            for image in images.prefix(10_000) where image.type == "blob" {
                _ = FileManager.default.createFile(atPath: (assets as NSString).appendingPathComponent(image.name), contents: nil)
            }
        }
        if let large = blobs.first(where: { $0.size > maxBytes }) {
            throw RevisionError("\(path)/\(large.name): \(Self.over(large.size, maxBytes, at: revision, whose: nil).message)", remedy: .raiseInputLimit)
        }
        guard !blobs.isEmpty else { return true }
        let request = Data(blobs.map { $0.id + "\n" }.joined().utf8)
        try GitProcess.stream(["cat-file", "--batch"], in: directory, input: request) { (handle: FileHandle) throws(RevisionError) in
            var reader = BatchReader(handle)
            for blob in blobs {
                guard let header = reader.line(), header.hasPrefix(blob.id + " blob "), let bytes = reader.bytes(blob.size) else {
                    throw RevisionError("git stopped while reading \(path) at \(revision)")
                }
                let file = (destination as NSString).appendingPathComponent(blob.name)
                guard FileManager.default.createFile(atPath: file, contents: bytes) else {
                    throw RevisionError("cannot copy \(path)/\(blob.name) at \(revision) to a temporary folder")
                }
            }
        }
        return true
    }

    /// The refusal of a blob over the limit, read from the listing before any of it.
    private static func over(_ size: Int, _ limit: Int, at revision: String, whose: String?) -> RevisionError {
        RevisionError("\(SizeLimit.message(size: size, limit: limit, whose: whose)) at \(revision)", remedy: whose == nil ? .raiseInputLimit : nil)
    }

    /// One entry of a tree listing (`git ls-tree -l`).
    struct Entry {
        var type: String
        var id: String
        /// Bytes, for a blob (0 for anything else).
        var size: Int
        var name: String
    }

    /// The type of the object `spec` names (`blob`, `tree`), or nil when it names none. Only the
    /// object's header is read: asking `ls-tree` whether a blob is a folder inflates all of it.
    static func type(of spec: String, in directory: String) throws(RevisionError) -> String? {
        let result = try GitProcess.run(["cat-file", "-t", spec], in: directory)
        return result.status == 0 ? result.text : nil
    }

    /// The entries of the folder `relative` (from `directory`; empty for it) at `commit`, or nil
    /// when it was not a folder then.
    static func entries(_ commit: String, _ relative: String, in directory: String) throws(RevisionError) -> [Entry]? {
        let spec = "\(commit):./\(relative)"
        guard try type(of: spec, in: directory) == "tree" else { return nil }
        // `--full-tree`: in a subfolder, ls-tree would otherwise keep only names under it, and a
        // tree's names (`products.yaml`) are never under `catalog/`.
        let listing = try GitProcess.run(["ls-tree", "--full-tree", "-l", "-z", spec], in: directory)
        guard listing.status == 0 else { return nil }
        // `MODE TYPE ID SIZE\tNAME`, the size right-aligned (`-` for a folder).
        return listing.stdout.split(separator: 0).compactMap { record -> Entry? in
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
            let fields = record[..<tab].split(separator: UInt8(ascii: " "))
            guard fields.count == 4 else { return nil }
            let text = { (field: ArraySlice<UInt8>) in String(decoding: field, as: UTF8.self) }
            let name = String(decoding: record[record.index(after: tab)...], as: UTF8.self)
            // A crafted tree may hold names no checkout would write; a copy never leaves its folder.
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return nil }
            return Entry(type: text(fields[1]), id: text(fields[2]), size: Int(text(fields[3])) ?? 0, name: name)
        }
    }

    /// The nearest existing directory above `path`, and the path from there: git runs in that
    /// directory so that files outside the current repository (or deleted since) still resolve.
    private static func anchor(_ path: String) -> (directory: String, relative: String) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let absolute = path.hasPrefix("/")
        var rest: [String] = []
        if let last = components.popLast() { rest.append(last) }
        while !components.isEmpty {
            let directory = components.joined(separator: "/")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.isEmpty && absolute ? "/" : directory, isDirectory: &isDirectory), isDirectory.boolValue {
                return (directory.isEmpty ? "/" : directory, rest.reversed().joined(separator: "/"))
            }
            if let last = components.popLast() { rest.append(last) }
        }
        return (".", rest.reversed().joined(separator: "/"))
    }

    /// The commits revisions name, per directory (a run asks about the same few many times).
    private final class Commits: Sendable {
        private let known = Mutex<[String: String]>([:])

        /// The commit `revision` names in the repository holding `directory`, as a hash.
        func hash(of revision: String, in directory: String) throws(RevisionError) -> String {
            let key = directory + "\u{0}" + revision
            if let hash = known.withLock({ $0[key] }) { return hash }
            let result = try GitProcess.run(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"], in: directory)
            let hash = result.text
            guard result.status == 0, !hash.isEmpty, hash.allSatisfy(\.isHexDigit) else {
                guard GitRevisionStore.topLevel(of: directory) != nil else {
                    let folder = directory == "." ? "this folder" : directory
                    throw RevisionError("cannot read '\(revision)': \(folder) is not in a git repository (FILE@REV and --since read files from git)")
                }
                // git says nothing with --quiet for a name it does not know; anything else it said, in its own words.
                let said = result.stderr.replacingOccurrences(of: "fatal: ", with: "")
                throw RevisionError("'\(revision)' is not a commit, branch or tag in this repository\(said.isEmpty ? "" : " (git: \(said))"); use one, e.g. HEAD~1 or main")
            }
            known.withLock { $0[key] = hash }
            return hash
        }
    }
}
