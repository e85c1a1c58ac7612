import Foundation
import TallyFormats

/// Arguments as the bytes the shell passed. Swift turns an argument that is not UTF-8 (a file
/// name such as `caf\xE9.storekit`, Latin-1 on a Linux file system) into a String with U+FFFD
/// in place of the bad bytes, and that name opens nothing. Tally reads `argv` itself: such an
/// argument becomes its escaped form (`caf\xE9.storekit`, every byte that is not UTF-8 as
/// `\xHH`), which is what Tally prints, and the file is opened with the original bytes.
enum RawArguments {
    /// The arguments after the program name, escaped where not UTF-8, and the original bytes
    /// of each escaped one.
    static let captured: (arguments: [String], bytes: [String: [UInt8]]) = capture()

    /// The arguments for the parser.
    static var arguments: [String] { captured.arguments }

    /// The original bytes behind an escaped argument; nil for an argument that was UTF-8.
    static func bytes(for argument: String) -> [UInt8]? { captured.bytes[argument] }

    private static func capture() -> (arguments: [String], bytes: [String: [UInt8]]) {
        var arguments: [String] = []
        var raw: [String: [UInt8]] = [:]
        let argv = CommandLine.unsafeArgv
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = argv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if let text = String(validating: bytes, as: UTF8.self) {
                arguments.append(text)
            } else {
                let text = escaped(bytes)
                arguments.append(text)
                raw[text] = bytes
            }
        }
        return (arguments, raw)
    }

    /// UTF-8 sequences as they are, every other byte as `\xHH`.
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 0
            if length > 0, index + length <= bytes.count, let text = String(validating: bytes[index..<index + length], as: UTF8.self) {
                out += text
                index += length
            } else {
                out += "\\x" + String(lead, radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return out
    }

    /// Reads the file an escaped argument names, opening it with its original bytes: a regular
    /// file, at most `maxBytes`. Errors as for any source, naming the escaped form.
    static func readFile(_ argument: String, bytes: [UInt8], maxBytes: Int) throws -> [UInt8] {
        let descriptor = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_RDONLY) }
        }
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : "cannot open the file: \(String(cString: strerror(errno)))"
            throw FormatError(reason, file: argument, position: .unknown)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FormatError("cannot read the file: \(String(cString: strerror(errno)))", file: argument, position: .unknown)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let what = status.st_mode & S_IFMT == S_IFDIR
                ? "this folder's name is not UTF-8, and Tally reads such names only for files: rename the folder"
                : "not a regular file"
            throw FormatError(what, file: argument, position: .unknown)
        }
        guard Int(status.st_size) <= maxBytes else {
            throw FormatError("the file is over the \(maxBytes / 1_048_576) MB input limit", file: argument, position: .unknown)
        }
        var data = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { break }
                throw FormatError("cannot read the file: \(String(cString: strerror(errno)))", file: argument, position: .unknown)
            }
            filled += count
        }
        return Array(data.prefix(filled))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
