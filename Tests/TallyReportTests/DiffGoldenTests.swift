import Foundation
import TallyDiff
import TallyReport
import Testing

@Suite("Golden diff reports")
struct DiffGoldenTests {
    static let directory = Golden.directory.appendingPathComponent("diff")

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var format: DiffFormat
        var color = false
        var verbose = false
        var result: DiffResult
        var testDescription: String { file }
    }

    static let cases = [
        Case(file: "mixed.txt", format: .text, result: DiffSample.mixed),
        Case(file: "mixed.color.txt", format: .text, color: true, result: DiffSample.mixed),
        Case(file: "mixed.verbose.txt", format: .text, verbose: true, result: DiffSample.mixed),
        Case(file: "mixed.json", format: .json, result: DiffSample.mixed),
        Case(file: "mixed.md", format: .markdown, result: DiffSample.mixed),
        Case(file: "none.txt", format: .text, result: DiffSample.none),
        Case(file: "none.json", format: .json, result: DiffSample.none),
        Case(file: "none.md", format: .markdown, result: DiffSample.none),
        Case(file: "since.txt", format: .text, result: DiffSample.since),
        Case(file: "since.md", format: .markdown, result: DiffSample.since),
        Case(file: "mixed.html", format: .html, result: DiffSample.mixed),
        Case(file: "none.html", format: .html, result: DiffSample.none),
        Case(file: "since.html", format: .html, result: DiffSample.since),
        Case(file: "mixed.release-notes.md", format: .releaseNotes, result: DiffSample.mixed),
        Case(file: "none.release-notes.md", format: .releaseNotes, result: DiffSample.none),
        Case(file: "since.release-notes.md", format: .releaseNotes, result: DiffSample.since),
    ]

    @Test("Output matches the committed golden file", arguments: cases)
    func matchesGolden(_ testCase: Case) throws {
        let output = testCase.format.reporter(color: testCase.color, verbose: testCase.verbose).report(testCase.result)
        try Golden.verify(output, named: testCase.file, in: Self.directory)
    }

    @Test("Release notes of the README's example change match the golden file reviewed by eye")
    func readmeReleaseNotes() throws {
        let output = DiffFormat.releaseNotes.reporter(color: false, verbose: false).report(try DiffSample.readmeExample())
        try Golden.verify(output, named: "readme.release-notes.md", in: Self.directory)
    }

    @Test("Release notes write a change that two diffs share once (a configuration and a catalogue)")
    func releaseNotesOnce() throws {
        let diff = try #require(DiffSample.mixed.diffs.first)
        let once = DiffReleaseNotesReporter().report(DiffResult(diffs: [diff]))
        let twice = DiffReleaseNotesReporter().report(DiffResult(diffs: [diff, diff]))
        for line in ["- `com.example.tip`: removed product", "- `com.example.pro.monthly`: USA 4.99 USD → 5.99 USD (+1.00 USD, +20%)"] {
            #expect(once.components(separatedBy: line).count == 2, "\(line)")
            #expect(twice.components(separatedBy: line).count == 2, "once, not twice: \(line)")
        }
    }

    @Test("Every format has a golden file")
    func everyFormatCovered() {
        #expect(Set(Self.cases.map(\.format)) == Set(DiffFormat.allCases))
    }

    /// Real files, checked by hand: see RealWorldDiffTests in TallyDiffTests for the same facts as assertions.
    static let realWorld: [(file: String, old: String, new: String, format: DiffFormat)] = [
        ("revenuecat-v2.0-v3.0.txt", "revenuecat-v2.0-PurchaseTester.storekit", "revenuecat-v3.0-PurchaseTesterSwiftUI.storekit", .text),
        ("chemsims-us-colombia.txt", "chemsims-USConfig.storekit", "chemsims-ColombiaConfig.storekit", .text),
        ("chemsims-us-mexico.md", "chemsims-USConfig.storekit", "chemsims-MexicoConfig.storekit", .markdown),
        ("chemsims-us-mexico.json", "chemsims-USConfig.storekit", "chemsims-MexicoConfig.storekit", .json),
    ]

    @Test("Real StoreKit diffs match their committed golden files", .enabled(if: DiffFixtures.sharedAvailable, Comment(rawValue: DiffFixtures.sharedMissing)),
          arguments: realWorld.indices)
    func realWorldGolden(_ index: Int) throws {
        let item = Self.realWorld[index]
        let diff = CatalogDiffer().diff(old: try DiffSample.storeKit(item.old), new: try DiffSample.storeKit(item.new))
        let output = item.format.reporter(color: false, verbose: false).report(DiffResult(diffs: [diff]))
        try Golden.verify(output, named: item.file, in: Self.directory)
    }

    @Test("The JSON report is valid JSON with every change and the documented keys")
    func jsonShape() throws {
        let output = DiffJSONReporter().report(DiffSample.mixed)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        let diffs = try #require(document["diffs"] as? [[String: Any]])
        let changes = try #require(diffs.first?["changes"] as? [[String: Any]])
        #expect(changes.count == DiffSample.mixed.summary.changes)
        let keys: Set<String> = ["action", "aspect", "attention", "key", "new", "note", "old", "path", "price", "product", "summary", "territory"]
        #expect(changes.allSatisfy { Set($0.keys) == keys })
        let price = try #require(changes.first { $0["path"] as? String == "com.example.pro.monthly › prices › USA" }?["price"] as? [String: Any])
        #expect(price["old"] as? String == "4.99" && price["new"] as? String == "5.99" && price["direction"] as? String == "up")
        #expect(price["percent"] as? String == "20" && price["difference"] as? String == "1")
    }

    @Test("Streaming the JSON report gives exactly the report")
    func streamingMatches() {
        var streamed = ""
        DiffJSONReporter().write(DiffSample.mixed, to: &streamed)
        #expect(streamed == DiffJSONReporter().report(DiffSample.mixed))
    }

    @Test("Text from the sources cannot break a Markdown table or inject HTML")
    func markdownEscapes() {
        let output = DiffMarkdownReporter().report(DiffSample.mixed)
        #expect(output.contains("Lifetime \\| All access"))
        #expect(!output.contains("Lifetime | All access"))
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("| ") }.allSatisfy { line in
            line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 6
        })
    }
}
