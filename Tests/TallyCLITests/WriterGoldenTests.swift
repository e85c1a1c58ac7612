import Foundation
import Testing

/// The bytes of every writer (`convert --to csv | tally-catalog-json | tally-catalog-yaml |
/// storekit`, `show --format json`) and the notes they print, through the binary, for the
/// shipped examples, one source of each kind, a catalogue that uses every field
/// (`Fixtures/writers/every-field.yaml`) and a generated catalogue. The golden files were
/// recorded with the writers as they were before they streamed (issue 30), so a pass proves the
/// streaming writers write the same bytes. `TALLY_RECORD=1` re-records them.
@Suite struct WriterGoldenTests {
    static let golden = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/writers/golden")
    static let generator = CLIRunner.shared.appendingPathComponent("bench/gen_catalog.py")
    static var recording: Bool { ProcessInfo.processInfo.environment["TALLY_RECORD"] == "1" }

    /// A source and the options it is read with.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var source: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "example-storekit", source: ["configs/ExampleApp.storekit"]),
        Case(name: "example-catalog", source: ["catalog/products.yaml"]),
        Case(name: "server-mapped", source: ["examples/server/products.json", "--mapping", "examples/server/tally-mapping.yml"]),
        Case(name: "plist", source: ["Tests/TallyCLITests/Fixtures/plist/CalmlyProducts.plist"]),
        Case(name: "csv", source: ["Tests/TallyCLITests/Fixtures/csv/calmly-prices.csv"]),
        Case(name: "app-store-package", source: ["Tests/TallyCLITests/Fixtures/app-store-package/metadata.xml",
                                                 "--price-tiers", "Tests/TallyCLITests/Fixtures/app-store-package/price-tiers.csv"]),
        Case(name: "app-store-connect", source: ["Tests/TallyCLITests/Fixtures/app-store-connect/calmly"]),
        Case(name: "google-play", source: ["Tests/TallyCLITests/Fixtures/google-play/play-pages"]),
        Case(name: "every-field", source: ["Tests/TallyCLITests/Fixtures/writers/every-field.yaml"]),
    ]

    /// Each writer: the golden file's suffix and the arguments after the source.
    static let writers: [(suffix: String, arguments: @Sendable (_ source: [String]) -> [String])] = [
        ("csv", { ["convert"] + $0 + ["--to", "csv"] }),
        ("catalog.json", { ["convert"] + $0 + ["--to", "tally-catalog-json"] }),
        ("catalog.yaml", { ["convert"] + $0 + ["--to", "tally-catalog-yaml"] }),
        ("storekit", { ["convert"] + $0 + ["--to", "storekit"] }),
        ("v3.storekit", { ["convert"] + $0 + ["--to", "storekit", "--storekit-version", "3.0"] }),
        ("v5.storekit", { ["convert"] + $0 + ["--to", "storekit", "--storekit-version", "5.0"] }),
        ("show.json", { ["show"] + $0 + ["--format", "json"] }),
    ]

    @Test("every writer writes the recorded bytes and notes", arguments: cases)
    func recorded(_ source: Case) throws {
        try Self.verifyAll(source, in: CLIRunner.repository)
    }

    @Test("a generated catalogue (gen_catalog.py, 60 products × 12 territories) converts to the recorded bytes",
          .enabled(if: FileManager.default.fileExists(atPath: generator.path),
                   Comment(rawValue: "../shared/bench/gen_catalog.py is absent; the generated catalogue is skipped")))
    func generated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-writers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let made = try CLIRunner.launch(python, ["python3", Self.generator.path, directory.path, "--products", "60", "--territories", "12", "--mismatches", "1"],
                                        in: CLIRunner.repository)
        try #require(made.status == 0, "gen_catalog.py: \(made.stderr)")
        // Relative paths, so that the file names the output holds are the same wherever it runs.
        try Self.verifyAll(Case(name: "generated", source: ["catalog.json"]), in: directory)
        try Self.verifyAll(Case(name: "generated-storekit", source: ["App.storekit"]), in: directory)
    }

    @Test("-o FILE holds the same bytes as standard output")
    func outputFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-writers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/writers/every-field.yaml").path
        for target in ["csv", "tally-catalog-json", "tally-catalog-yaml", "storekit"] {
            let out = directory.appendingPathComponent("out.\(target)")
            let written = try CLIRunner.run(["convert", source, "--to", target, "-o", out.path])
            #expect(written.status == 0, "\(written.stderr)")
            let printed = try CLIRunner.run(["convert", source, "--to", target])
            #expect(try Data(contentsOf: out) == Data(printed.stdout.utf8), "\(target)")
        }
        let shown = directory.appendingPathComponent("show.json")
        let written = try CLIRunner.run(["show", source, "--format", "json", "--output", shown.path])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try Data(contentsOf: shown) == Data(try CLIRunner.run(["show", source, "--format", "json"]).stdout.utf8))
    }

    /// Runs every writer on `source` in `directory`; compares standard output with
    /// `NAME.SUFFIX` and the exit status and standard error with `NAME.SUFFIX.err`.
    static func verifyAll(_ source: Case, in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for writer in writers {
            let result = try CLIRunner.run(writer.arguments(source.source), in: directory)
            let name = "\(source.name).\(writer.suffix)"
            try verify(Data(result.stdout.utf8), named: name, sourceLocation: sourceLocation)
            try verify(Data("exit \(result.status)\n\(result.stderr)".utf8), named: name + ".err", sourceLocation: sourceLocation)
        }
    }

    static func verify(_ actual: Data, named name: String, sourceLocation: SourceLocation) throws {
        let url = golden.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try actual.write(to: url)
            return
        }
        guard let expected = try? Data(contentsOf: url) else {
            Issue.record("no golden file \(url.path); run `TALLY_RECORD=1 swift test --filter WriterGoldenTests` to record it",
                         sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let first = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, actual.count)
        let line = expected.prefix(first).filter { $0 == UInt8(ascii: "\n") }.count + 1
        Issue.record("""
            \(name) differs from \(url.path) at byte \(first) (line \(line)); expected \(expected.count) bytes, got \(actual.count)
            if the change is intended, run `TALLY_RECORD=1 swift test --filter WriterGoldenTests` and review the diff
            """, sourceLocation: sourceLocation)
    }
}
