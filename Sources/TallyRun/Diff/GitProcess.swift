import Foundation

/// One run of the `git` command (Foundation `Process`): its arguments never carry a revision a
/// user wrote except behind `--end-of-options` (GitRevisionStore passes commit hashes), pathspecs
/// are literal, standard input comes from a file, and standard error is drained on its own thread
/// while output is read, so that no pipe can fill up and block git.
struct GitProcess {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Runs `git ARGUMENTS` in `directory`, with `input` on its standard input, and returns what it printed.
    static func run(_ arguments: [String], in directory: String, input: Data? = nil) throws(RevisionError) -> Output {
        let running = try start(arguments, in: directory, input: input)
        let stdout = Pipes.readAll(running.out)
        return try running.finish(stdout: stdout)
    }

    /// Runs `git ARGUMENTS` in `directory` and hands its standard output to `read` as it comes.
    static func stream<T>(_ arguments: [String], in directory: String, input: Data? = nil,
                          _ read: (FileHandle) throws(RevisionError) -> T) throws(RevisionError) -> T {
        let running = try start(arguments, in: directory, input: input)
        let value: T
        do throws(RevisionError) {
            value = try read(running.out)
        } catch {
            running.stop()
            throw error
        }
        _ = Pipes.readAll(running.out)
        let ended = try running.finish(stdout: Data())
        guard ended.status == 0 else {
            throw RevisionError("git \(arguments.first ?? "") failed: \(ended.stderr.split(separator: "\n").first ?? "")")
        }
        return value
    }

    /// A started git: its standard output to read, its standard error drained meanwhile.
    final class Running: @unchecked Sendable {
        let process: Process
        let out: FileHandle
        private let errors: Drain

        fileprivate init(_ process: Process, out: FileHandle, errors: Drain) {
            self.process = process
            self.out = out
            self.errors = errors
        }

        /// Stops git early (its output is no longer wanted).
        func stop() {
            if process.isRunning { process.terminate() }
            _ = Pipes.readAll(out)
            process.waitUntilExit()
            _ = errors.wait()
        }

        func finish(stdout: Data) throws(RevisionError) -> Output {
            process.waitUntilExit()
            let stderr = errors.wait()
            if process.terminationStatus == 127 {
                throw RevisionError("cannot run git: it is not installed or not on PATH")
            }
            let text = String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return Output(status: process.terminationStatus, stdout: stdout, stderr: text)
        }
    }

    private static func start(_ arguments: [String], in directory: String, input: Data?) throws(RevisionError) -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_PAGER"] = "cat"
        environment["LC_ALL"] = "C"
        // A path is a path: `*` or `:(glob)` in a file name matches nothing else.
        environment["GIT_LITERAL_PATHSPECS"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputFile = try input.map { data throws(RevisionError) in try Self.file(holding: data) }
        defer { try? inputFile?.close() }
        process.standardInput = inputFile ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw RevisionError("cannot run git: \(error.localizedDescription)")
        }
        return Running(process, out: out.fileHandleForReading, errors: Drain(err.fileHandleForReading))
    }

    /// Standard input for git, from a file rather than a pipe: a git that stops early cannot make
    /// the write fail, or raise SIGPIPE. The file is unlinked at once; the handle keeps it.
    private static func file(holding data: Data) throws(RevisionError) -> FileHandle {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-git-\(getpid())-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: data), let handle = FileHandle(forReadingAtPath: path) else {
            try? FileManager.default.removeItem(atPath: path)
            throw RevisionError("cannot write a temporary file for git in \(FileManager.default.temporaryDirectory.path)")
        }
        try? FileManager.default.removeItem(atPath: path)
        return handle
    }

    /// Reads a pipe to its end on its own thread.
    fileprivate final class Drain: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread { [self] in
                data = Pipes.readAll(handle)
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

/// Reads `git cat-file --batch` output from a pipe: a header line per object, then its bytes.
struct BatchReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line, without its newline; nil at the end.
    mutating func line() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return text
            }
            guard fill() else { return nil }
        }
    }

    /// The next `count` bytes, then the newline after them; nil when the output ends first.
    /// The bytes are gathered once, in an array of their size.
    mutating func bytes(_ count: Int) -> Data? {
        var bytes = Data(capacity: count)
        while bytes.count < count {
            if start == buffer.count, !fill() { return nil }
            let take = min(count - bytes.count, buffer.count - start)
            bytes.append(contentsOf: buffer[start..<(start + take)])
            start += take
        }
        if start == buffer.count, !fill() { return nil }
        start += 1
        return bytes
    }

    /// Reads more from the pipe; false at its end.
    private mutating func fill() -> Bool {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        guard let chunk = Pipes.read(handle, upTo: 1 << 20), !chunk.isEmpty else { return false }
        buffer.append(contentsOf: chunk)
        return true
    }
}

/// Reads of a pipe with `read(2)`, again after a signal interrupts one (`FileHandle.readDataToEndOfFile`
/// traps on `EINTR`).
enum Pipes {
    /// Up to `count` bytes; empty at the end, nil on an error.
    static func read(_ handle: FileHandle, upTo count: Int) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: count)
        var got = 0
        repeat {
            got = chunk.withUnsafeMutableBytes { Foundation.read(handle.fileDescriptor, $0.baseAddress, count) }
        } while got < 0 && errno == EINTR
        guard got >= 0 else { return nil }
        chunk.removeSubrange(got...)
        return chunk
    }

    /// Everything up to the end (or an error).
    static func readAll(_ handle: FileHandle) -> Data {
        var data = Data()
        while let chunk = read(handle, upTo: 1 << 16), !chunk.isEmpty { data.append(contentsOf: chunk) }
        return data
    }

}
