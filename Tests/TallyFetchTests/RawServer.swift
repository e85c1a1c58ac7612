#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that answers every connection with raw bytes, for what an HTTP
/// server library will not send: an endless header section, a body cut off mid-way, a TLS
/// client's handshake answered in plain text. Every loop is bounded (bytes written, time slept),
/// writes never raise SIGPIPE (`MSG_NOSIGNAL`), and `stop()` closes the listening socket.
final class RawServer: @unchecked Sendable {
    /// What to do with one accepted connection, after its request was read; the server closes it after.
    typealias Answer = @Sendable (Connection) -> Void

    struct Connection: Sendable {
        let fd: Int32
        /// The request's bytes (its head, and what of its body arrived with it).
        let request: String
        let record: @Sendable (String) -> Void

        /// Reads the next request on the connection (a tunnelled one, after a CONNECT), kept in `requests`.
        func receive() -> String {
            let next = RawServer.readRequest(fd)
            record(next)
            return next
        }

        /// Writes all of `bytes`; false once the peer is gone.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }

        @discardableResult
        func send(_ text: String) -> Bool { send(Array(text.utf8)) }

        /// Waits until the peer closes the connection (or `limit` passes): reads and drops what it sends.
        func waitForClose(limit: Duration = .seconds(30)) {
            let end = ContinuousClock.now.advanced(by: limit)
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while ContinuousClock.now < end {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) >= 0 else { return }
                if poller.revents != 0, recv(fd, &buffer, buffer.count, 0) <= 0 { return }
            }
        }
    }

    private let listener: Int32
    private let lock = NSLock()
    private var _connections = 0
    private var _requests: [String] = []
    private(set) var port: UInt16 = 0

    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// Connections accepted so far.
    var connections: Int { lock.withLock { _connections } }
    var requests: [String] { lock.withLock { _requests } }

    init(answer: @escaping Answer) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw StandInError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw StandInError("cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                lock.withLock { _connections += 1 }
                Thread.detachNewThread { [self] in
                    let request = Self.readRequest(client)
                    lock.withLock { _requests.append(request) }
                    answer(Connection(fd: client, request: request) { next in self.lock.withLock { self._requests.append(next) } })
                    close(client)
                }
            }
        }
    }

    /// Reads until the end of the request's head and as much of its body as `Content-Length` says (bounded).
    static func readRequest(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let end = ContinuousClock.now.advanced(by: .seconds(10))
        while bytes.count < 1 << 20, ContinuousClock.now < end {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            guard poller.revents != 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if bytes.first == 0x16 { break }  // a TLS handshake: there is no HTTP head to wait for
            let text = String(decoding: bytes, as: UTF8.self)
            if let head = text.range(of: "\r\n\r\n") {
                let length = text[..<head.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: head.upperBound) >= length { break }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
#endif
