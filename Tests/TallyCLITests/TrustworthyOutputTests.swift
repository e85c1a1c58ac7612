import Foundation
import Testing

/// Issue 11, "a gate CI maintainers can trust": what the console, JUnit and SARIF say, file names
/// that are not UTF-8, words, and the plugin's commands, through the built binary.
@Suite(.timeLimit(.minutes(10)))
struct TrustworthyOutputTests {
    /// The examples without the repository's .tally.yml (family-sharing is then a warning).
    static func copy() throws -> URL { try CLIRunner.exampleCopy() }

    static let lifetimeShared = "    name: Lifetime Unlock\n    family_shareable: true"
    static let lifetimeNotShared = "    name: Lifetime Unlock\n    family_shareable: false"

    // MARK: 7. a console summary always

    @Test func everyReportInFilesStillLeavesTheSummaryOnTheConsole() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check", "--report", "junit:build/tally.xml", "--report", "sarif:build/tally.sarif"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "✔ consistent: 15 products checked in 2 sources, 0 errors, 0 warnings\nreports: junit build/tally.xml, sarif build/tally.sarif\n")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("build/tally.xml").path))

        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        let failing = try CLIRunner.run(["check", "--format", "markdown", "--output", "build/tally.md"], in: directory)
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("✘ 1 error, 0 warnings in 2 sources"), "\(failing.stdout)")
        #expect(failing.stdout.hasSuffix("reports: markdown build/tally.md\n"))

        let quiet = try CLIRunner.run(["check", "--report", "junit:build/tally.xml", "--quiet"], in: directory)
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        // A report on standard output is the console: no summary is added to it.
        let json = try CLIRunner.run(["check", "--report", "json", "--report", "junit:build/tally.xml"], in: directory)
        #expect(try jsonReport(json)["summary"] != nil)
    }

    // MARK: 8. JUnit: warnings pass unless --strict

    @Test func warningsArePassingJUnitCasesUnlessStrict() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"), replacing: Self.lifetimeShared, with: Self.lifetimeNotShared)

        let passing = try CLIRunner.run(["check", "--format", "junit"], in: directory)
        #expect(passing.status == 0, "\(passing.stderr)")
        #expect(passing.stdout.contains(#"<testsuites name="tally" tests=""#))
        #expect(passing.stdout.contains(#"failures="0" errors="0">"#))
        #expect(!passing.stdout.contains("<failure"), "\(passing.stdout)")
        #expect(passing.stdout.contains(#"<testcase classname="family-sharing" name="com.calmly.app.lifetime""#))
        #expect(passing.stdout.contains("<system-out>warning: com.calmly.app.lifetime"), "\(passing.stdout)")

        let strict = try CLIRunner.run(["check", "--format", "junit", "--strict"], in: directory)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(#"<testsuite name="family-sharing" tests="#))
        #expect(strict.stdout.contains(#"<failure message="com.calmly.app.lifetime"#), "\(strict.stdout)")
        // The same cases either way: a case is one rule on one product in one file.
        let count = { (xml: String) in xml.components(separatedBy: "<testcase ").count }
        #expect(count(passing.stdout) == count(strict.stdout))

        // The text summary and the Markdown headline say the run passed.
        let text = try CLIRunner.run(["check"], in: directory)
        #expect(text.status == 0)
        #expect(text.stdout.hasSuffix("✔ passed: 0 errors, 1 warning in 2 sources (15 products checked)\n"), "\(text.stdout)")
        let markdown = try CLIRunner.run(["check", "--format", "markdown"], in: directory)
        #expect(markdown.stdout.hasPrefix("### Tally: ✅ passed: 0 errors, 1 warning"), "\(markdown.stdout)")
        let strictText = try CLIRunner.run(["check", "--strict"], in: directory)
        #expect(strictText.stdout.hasSuffix("✘ 0 errors, 1 warning in 2 sources (15 products checked)\n"))
    }

    // MARK: 9. SARIF paths relative to the repository root

    @Test(.enabled(if: GitRepository.gitAvailable)) func sarifPathsAreRelativeToTheRepositoryRoot() throws {
        // A monorepo: the app's sources in app/, Tally run from app/.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-mono-\(UUID().uuidString)")
        let app = root.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["configs", "catalog"] {
            try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent(folder), to: app.appendingPathComponent(folder))
        }
        try CLIRunner.edit(app.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        #expect(try GitRepository.run(["init", "-q"], in: root) == 0)

        let output = try CLIRunner.run(["check", "--format", "sarif"], in: app)
        #expect(output.status == 1, "\(output.stderr)")
        let run = try #require(try Self.sarifRun(output.stdout))
        let realRoot = root.resolvingSymlinksInPath().path
        let base = try #require((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])
        #expect(base["uri"] as? String == "file://\(realRoot)/")
        let locations = try Self.artifactLocations(run)
        #expect(!locations.isEmpty)
        for location in locations {
            #expect(location["uriBaseId"] as? String == "%SRCROOT%")
            #expect((location["uri"] as? String)?.hasPrefix("app/") == true, "\(location)")
        }
        #expect(locations.contains { $0["uri"] as? String == "app/catalog/products.yaml" })

        // GitHub annotations are placed by the same path.
        let github = try CLIRunner.run(["check", "--format", "github"], in: app)
        #expect(github.stdout.contains("::error file=app/configs/ExampleApp.storekit,line=37,col=24,"), "\(github.stdout)")

        // Outside git: relative to the working directory (no policy file here).
        try FileManager.default.removeItem(at: root.appendingPathComponent(".git"))
        let plain = try CLIRunner.run(["check", "--format", "sarif"], in: app)
        let plainRun = try #require(try Self.sarifRun(plain.stdout))
        let plainBase = (plainRun["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
        #expect(plainBase?["uri"] as? String == "file://\(app.resolvingSymlinksInPath().path)/")
        #expect(try Self.artifactLocations(plainRun).contains { $0["uri"] as? String == "catalog/products.yaml" })
    }

    static func sarifRun(_ text: String) throws -> [String: Any]? {
        let log = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (log?["runs"] as? [[String: Any]])?.first
    }

    static func artifactLocations(_ run: [String: Any]) throws -> [[String: Any]] {
        let results = run["results"] as? [[String: Any]] ?? []
        return results.flatMap { result in
            ((result["locations"] as? [[String: Any]] ?? []) + (result["relatedLocations"] as? [[String: Any]] ?? [])).compactMap {
                ($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
            }
        }
    }

    // MARK: 11. file names that are not UTF-8

    @Test func fileNamesThatAreNotUTF8AreReadAndPrintedEscaped() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        // "caf\xE9.storekit" in Latin-1: made through the C API, since a Swift String cannot hold it.
        let name: [UInt8] = Array("configs/caf".utf8) + [0xE9] + Array(".storekit".utf8)
        let contents = try Data(contentsOf: directory.appendingPathComponent("configs/ExampleApp.storekit"))
        let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(descriptor >= 0)
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        close(descriptor)
        try #require(written == contents.count)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("configs/ExampleApp.storekit"))

        // The byte passes through the shell's printf: Process takes only String arguments.
        let output = try Self.runRaw(#"check "$(printf 'configs/caf\351.storekit')" catalog/products.yaml"#, in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(#"compared: configs/caf\xE9.storekit (storefront USA) vs catalog/products.yaml"#), "\(output.stdout)")
        let diff = try Self.runRaw(#"diff "$(printf 'configs/caf\351.storekit')" catalog/products.yaml"#, in: directory)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains(#"old: configs/caf\xE9.storekit (storekit"#), "\(diff.stdout)")
        let missing = try Self.runRaw(#"show "$(printf 'configs/nop\351.storekit')""#, in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix(#"configs/nop\xE9.storekit: error: no such file"#), "\(missing.stderr)")
    }

    /// Runs `tally ARGUMENTS` through /bin/sh, so arguments can hold any bytes.
    static func runRaw(_ arguments: String, in directory: URL) throws -> CLIRunner.Output {
        try CLIRunner.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" "# + arguments, CLIRunner.executable.path], in: directory)
    }

    // MARK: 12. words

    @Test func countsAreSingularWhenOne() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = """
        format: tally-catalog/1
        products: []
        subscription_groups:
          - id: plus
            subscriptions:
              - {id: com.example.plus.monthly, level: 1, period: P1M, prices: {USA: "4.99"}}
        """
        try catalog.write(to: directory.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        let show = try CLIRunner.run(["show", "one.yaml"], in: directory)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("one.yaml: 1 product (1 auto-renewable-subscription), 1 subscription group, format"), "\(show.stdout)")
    }

    @Test func writingABaselineSaysSoAndNotThatTheRunFailed() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        let output = try CLIRunner.run(["check", "--write-baseline", "baseline.json"], in: directory)
        #expect(output.status == 0)
        #expect(!output.stdout.contains("✘"), "\(output.stdout)")
        #expect(output.stdout.hasSuffix("✔ baseline written: 1 error, 0 warnings recorded in baseline.json (15 products checked in 2 sources)\n"), "\(output.stdout)")
    }

    @Test func aPeriodIsNamedAlikeInTheMessageAndTheDetail() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"),
                           replacing: "introductory_offer: {type: free-trial, period: P1M, count: 1}",
                           with: "introductory_offer: {type: free-trial, period: P4W, count: 1}")
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.contains("period 1 month in the configuration vs 4 weeks (28 days) in the catalogue"), "\(output.stdout)")
        #expect(output.stdout.contains("  free trial of 4 weeks\n"))
    }

    @Test func errorsSayWhatTheFileIsAndWhatWasNotDone() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let baseline = try CLIRunner.run(["check", "--baseline", "nope.json"], in: directory)
        #expect(baseline.status == 2)
        #expect(baseline.stderr.contains("nope.json: error: the baseline: no such file"), "\(baseline.stderr)")

        let show = try CLIRunner.run(["show", "nope.yaml"], in: directory)
        #expect(show.status == 2)
        #expect(show.stderr.contains("nothing was shown"), "\(show.stderr)")
        #expect(!show.stderr.contains("checked"))

        try #"{"products": []}"#.write(to: directory.appendingPathComponent("server.json"), atomically: true, encoding: .utf8)
        let json = try CLIRunner.run(["show", "server.json", "--input-format", "tally-catalog-json"], in: directory)
        #expect(json.status == 2)
        #expect(json.stderr.contains(#"missing "format": "tally-catalog/1" at the top"#), "\(json.stderr)")
    }

    @Test func anEmptyNoColorDoesNotTurnColourOff() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Colour needs a terminal: script(1) gives the command one.
        let coloured = try Self.onTerminal(["check"], in: directory, noColor: "")
        #expect(coloured.contains("\u{1B}[32m✔\u{1B}[0m consistent"), "\(coloured)")
        let plain = try Self.onTerminal(["check"], in: directory, noColor: "1")
        #expect(plain.contains("✔ consistent"), "\(plain)")
        #expect(!plain.contains("\u{1B}["))
    }

    static func onTerminal(_ arguments: [String], in directory: URL, noColor: String) throws -> String {
        let command = ([CLIRunner.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["script", "-qec", command, "/dev/null"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = noColor
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: stdout, as: UTF8.self)
    }

    @Test func gitRevisionErrorsAreInTallysWords() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["diff", "catalog/products.yaml@HEAD", "catalog/products.yaml"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read 'HEAD': catalog is not in a git repository"), "\(output.stderr)")
        #expect(!output.stderr.contains("fatal:"))
    }

    @Test(arguments: [
        ("rules:\n  levle: error\n", #"unknown rule "levle"; did you mean "level"?"#),
        ("rules:\n  price: eror\n", #""eror" is not a severity for price; did you mean "error"?"#),
        ("fail_on: warnign\n", #"fail_on is error or warning, not "warnign"; did you mean "warning"?"#),
        ("required_territories: [USA, UK]\n", "\"UK\" is not an App Store storefront code (ISO 3166-1 alpha-3 in capitals, like USA or JPN); did you mean GBR?"),
        ("required_territories: [jpn]\n", "did you mean JPN?"),
    ])
    func policyValuesGetADidYouMean(_ body: String, _ expected: String) throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try ("version: 1\n" + body).write(to: directory.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains(expected), "\(output.stderr)")
    }

    // MARK: 13. every command through the plugin; lint like check

    @Test func thePluginPassesEveryCommandThrough() throws {
        let help = try CLIRunner.run(["--help"])
        let section = try #require(help.stdout.components(separatedBy: "SUBCOMMANDS:").last)
        let commands = Set(section.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            // "  check    Compare ...": two spaces, then the name; wrapped abstracts are indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first, first.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            return String(first)
        }).subtracting(["See"])  // "  See 'tally help <subcommand>' for ..."
        #expect(commands.isSuperset(of: ["check", "diff", "convert", "fetch", "lint"]), "\(commands)")
        let plugin = try String(contentsOf: CLIRunner.repository.appendingPathComponent("Plugins/TallyPlugin/TallyPlugin.swift"), encoding: .utf8)
        let line = try #require(plugin.split(separator: "\n").first { $0.contains("static let commands: Set<String> = [") })
        let listed = Set(line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
        #expect(listed == commands.union(["help"]), "plugin: \(listed.sorted()), tally: \(commands.sorted())")
    }

    @Test func lintWithNoFilesReadsWhatCheckReadsAndWritesReports() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["lint", "--report", "junit:build/lint.xml", "--report", "text"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("in 2 sources"), "\(output.stdout)")
        let xml = try String(contentsOf: directory.appendingPathComponent("build/lint.xml"), encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="duplicate-id""#), "\(xml)")
        #expect(xml.contains(#"file="configs/ExampleApp.storekit""#))
        #expect(xml.contains(#"file="catalog/products.yaml""#))
    }
}
