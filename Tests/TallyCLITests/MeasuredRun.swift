import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `tally` under GNU `/usr/bin/time -v` and measures that process alone: wall
/// time and peak resident memory. (The test process's own `wait4` rusage would not do: a child
/// spawned from a large process inherits that process's peak RSS at exec.)
struct MeasuredRun {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Peak resident set size of the child, in kilobytes.
    var maxResidentKB: Int
    var seconds: Double

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    static let time = "/usr/bin/time"
    static var timeAvailable: Bool { FileManager.default.isExecutableFile(atPath: time) }

    static func run(_ arguments: [String]) throws -> MeasuredRun {
        guard timeAvailable else { throw SpawnError(description: "\(time) is missing: install GNU time (Debian package time); .ci/run does") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tally-measured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        let statsPath = scratch.appendingPathComponent("time").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let command = [time, "-v", "-o", statsPath, CLIRunner.executable.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }

        let start = ContinuousClock.now
        var pid = pid_t()
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnError(description: "posix_spawn failed: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(pid, &status, 0) } while waited == -1 && errno == EINTR
        guard waited == pid else { throw SpawnError(description: "wait4 failed: \(String(cString: strerror(errno)))") }
        let elapsed = ContinuousClock.now - start
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let stats = (try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? ""
        let peakLine = stats.split(separator: "\n").first { $0.contains("Maximum resident set size (kbytes):") }
        guard let peak = peakLine?.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw SpawnError(description: "\(time) -v reported no peak memory: \(stats)")
        }
        return MeasuredRun(
            status: exitStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            maxResidentKB: peak,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// A TCP listener on 127.0.0.1 that only counts: if anything connects (a parser fetching a DTD
/// or an external entity), the connection waits in its backlog and `connectionAttempted` is true.
final class LoopbackListener {
    let port: UInt16
    private let socketFD: Int32

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw MeasuredRun.SpawnError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw MeasuredRun.SpawnError(description: "bind or listen failed")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        socketFD = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether a connection arrived (accepting it, if so).
    var connectionAttempted: Bool {
        let client = accept(socketFD, nil, nil)
        guard client >= 0 else { return false }
        close(client)
        return true
    }

    /// Opens a TCP connection to a loopback port (a client, to show the listener sees one).
    static func connect(to port: UInt16) throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw MeasuredRun.SpawnError(description: "connect failed") }
        return fd
    }

    deinit { close(socketFD) }
}
