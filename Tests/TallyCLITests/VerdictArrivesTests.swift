import Foundation
import Testing

/// The verdict arrives, or the run says it did not (issue 25): a standard output or error that
/// fails, report paths that are pipes and links, link loops under `**`, and values too long to
/// echo. Every case runs the built binary through bash under `timeout`, so a hang fails the test
/// instead of the suite. No test writes to a device as a report path: a named pipe and a link
/// stand in for one.
@Suite(.timeLimit(.minutes(10)))
struct VerdictArrivesTests {
    static let sources = "configs/ExampleApp.storekit catalog/products.yaml"

    /// Runs `script` in bash with `$T` the tally binary, in `directory`.
    static func bash(_ script: String, in directory: URL) throws -> CLIRunner.Output {
        try CLIRunner.launch(URL(fileURLWithPath: "/bin/bash"), ["-c", "T=\"$0\"; " + script, CLIRunner.executable.path], in: directory)
    }

    static func workspace() throws -> URL { try CLIRunner.exampleCopy() }

    // MARK: standard output and error that fail

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullStandardOutputExits2WithAMessage() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("timeout 60 \"$T\" check \(Self.sources) > /dev/full", in: directory)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("tally: error: cannot write to standard output: "), "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error"), "\(run.stderr)")
    }

    @Test func aClosedStandardOutputExits2WithAMessage() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in ["check \(Self.sources)", "show catalog/products.yaml", "rules", "--help"] {
            let run = try Self.bash("timeout 60 \"$T\" \(command) >&-", in: directory)
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("tally: error: cannot write to standard output: "), "\(command): \(run.stderr)")
        }
    }

    @Test func aClosedStandardOutputKeepsTheVerdictOfReportsInFiles() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("timeout 60 \"$T\" check \(Self.sources) --report json:build/tally.json >&-", in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the console summary did not arrive"), "\(run.stderr)")
        let report = try Data(contentsOf: directory.appendingPathComponent("build/tally.json"))
        #expect(try JSONSerialization.jsonObject(with: report) is [String: Any])
    }

    @Test func aClosedStandardErrorSaysWhyOnStandardOutput() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = try Self.bash("timeout 60 \"$T\" check nope.storekit catalog/products.yaml 2>&-", in: directory)
        #expect(failing.status == 2)
        #expect(failing.stdout.contains("nope.storekit: error: no such file"), "\(failing.stdout)")
        #expect(failing.stdout.contains("standard error cannot be written"), "\(failing.stdout)")

        let baseline = try Self.bash("timeout 60 \"$T\" check \(Self.sources) --write-baseline base.json 2>&-", in: directory)
        #expect(baseline.status == 0, "\(baseline.stdout)")
        #expect(baseline.stdout.contains("of messages did not arrive"), "\(baseline.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("base.json").path))
    }

    @Test func aReaderThatStopsEarlyIsNotAnError() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("timeout 60 \"$T\" check \(Self.sources) --format json | head -1", in: directory)
        #expect(run.stdout == "{\n")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    // MARK: report paths

    @Test func aNamedPipeIsWrittenThroughToItsReader() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("""
            mkfifo pipe
            timeout 60 cat pipe > got.json &
            timeout 60 "$T" check \(Self.sources) --report json:pipe --quiet; echo "tally=$?"
            wait
            test -p pipe && echo "still a fifo"
            """, in: directory)
        #expect(run.stdout.contains("tally=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("still a fifo"), "\(run.stdout)")
        let report = try Data(contentsOf: directory.appendingPathComponent("got.json"))
        #expect(try JSONSerialization.jsonObject(with: report) is [String: Any])
    }

    /// Issue 37: a link is never written through (it was followed before; a committed link can
    /// lead to a shell start-up file). The link and the file it leads to stay as they were.
    @Test func aSymbolicLinkIsRefusedAndLeftAsItWas() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("""
            mkdir -p build/real && echo old > build/real/tally.json && ln -s real/tally.json build/link.json
            timeout 60 "$T" check \(Self.sources) --report json:build/link.json --quiet; echo "tally=$?"
            test -L build/link.json && echo "still a link"
            """, in: directory)
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("still a link"), "\(run.stdout)")
        #expect(run.stderr.contains("build/link.json: error: cannot write the report: it is a symbolic link to real/tally.json; Tally does not write through a link"), "\(run.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("build/real/tally.json"), encoding: .utf8) == "old\n")
    }

    @Test func aLinkToNothingAndAFolderAreRefusedByName() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dangling = try Self.bash("ln -s missing/tally.json dangling.json; timeout 60 \"$T\" check \(Self.sources) --report json:dangling.json", in: directory)
        #expect(dangling.status == 2)
        #expect(dangling.stderr.contains("dangling.json: error: cannot write the report: it is a symbolic link to missing/tally.json"), "\(dangling.stderr)")
        let folder = try Self.bash("timeout 60 \"$T\" check \(Self.sources) --report json:catalog", in: directory)
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("catalog: error: cannot write the report: it is a folder"), "\(folder.stderr)")
        let under = try Self.bash("timeout 60 \"$T\" show catalog/products.yaml --output catalog/products.yaml/table.txt", in: directory)
        #expect(under.status == 2)
        #expect(under.stderr.contains("catalog/products.yaml/table.txt: error: cannot write the report"), "\(under.stderr)")
    }

    @Test func devStdoutIsStandardOutput() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("timeout 60 \"$T\" check \(Self.sources) --report json:/dev/stdout --quiet", in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) is [String: Any])
    }

    // MARK: link loops under **

    @Test func aLinkLoopUnderDoubleStarIsOneSource() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = """
            ln -s .. configs/up && ln -s ../.. configs/up2 && ln -s . catalog/self
            printf 'version: 1\\nsources:\\n  - "**/*.storekit"\\n  - "**/*.yaml"\\n' > .tally.yml
            """
        let check = try Self.bash(setup + "\ntimeout 60 \"$T\" check", in: directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("in 2 sources"), "\(check.stdout)")
        let proposed = try Self.bash("rm .tally.yml; timeout 60 \"$T\" init --print", in: directory)
        let globs = proposed.stdout.split(separator: "\n").filter { $0.hasPrefix("  - ") }
        #expect(globs == ["  - configs/*.storekit", "  - catalog/*.yaml"], "\(proposed.stdout)")
    }

    // MARK: long values

    @Test func aFiftyMegabyteLineGivesAShortErrorThatSaysItsLength() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = Data(#"{"format": "tally-catalog/1", "products": [{"id": "x", "kind": "consumable", ""#.utf8)
        text.append(Data(repeating: UInt8(ascii: "a"), count: 50_000_000))
        text.append(Data("\": 1}]}\n".utf8))
        try text.write(to: directory.appendingPathComponent("long.json"))
        let run = try Self.bash("timeout 120 \"$T\" lint long.json", in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.utf8.count < 2_000, "\(run.stderr.prefix(500))")
        #expect(run.stderr.contains("long.json:1:78: error: unknown key \"aaaa"), "\(run.stderr.prefix(500))")
        #expect(run.stderr.contains("…(50,000,000 characters)"), "\(run.stderr.prefix(500))")
    }

    @Test func aTwentyMegabyteProductIDGivesAShortTable() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = Data("format: tally-catalog/1\ndefault_territory: USA\nproducts:\n  - id: com.example.".utf8)
        text.append(Data(repeating: UInt8(ascii: "a"), count: 20_000_000))
        text.append(Data("\n    kind: consumable\n    prices: {USA: \"0.99\"}\n".utf8))
        try text.write(to: directory.appendingPathComponent("long.yaml"))
        let run = try Self.bash("timeout 120 \"$T\" show long.yaml", in: directory)
        #expect(run.status == 0, "\(run.stderr.prefix(500))")
        #expect(run.stdout.utf8.count < 2_000, "\(run.stdout.prefix(500))")
        #expect(run.stdout.contains("com.example.aaaa"), "\(run.stdout.prefix(500))")
        #expect(run.stdout.contains("…(20,000,012 characters)"), "\(run.stdout.prefix(500))")
    }
}
