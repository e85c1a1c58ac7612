import Foundation
import TallyFormats
import TallyModel

/// Files as they were at a git revision, read through the `git` command (Foundation `Process`).
enum GitRevision {
    /// A git command that failed, with what git said.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Checks that `revision` names a commit in the repository holding `directory`.
    static func verify(_ revision: String, in directory: String = ".") throws {
        let result = try git(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"], in: directory)
        guard result.status == 0 else {
            guard topLevel(of: directory) != nil else {
                let folder = directory == "." ? "this folder" : directory
                throw Failure(message: "cannot read '\(revision)': \(folder) is not in a git repository (FILE@REV and --since read files from git)")
            }
            // git says nothing with --quiet for a name it does not know; anything else it said, in its own words.
            let said = result.stderr.replacingOccurrences(of: "fatal: ", with: "")
            throw Failure(message: "'\(revision)' is not a commit, branch or tag in this repository\(said.isEmpty ? "" : " (git: \(said))"); use one, e.g. HEAD~1 or main")
        }
    }

    /// The top folder of the git work tree holding `directory`, or nil outside one (or without git).
    static func topLevel(of directory: String = ".") -> String? {
        guard let result = try? git(["rev-parse", "--show-toplevel"], in: directory), result.status == 0 else { return nil }
        let path = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }

    /// The one-line message for a folder outside any git repository.
    static func notARepository(_ directory: String) -> String {
        let place = directory == "." ? "this folder is" : "\(directory) is"
        return "\(place) not in a git repository; FILE@REV and --since read files through git (compare two files with 'tally diff OLD NEW')"
    }

    /// The current folder's path inside its repository (`server/catalog/`, empty at the top).
    static func prefix() throws -> String {
        let result = try git(["rev-parse", "--show-prefix"], in: ".")
        guard result.status == 0 else {
            if result.stderr.contains("not a git repository") { throw Failure(message: notARepository(".")) }
            throw Failure(message: "git cannot find the repository here: \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Every file at `revision`, as paths from the repository's top folder; `top` is the top
    /// folder as seen from the current one (`../../`, or empty).
    static func allFiles(at revision: String, top: String) throws -> [String] {
        let result = try git(["ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", revision], in: top.isEmpty ? "." : top)
        guard result.status == 0 else {
            throw Failure(message: "git cannot list the files at \(revision): \(result.stderr.split(separator: "\n").first ?? "")")
        }
        return result.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of `path` at `revision`, or nil when the file did not exist then. `path` is
    /// relative to the current directory (or absolute), like any other file argument.
    static func read(_ path: String, at revision: String, maxBytes: Int) throws -> [UInt8]? {
        let (directory, relative) = anchor(path)
        try verify(revision, in: directory)
        let spec = "\(revision):./\(relative)"
        guard try git(["cat-file", "-e", spec], in: directory).status == 0 else { return nil }
        let result = try git(["show", spec], in: directory)
        guard result.status == 0 else {
            throw Failure(message: "git cannot show \(path) at \(revision): \(result.stderr)")
        }
        guard result.stdout.count <= maxBytes else {
            throw Failure(message: "the file is over the \(maxBytes / 1_048_576) MB input limit at \(revision) (raise it with --max-input-mb)")
        }
        return [UInt8](result.stdout)
    }

    /// A copy of the folder `path` as it was at `revision` (the files directly in it), in a new
    /// temporary folder of the same name, or nil when `path` was not a folder then. The caller
    /// removes the copy's parent folder.
    static func copyFolder(_ path: String, at revision: String, maxBytes: Int) throws -> String? {
        let (directory, relative) = anchor(path.hasSuffix("/") ? String(path.dropLast()) : path)
        let spec = "\(revision):./\(relative)"
        let type = try git(["cat-file", "-t", spec], in: directory)
        guard type.status == 0, String(decoding: type.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "tree" else { return nil }
        let listing = try git(["ls-tree", "-z", spec], in: directory)
        guard listing.status == 0 else { throw Failure(message: "git cannot list \(path) at \(revision): \(listing.stderr)") }
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("tally-\(getpid())-\(UUID().uuidString)").path
        let name = (relative as NSString).lastPathComponent
        let copy = (parent as NSString).appendingPathComponent(name.isEmpty || name == "." ? "top" : name)
        do {
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            // `MODE blob HASH\tNAME`: the files directly in the folder.
            for entry in listing.stdout.split(separator: 0) {
                let line = String(decoding: entry, as: UTF8.self)
                guard let tab = line.firstIndex(of: "\t") else { continue }
                let fields = line[..<tab].split(separator: " ")
                guard fields.count == 3, fields[1] == "blob" else { continue }
                let file = String(line[line.index(after: tab)...])
                let blob = try git(["cat-file", "blob", String(fields[2])], in: directory)
                guard blob.status == 0 else { throw Failure(message: "git cannot show \(path)/\(file) at \(revision): \(blob.stderr)") }
                guard blob.stdout.count <= maxBytes else {
                    throw Failure(message: "\(path)/\(file) is over the \(maxBytes / 1_048_576) MB input limit at \(revision) (raise it with --max-input-mb)")
                }
                try blob.stdout.write(to: URL(fileURLWithPath: (copy as NSString).appendingPathComponent(file)))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: parent)
            if let failure = error as? Failure { throw failure }
            throw Failure(message: "cannot copy \(path) at \(revision) to a temporary folder: \(error.localizedDescription)")
        }
        return copy
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
    }

    private static func git(_ arguments: [String], in directory: String) throws -> Output {
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
            throw Failure(message: "cannot run git: \(error.localizedDescription)")
        }
        // Drain stderr on another thread so neither pipe can fill up and block git.
        let errors = Drain(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = errors.wait()
        if process.terminationStatus == 127 {
            throw Failure(message: "cannot run git: it is not installed or not on PATH")
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
