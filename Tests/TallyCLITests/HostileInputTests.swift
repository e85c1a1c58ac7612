import Foundation
import Testing

/// Bad input never crashes Tally: every hostile file gives exit 2 (or, for a value no store
/// allows, exit 1 with a located finding), a message naming the file, no stack trace, within
/// 200 MB (no wall-clock limit: a busy CI machine is no failure; a hang guard of minutes only). The corpus is generated here from the shipped examples, so it stays in step
/// with the readers; inputs the fuzzers found are replayed from Fixtures/hostile/fuzz/.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        /// The file the message must name.
        var file: String
        var status: Int32 = 2
        /// Text the message must contain (a line, a key or the limit), when the format has one.
        var mentions: String?
        var testDescription: String { name }
    }

    static let corpus: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-hostile-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    static func write(_ name: String, _ bytes: [UInt8]) -> String {
        let url = corpus.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url.path
    }

    static func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

    static func example(_ path: String) -> [UInt8] {
        (FileManager.default.contents(atPath: CLIRunner.repository.appendingPathComponent(path).path)).map { [UInt8]($0) } ?? []
    }

    /// Truncations of every JSON and XML source at many cut points: each is an input error.
    static var truncations: [Case] {
        let sources: [(String, String)] = [
            ("configs/ExampleApp.storekit", "storekit"),
            ("Tests/TallyCLITests/Fixtures/app-store-package/metadata.xml", "xml"),
            ("examples/server/products.json", "json"),
        ]
        var cases: [Case] = []
        for (source, ext) in sources {
            let bytes = example(source)
            guard bytes.count > 100 else { continue }
            let cuts = stride(from: 1, to: bytes.count - 2, by: max(1, bytes.count / 12)).map { $0 }
            for cut in cuts {
                let name = "truncated-\(cut)-\((source as NSString).lastPathComponent)"
                let path = write(name, Array(bytes.prefix(cut)))
                let extra = ext == "json" ? ["--mapping", CLIRunner.repository.appendingPathComponent("examples/server/tally-mapping.yml").path] : []
                cases.append(Case(name: "\(source) cut at byte \(cut)", arguments: ["show", path] + extra, file: name, mentions: ext == "xml" ? nil : ":"))
            }
        }
        return cases
    }

    /// Every field the StoreKit and catalogue readers use, given a value of the wrong type.
    static var wrongTypes: [Case] {
        var cases: [Case] = []
        let storeKitFields: [(String, String)] = [
            ("productID", "[]"), ("type", "7"), ("displayPrice", "{}"), ("familyShareable", "\"yes\""), ("referenceName", "[1]"),
            ("localizations", "\"en\""), ("recurringSubscriptionPeriod", "{}"), ("groupNumber", "\"one\""), ("subscriptionGroupID", "{}"),
            ("introductoryOffer", "\"free\""), ("adHocOffers", "{}"), ("codeOffers", "5"), ("introductoryOffers", "true"),
            ("billingPlans", "\"none\""),
        ]
        for (key, value) in storeKitFields {
            let text = """
            {"products": [], "subscriptionGroups": [{"id": "G1", "name": "g", "subscriptions": [{"productID": "a.b", "type": "RecurringSubscription",
             "recurringSubscriptionPeriod": "P1M", "groupNumber": 1, "subscriptionGroupID": "G1", "displayPrice": "1.99", "\(key)": \(value)}]}],
             "settings": {}, "version": {"major": 3, "minor": 0}}
            """.replacingOccurrences(of: "\"\(key)\": \"\(key == "productID" ? "a.b" : "")", with: "\"\(key)\": \"")
            // The key appears once more at the end: the first occurrence is removed so that only the wrong one stays.
            let single = removingFirst(key: key, in: text)
            let name = "wrong-type-\(key).storekit"
            cases.append(Case(name: "StoreKit \(key) = \(value)", arguments: ["show", write(name, single)], file: name, mentions: ":2:"))
        }
        let catalogFields: [(String, String)] = [
            ("id", "[]"), ("period", "{}"), ("prices", "\"4.99\""), ("family_shareable", "\"yes\""), ("level", "\"top\""),
            ("introductory_offer", "[]"), ("promotional_offers", "{}"), ("name", "{a: 1}"), ("localizations", "[]"),
        ]
        for (key, value) in catalogFields {
            var lines = ["format: tally-catalog/1", "subscription_groups:", "  - id: g", "    subscriptions:", "      - id: a.b"]
            for (other, good) in [("period", "P1M"), ("prices", "{USA: \"1.99\"}"), ("level", "1")] where other != key && !(key == "id") {
                lines.append("        \(other): \(good)")
            }
            if key == "id" { lines[4] = "      - id: \(value)" } else { lines.append("        \(key): \(value)") }
            let name = "wrong-type-\(key).yaml"
            cases.append(Case(name: "catalogue \(key) = \(value)", arguments: ["show", write(name, lines.joined(separator: "\n") + "\n")],
                              file: name, mentions: ":"))
        }
        return cases
    }

    static func removingFirst(key: String, in text: String) -> String {
        // Keep the last occurrence of "key": the wrong-typed one appended at the end of the object.
        let marker = "\"\(key)\":"
        guard let first = text.range(of: marker), let last = text.range(of: marker, options: .backwards), first != last else { return text }
        guard let comma = text.range(of: ",", range: first.upperBound..<text.endIndex) else { return text }
        return text.replacingCharacters(in: first.lowerBound..<text.index(after: comma.lowerBound), with: "")
    }

    /// Structural attacks and odd files.
    static var structural: [Case] {
        var cases: [Case] = []
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        cases.append(Case(name: "JSON nested 100,000 levels", arguments: ["show", write("deep.json", "{\"format\": \"tally-catalog/1\", \"products\": \(deep)}")],
                          file: "deep.json", mentions: ":1:"))
        cases.append(Case(name: "JSON nested 100,000 levels in a key Tally skips",
                          arguments: ["show", write("deep-skipped.storekit", "{\"appPolicies\": \(deep), \"products\": [], \"version\": {}}")],
                          file: "deep-skipped.storekit", mentions: "--max-depth"))
        cases.append(Case(name: "StoreKit nested 100,000 levels", arguments: ["show", write("deep.storekit", "{\"products\": [\(deep)]}")],
                          file: "deep.storekit", mentions: ":1:"))
        cases.append(Case(name: "YAML nested 100,000 levels", arguments: ["show", write("deep.yaml", "format: tally-catalog/1\nproducts: " + deep + "\n")],
                          file: "deep.yaml", mentions: nil))
        let plistDeep = "<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"
        cases.append(Case(name: "property list nested 100,000 levels", arguments: ["show", write("deep.plist", plistDeep)], file: "deep.plist"))
        let huge = String(repeating: "x", count: 10_000_000)
        // A type Tally does not know is an unknown-content warning (the product named and left
        // out), not a refusal: exit 0, the type elided in the message.
        cases.append(Case(name: "a 10 MB string where a period belongs",
                          arguments: ["show", write("long-string.storekit", "{\"products\": [{\"productID\": \"a\", \"type\": \"\(huge)\"}], \"version\": {}}")],
                          file: "long-string.storekit", status: 0, mentions: ":1:"))
        cases.append(Case(name: "a 10 MB key", arguments: ["show", write("long-key.yaml", "format: tally-catalog/1\n\(huge): 1\n")],
                          file: "long-key.yaml", mentions: "invalid YAML"))
        cases.append(Case(name: "groupNumber with 40 digits",
                          arguments: ["show", write("huge-level.storekit", "{\"subscriptionGroups\": [{\"id\": \"g\", \"subscriptions\": [{\"productID\": \"a\", \"type\": \"RecurringSubscription\", \"groupNumber\": 1234567890123456789012345678901234567890}]}], \"version\": {}}")],
                          file: "huge-level.storekit", mentions: "whole number"))
        cases.append(Case(name: "a number 1e400", arguments: ["show", write("exp.storekit", "{\"subscriptionGroups\": [{\"id\": \"g\", \"subscriptions\": [{\"productID\": \"a\", \"type\": \"RecurringSubscription\", \"groupNumber\": 1e400}]}], \"version\": {}}")],
                          file: "exp.storekit", mentions: "whole number"))
        cases.append(Case(name: "NaN as a number", arguments: ["show", write("nan.json", "{\"format\": \"tally-catalog/1\", \"products\": [{\"id\": \"a\", \"kind\": \"consumable\", \"prices\": {\"USA\": NaN}}]}")],
                          file: "nan.json", mentions: ":1:"))
        cases.append(Case(name: "invalid UTF-8 in a string", arguments: ["show", write("latin1.storekit", [UInt8]("{\"products\": [{\"productID\": \"caf".utf8) + [0xE9] + [UInt8]("\", \"type\": \"Consumable\"}], \"version\": {}}".utf8))],
                          file: "latin1.storekit", mentions: "UTF-8"))
        cases.append(Case(name: "invalid UTF-8 in YAML", arguments: ["show", write("latin1.yaml", [UInt8]("format: tally-catalog/1\nproducts:\n  - id: caf".utf8) + [0xE9, 0x0A])],
                          file: "latin1.yaml", mentions: "UTF-8"))
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "{\"format\": \"tally-catalog/1\"}".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        cases.append(Case(name: "UTF-16 with a BOM", arguments: ["show", write("utf16.json", utf16)], file: "utf16.json", mentions: "UTF-16"))
        cases.append(Case(name: "UTF-16 YAML", arguments: ["show", write("utf16.yaml", utf16)], file: "utf16.yaml", mentions: "UTF-16"))
        cases.append(Case(name: "duplicate keys in a StoreKit product",
                          arguments: ["show", write("dup.storekit", "{\"products\": [{\"productID\": \"a\", \"type\": \"Consumable\", \"productID\": \"b\"}], \"version\": {}}")],
                          file: "dup.storekit", mentions: "appears twice"))
        cases.append(Case(name: "duplicate keys in a catalogue", arguments: ["show", write("dup.json", "{\"format\": \"tally-catalog/1\", \"format\": \"tally-catalog/1\"}")],
                          file: "dup.json", mentions: "appears twice"))
        cases.append(Case(name: "an empty file", arguments: ["show", write("empty.storekit", "")], file: "empty.storekit", mentions: "empty"))
        var binary = [UInt8](repeating: 0, count: 4096)
        for index in binary.indices { binary[index] = UInt8(truncatingIfNeeded: index &* 2654435761 >> 7) }
        cases.append(Case(name: "a binary file named .storekit", arguments: ["show", write("binary.storekit", binary)], file: "binary.storekit"))
        let entities = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
        <plist version="1.0"><dict><key>products</key><array><dict><key>productID</key><string>&c;&xxe;</string></dict></array></dict></plist>
        """
        cases.append(Case(name: "a StoreKit property list with external entities and expansion", arguments: ["show", write("entities.storekit", entities)], file: "entities.storekit"))
        cases.append(Case(name: "a product property list with entities", arguments: ["show", write("entities.plist", entities)], file: "entities.plist"))
        return cases
    }

    /// A value no store allows is a finding (exit 1) at its line, not an input error.
    static var values: [Case] {
        let forty = "1234567890123456789012345678901234567890"
        return [
            Case(name: "a price with 40 digits", arguments: ["lint", "--no-config", write("forty.yaml", "format: tally-catalog/1\nproducts:\n  - {id: a, kind: consumable, prices: {USA: \"\(forty)\"}}\n")],
                 file: "forty.yaml", status: 1, mentions: "forty.yaml:3:"),
            Case(name: "a negative price", arguments: ["lint", "--no-config", write("negative.storekit", "{\"products\": [{\"productID\": \"a\", \"type\": \"Consumable\", \"displayPrice\": \"-0.99\"}], \"version\": {}}")],
                 file: "negative.storekit", status: 1, mentions: "negative.storekit:1:"),
            Case(name: "a NaN-like price string", arguments: ["lint", "--no-config", write("nan.yaml", "format: tally-catalog/1\nproducts:\n  - {id: a, kind: consumable, prices: {USA: .nan}}\n")],
                 file: "nan.yaml", status: 1, mentions: "nan.yaml:3:"),
            Case(name: "a 10 MB product ID", arguments: ["lint", "--no-config", write("long-id.yaml", "format: tally-catalog/1\nproducts:\n  - {id: \(String(repeating: "a", count: 10_000_000)), kind: consumable}\n")],
                 file: "long-id.yaml", status: 1, mentions: "long-id.yaml:3:"),
        ]
    }

    /// Files that are not files.
    static var special: [Case] {
        var cases: [Case] = []
        let directory = corpus.appendingPathComponent("folder.storekit")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cases.append(Case(name: "a directory", arguments: ["show", directory.path], file: "folder.storekit"))
        let loopA = corpus.appendingPathComponent("loop-a.storekit").path
        let loopB = corpus.appendingPathComponent("loop-b.storekit").path
        try? FileManager.default.createSymbolicLink(atPath: loopA, withDestinationPath: loopB)
        try? FileManager.default.createSymbolicLink(atPath: loopB, withDestinationPath: loopA)
        cases.append(Case(name: "a symlink loop", arguments: ["show", loopA], file: "loop-a.storekit"))
        let fifo = corpus.appendingPathComponent("pipe.storekit").path
        _ = mkfifo(fifo, 0o644)
        cases.append(Case(name: "a named pipe (never opened)", arguments: ["show", fifo], file: "pipe.storekit", mentions: "not a regular file"))
        let sparse = corpus.appendingPathComponent("sparse.storekit").path
        if FileManager.default.createFile(atPath: sparse, contents: nil), let handle = FileHandle(forWritingAtPath: sparse) {
            try? handle.truncate(atOffset: 2 << 30)
            try? handle.close()
        }
        cases.append(Case(name: "a 2 GB sparse file", arguments: ["show", sparse], file: "sparse.storekit", mentions: "--max-input-mb"))
        cases.append(Case(name: "a missing file", arguments: ["show", corpus.appendingPathComponent("missing.storekit").path], file: "missing.storekit", mentions: "no such file"))
        return cases
    }

    /// Inputs the fuzzers found: `<reader>-<what>` files, replayed through the fuzz target's
    /// replay mode (`TallyFuzz READER FILE`), which traps on anything but a clear `FormatError`.
    static var fuzzFindings: [String] {
        let folder = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/hostile/fuzz")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0 != "README.md" }.sorted().map { folder.appendingPathComponent($0).path }
    }

    static var allCases: [Case] { truncations + wrongTypes + structural + values + special }

    @Test(arguments: allCases)
    func hostileInputIsAClearErrorNeverACrash(_ input: Case) throws {
        let run = try MeasuredRun.run(input.arguments)
        let output = run.stdout + run.stderr
        if input.status >= 0 {
            #expect(run.status == input.status, "exit \(run.status): \(output.prefix(400))")
        } else {
            #expect(run.status == 1 || run.status == 2 || run.status == 0, "exit \(run.status): \(output.prefix(400))")
        }
        #expect(run.status < 128, "killed by a signal")
        #expect(output.contains(input.file), "the message names the file: \(output.prefix(400))")
        if let mention = input.mentions {
            #expect(output.contains(mention), "the message says \(mention): \(output.prefix(400))")
        }
        for trace in ["Fatal error", "Stack dump", "Backtrace", "Current stack trace", "SIGSEGV", "SIGABRT"] {
            #expect(!output.contains(trace), "a stack trace: \(output.prefix(400))")
        }
        #expect(run.maxResidentKB < 200 * 1024, "used \(run.maxResidentKB / 1024) MB")
    }

    @Test(arguments: fuzzFindings)
    func fuzzFindingsReplayWithoutCrashing(_ path: String) throws {
        let name = (path as NSString).lastPathComponent
        let readers = try FuzzTargets.list().map(\.name)
        let reader = try #require(readers.sorted { $0.count > $1.count }.first { name.hasPrefix($0 + "-") }, "\(name): name it <reader>-<what>")
        let replay = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("TallyFuzz")
        let process = Process()
        process.executableURL = replay
        process.arguments = [reader, path]
        process.currentDirectoryURL = CLIRunner.repository
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(name) crashed the \(reader) reader")
    }

    /// Root reads every file whatever its mode, so as root the binary runs as `nobody` (setpriv).
    static let canDropPrivileges = geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    @Test(.enabled(if: canDropPrivileges, "running as root without /usr/bin/setpriv: no way to make a file unreadable"))
    func anUnreadableFileIsAnInputError() throws {
        let path = Self.write("unreadable.storekit", "{}")
        chmod(path, 0)
        let process = Process()
        if geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.executable.path, "show", path]
        } else {
            process.executableURL = CLIRunner.executable
            process.arguments = ["show", path]
        }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(message)")
        #expect(message.contains("unreadable.storekit"))
        #expect(message.contains("cannot open the file for reading"))
    }
}
