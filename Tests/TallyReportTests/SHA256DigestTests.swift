import Foundation
import Testing
@testable import TallyReport

/// The hand-written SHA-256 of SARIF fingerprints (SHA256Digest) against FIPS 180-4's examples and
/// against `sha256sum` on inputs around every padding boundary.
struct SHA256DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func fipsExamples(input: String, digest: String) {
        #expect(SHA256Digest.hex(input.utf8) == digest)
    }

    @Test func aMillionAs() {
        #expect(SHA256Digest.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length from 0 to 200 bytes (each padding case: 55, 56, 63, 64, 119, 120 …) and bytes
    /// above 0x7f, compared with coreutils' sha256sum.
    @Test func agreesWithSha256sum() throws {
        let tool = URL(fileURLWithPath: "/usr/bin/sha256sum")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "sha256sum is part of coreutils")
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 200] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }
            let process = Process()
            process.executableURL = tool
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(bytes))
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(SHA256Digest.hex(bytes) == String(text.prefix(64)), "length \(length)")
        }
    }
}
