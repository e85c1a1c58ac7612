import Foundation

/// Runs the built `tally` binary, the way a user or CI would.
struct CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared")
    static let sharedAvailable = FileManager.default.fileExists(atPath: shared.appendingPathComponent("fixtures/realworld").path)
    /// Whether the built `tally` has `tally fetch`'s network stack (the package trait Fetch, which
    /// the README's test command turns on): tests that fetch are skipped without it.
    #if Fetch
    static let fetches = true
    #else
    static let fetches = false
    #endif

    /// The `tally` executable built beside the test bundle.
    static var executable: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("tally")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/tally")
    }

    static func run(_ arguments: [String], in directory: URL = repository, environment: [String: String] = [:]) throws -> Output {
        try launch(executable, arguments, in: directory, environment: environment)
    }

    /// Runs a program with the environment every CLI test uses (no colour, not on GitHub
    /// Actions, plus `environment`) and returns what it printed. Standard input is empty.
    static func launch(_ program: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "GITHUB_ACTIONS")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // The test runner's threads block most signals, and a child inherits that mask: `timeout`
        // in a test's script could then never stop what it runs (SIGALRM and SIGTERM stay
        // pending), and a hang would outlive the suite's time limit. The child starts with
        // every signal unblocked; this thread's mask is put back at once.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_UNBLOCK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        // Read before waiting so a large report cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fresh temporary directory holding copies of the shipped examples.
    static func exampleCopy() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for folder in ["configs", "catalog"] {
            try FileManager.default.copyItem(at: repository.appendingPathComponent(folder), to: directory.appendingPathComponent(folder))
        }
        return directory
    }

    /// Replaces text in a file, requiring that it occurs exactly once (a test that silently changes nothing cannot fail).
    static func edit(_ file: URL, replacing old: String, with new: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let parts = text.components(separatedBy: old)
        guard parts.count == 2 else { throw EditError(message: "\(old) occurs \(parts.count - 1) times in \(file.lastPathComponent)") }
        try parts.joined(separator: new).write(to: file, atomically: true, encoding: .utf8)
    }

    struct EditError: Error, CustomStringConvertible { var message: String; var description: String { message } }
}
