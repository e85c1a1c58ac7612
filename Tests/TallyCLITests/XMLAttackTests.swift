import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile metadata.xml files: an external entity reading /etc/passwd or a URL (XXE), a
/// parameter entity fetching a remote DTD, and a billion-laughs bomb. Each is refused with exit 2
/// in under a second and 50 MB, and nothing connects to the listener the URLs point at.
@Suite(.timeLimit(.minutes(5))) struct XMLAttackTests {
    static let body = """
    <package xmlns="http://apple.com/itunes/importer" version="software5.9">
      <software><software_metadata><in_app_purchases>
        <in_app_purchase><product_id>&xxe;</product_id><type>consumable</type></in_app_purchase>
      </in_app_purchases></software_metadata></software>
    </package>
    """

    /// Ten levels of ten: "&xxe;" would expand to 10^9 "lol"s (3 GB).
    static let billionLaughs = """
    <!DOCTYPE package [
      <!ENTITY lol "lol">
      <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
      <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
      <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
      <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
      <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
      <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
      <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
      <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
      <!ENTITY xxe "&lol9;">
    ]>
    """

    struct Attack: Sendable, CustomTestStringConvertible {
        var name: String
        /// The DOCTYPE; `PORT` stands for the listener's port.
        var doctype: String
        /// The line of the first entity declaration, which the error names.
        var line = 2
        var testDescription: String { name }
    }

    static let attacks: [Attack] = [
        Attack(name: "XXE reading /etc/passwd", doctype: "<!DOCTYPE package [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"),
        Attack(name: "XXE fetching a URL", doctype: "<!DOCTYPE package [<!ENTITY xxe SYSTEM \"http://127.0.0.1:PORT/secret\">]>"),
        Attack(name: "a parameter entity fetching a remote DTD",
               doctype: "<!DOCTYPE package [<!ENTITY % remote SYSTEM \"http://127.0.0.1:PORT/evil.dtd\"> %remote; <!ENTITY xxe \"x\">]>"),
        Attack(name: "billion laughs", doctype: billionLaughs, line: 3),
    ]

    static func write(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-attack-\(UUID().uuidString).xml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test(arguments: attacks)
    func refusedFastInLittleMemoryWithoutNetwork(_ attack: Attack) throws {
        let listener = try LoopbackListener()
        let doctype = attack.doctype.replacingOccurrences(of: "PORT", with: String(listener.port))
        let file = try Self.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(doctype)\n\(Self.body)\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try MeasuredRun.run(["check", CLIRunner.repository.appendingPathComponent("configs/ExampleApp.storekit").path, file.path])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("declares the XML entity"), "\(run.stderr)")
        #expect(run.stderr.contains("\(file.path):\(attack.line):"), "\(run.stderr)")
        #expect(run.maxResidentKB < 50 * 1024, "peak memory \(run.maxResidentKB) KB")
        #expect(run.maxResidentKB > 1024, "the measurement itself works")
        #expect(!(run.stdout + run.stderr).contains("root:"), "the contents of /etc/passwd leaked")
        #expect(!listener.connectionAttempted, "the parser connected to the network")
    }

    @Test func anExternalDTDIsNeverFetched() throws {
        let listener = try LoopbackListener()
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE package SYSTEM \"http://127.0.0.1:\(listener.port)/package.dtd\">\n"
            + Self.body.replacingOccurrences(of: "&xxe;", with: "com.calmly.app.tip.tea")
        let file = try Self.write(text)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try MeasuredRun.run(["show", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("com.calmly.app.tip.tea"))
        #expect(!listener.connectionAttempted, "the parser fetched the DTD")
    }

    @Test func theListenerWouldNoticeAConnection() throws {
        // The network checks above can fail: a connection to the listener is seen.
        let listener = try LoopbackListener()
        #expect(!listener.connectionAttempted)
        let client = try LoopbackListener.connect(to: listener.port)
        defer { close(client) }
        #expect(listener.connectionAttempted)
    }
}
