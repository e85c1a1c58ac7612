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
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
