#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Crypto
import Foundation

/// A fresh API key pair, its private key written as a .p8 (PKCS#8 PEM) file.
struct TestKey: Sendable {
    /// PKCS#8 PEM ("BEGIN PRIVATE KEY"), as App Store Connect's .p8 files are.
    let pem = P256.Signing.PrivateKey().pemRepresentation
    var privateKey: P256.Signing.PrivateKey { get throws { try P256.Signing.PrivateKey(pemRepresentation: pem) } }
    var publicKey: P256.Signing.PublicKey { get throws { try privateKey.publicKey } }

    func write(in folder: URL, name: String = "AuthKey_TESTKEY123.p8") throws -> URL {
        let file = folder.appendingPathComponent(name)
        try pem.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// A temporary folder, removed by `remove()`.
struct Scratch: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Name → contents of every file in a folder (recursively), to compare a folder before and after.
    static func contents(of folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let root = URL(fileURLWithPath: folder)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return result }
        for case let file as URL in walker {
            if let data = try? Data(contentsOf: file) { result[file.path.replacingOccurrences(of: root.path, with: "")] = data }
        }
        return result
    }
}

/// Runs the built `tally` binary without blocking Swift's cooperative threads (the stand-in
/// server answers on them, in this process).
enum Tally {
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var all: String { stdout + stderr }
    }

    static var executable: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("tally")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return StandInServer.repository.appendingPathComponent(".build/debug/tally")
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        try await start(arguments, environment: environment).wait()
    }

    /// A started `tally`, to signal before it ends.
    struct Running: @unchecked Sendable {
        let process: Process
        let out: Pipe
        let err: Pipe
        var processIdentifier: Int32 { process.processIdentifier }

        func wait() async throws -> Output {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    let stdout = out.fileHandleForReading.readDataToEndOfFile()
                    let stderr = err.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                                          stderr: String(decoding: stderr, as: UTF8.self)))
                }
            }
        }
    }

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = StandInServer.repository
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("ASC_") || key.hasPrefix("TALLY_") { env.removeValue(forKey: key) }
        env["NO_COLOR"] = "1"
        env["TALLY_FETCH_BACKOFF_SCALE"] = "0.01"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return Running(process: process, out: out, err: err)
    }
}
#endif
