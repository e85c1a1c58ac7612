import Foundation
import TallyModel

/// The revisions of a git repository, read through the `git` command (Foundation `Process`):
/// files are listed with `git ls-tree` and read with `git show`; nothing is checked out.
public struct GitRevisionStore: RevisionStore {
    /// The run's directory: git asks there which repository and which folder of it the run is
    /// in. Paths given to `contents` and `folder` are as the process opens them.
    public let directory: String

    public init(directory: String = ".") { self.directory = directory }

    public func verify(_ revision: String) throws(RevisionError) {
        try Self.verify(revision, in: directory)
    }

    /// Checks that `revision` names a commit in the repository holding `directory`.
    static func verify(_ revision: String, in directory: String) throws(RevisionError) {
        let result = try git(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"], in: directory)
        guard result.status == 0 else {
            guard topLevel(of: directory) != nil else {
                let folder = directory == "." ? "this folder" : directory
                throw RevisionError("cannot read '\(revision)': \(folder) is not in a git repository (FILE@REV and --since read files from git)")
            }
            // git says nothing with --quiet for a name it does not know; anything else it said, in its own words.
            let said = result.stderr.replacingOccurrences(of: "fatal: ", with: "")
            throw RevisionError("'\(revision)' is not a commit, branch or tag in this repository\(said.isEmpty ? "" : " (git: \(said))"); use one, e.g. HEAD~1 or main")
        }
    }

    /// The top folder of the git work tree holding `directory`, or nil outside one (or without git).
    public static func topLevel(of directory: String = ".") -> String? {
        guard let result = try? git(["rev-parse", "--show-toplevel"], in: directory), result.status == 0 else { return nil }
        let path = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }

    /// The one-line message for a folder outside any git repository.
    static func notARepository(_ directory: String) -> String {
        let place = directory == "." ? "this folder is" : "\(directory) is"
        return "\(place) not in a git repository; FILE@REV and --since read files through git (compare two files with 'tally diff OLD NEW')"
    }

    public func prefix() throws(RevisionError) -> String {
        let result = try Self.git(["rev-parse", "--show-prefix"], in: directory)
        guard result.status == 0 else {
            if result.stderr.contains("not a git repository") { throw RevisionError(Self.notARepository(directory)) }
            throw RevisionError("git cannot find the repository here: \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    public func files(at revision: String) throws(RevisionError) -> [String] {
        let result = try Self.git(["ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", revision], in: directory)
        guard result.status == 0 else {
            throw RevisionError("git cannot list the files at \(revision): \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return result.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    public func contents(of path: String, at revision: String, maxBytes: Int) throws(RevisionError) -> [UInt8]? {
        let (directory, relative) = Self.anchor(path)
        try Self.verify(revision, in: directory)
        let spec = "\(revision):./\(relative)"
        let type = try Self.git(["cat-file", "-t", spec], in: directory)
        guard type.status == 0, type.text == "blob" else { return nil }
        let result = try Self.git(["show", spec], in: directory)
        guard result.status == 0 else {
            throw RevisionError("git cannot show \(path) at \(revision): \(result.stderr)")
        }
        guard result.stdout.count <= maxBytes else {
            throw RevisionError("the file is over the \(maxBytes / 1_048_576) MB input limit at \(revision)", remedy: .raiseInputLimit)
        }
        return [UInt8](result.stdout)
    }

    public func folder(_ path: String, at revision: String) throws(RevisionError) -> [String]? {
        let (directory, relative) = Self.anchor(path.hasSuffix("/") ? String(path.dropLast()) : path)
        let spec = "\(revision):./\(relative)"
        let type = try Self.git(["cat-file", "-t", spec], in: directory)
        guard type.status == 0, type.text == "tree" else { return nil }
        let listing = try Self.git(["ls-tree", "-z", spec], in: directory)
        guard listing.status == 0 else { throw RevisionError("git cannot list \(path) at \(revision): \(listing.stderr)") }
        // `MODE blob HASH\tNAME`: the files directly in the folder.
        return listing.stdout.split(separator: 0).compactMap { entry in
            let line = String(decoding: entry, as: UTF8.self)
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            let fields = line[..<tab].split(separator: " ")
            guard fields.count == 3, fields[1] == "blob" else { return nil }
            return String(line[line.index(after: tab)...])
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

    private struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private static func git(_ arguments: [String], in directory: String) throws(RevisionError) -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_PAGER"] = "cat"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw RevisionError("cannot run git: \(error.localizedDescription)")
        }
        // Drain stderr on another thread so neither pipe can fill up and block git.
        let errors = Drain(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = errors.wait()
        if process.terminationStatus == 127 {
            throw RevisionError("cannot run git: it is not installed or not on PATH")
        }
        let text = String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Output(status: process.terminationStatus, stdout: stdout, stderr: text)
    }

    /// Reads a pipe to its end on its own thread.
    private final class Drain: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }.start()
        }

        /// Everything read, once the pipe is closed (the semaphore orders the write before this read).
        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
