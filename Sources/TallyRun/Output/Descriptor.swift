import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to a file descriptor with `write(2)` in a loop, so that a full disk, a closed stream or
/// a reader that went away is a `WriteFailure`, never a trap. The CLI's console and `OutputFile`
/// write through it.
public enum Descriptor {
    /// A write that failed, with the C library's reason.
    public struct WriteFailure: Error {
        public var code: Int32
        public var reason: String { String(cString: strerror(code)) }
        public var readerGone: Bool { code == EPIPE }

        public init(code: Int32) { self.code = code }
    }

    /// Makes sure descriptors 0, 1 and 2 are open before anything else opens a file: a stream the
    /// caller closed (`>&-`, `2>&-`) becomes /dev/null opened for reading, so that writing to it
    /// fails with EBADF instead of landing in whatever file the run opens next.
    public static func claimStandardStreams() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let null = openNull()
            guard null >= 0, null != descriptor else { continue }
            dup2(null, descriptor)
            close(null)
        }
    }

    private static func openNull() -> Int32 {
        #if canImport(Darwin)
        Darwin.open("/dev/null", O_RDONLY)
        #elseif canImport(Musl)
        Musl.open("/dev/null", O_RDONLY)
        #else
        Glibc.open("/dev/null", O_RDONLY)
        #endif
    }

    /// Writes all of `bytes` to `descriptor`, retrying after a signal (EINTR) and waiting while a
    /// non-blocking descriptor is full (EAGAIN).
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(WriteFailure) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
            #elseif canImport(Musl)
            let written = Musl.write(descriptor, base + offset, bytes.count - offset)
            #else
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            #endif
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EIO : errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, 1000)
                continue
            }
            throw WriteFailure(code: code)
        }
    }

    public static func write(_ text: String, to descriptor: Int32) throws(WriteFailure) {
        var text = text
        let failure = text.withUTF8 { buffer -> WriteFailure? in
            do {
                try write(UnsafeRawBufferPointer(buffer), to: descriptor)
                return nil
            } catch let failure as WriteFailure {
                return failure
            } catch {
                return WriteFailure(code: EIO)
            }
        }
        if let failure { throw failure }
    }
}
