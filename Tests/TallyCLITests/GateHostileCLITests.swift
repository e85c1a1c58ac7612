import Foundation
import Testing

/// A gate that cannot be turned against its users (issue 37, items 1-4), through the binary: no
/// write through a link, over an input or twice; no text from a file or a file name that acts on a
/// terminal, a CI log, a pull request or a spreadsheet; linked sources inside the repository read,
/// those leading out of it refused by name. Every case runs under `timeout` in bash, so a hang
/// fails the case; no case writes to a device (links, named pipes and temporary files stand in).
@Suite(.timeLimit(.minutes(10)))
struct GateHostileCLITests {
    /// Runs `script` in bash with `$T` the tally binary, in `directory`.
    static func bash(_ script: String, in directory: URL) throws -> CLIRunner.Output {
        try CLIRunner.launch(URL(fileURLWithPath: "/bin/bash"), ["-c", "T=\"$0\"; " + script, CLIRunner.executable.path], in: directory)
    }

    /// A git repository holding copies of configs/ and catalog/.
    static func repository() throws -> URL {
        let directory = try CLIRunner.exampleCopy()
        _ = try bash("git init -q . && git config user.email t@example.com && git config user.name t", in: directory)
        return directory
    }

    static func bytes(_ directory: URL, _ path: String) -> Data? {
        try? Data(contentsOf: directory.appendingPathComponent(path))
    }

    static let sources = "configs/ExampleApp.storekit catalog/products.yaml"

    // MARK: 1. init never writes through a link, never waits on a pipe

    @Test func initForceDoesNotWriteThroughACommittedLink() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("tally-rc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try "# a shell start-up file\n".write(to: outside, atomically: true, encoding: .utf8)
        let run = try Self.bash("""
            cp configs/ExampleApp.storekit 'configs/$(touch PWNED).storekit'
            ln -s '\(outside.path)' .tally.yml
            timeout 60 "$T" init --force; echo "tally=$?"
            test -L .tally.yml && echo "still a link"
            """, in: directory)
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("still a link"))
        #expect(run.stderr.contains(".tally.yml: error: cannot write the policy file: it is a symbolic link to \(outside.path); Tally does not write through a link"), "\(run.stderr)")
        #expect(try String(contentsOf: outside, encoding: .utf8) == "# a shell start-up file\n", "the file the link leads to is untouched")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("PWNED").path))
    }

    @Test func initForceOnANamedPipeEndsAtOnce() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("mkfifo .tally.yml; timeout 30 \"$T\" init --force; echo \"tally=$?\"; test -p .tally.yml && echo 'still a pipe'", in: directory)
        // 124 would be timeout's: the run waited for a reader.
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("still a pipe"))
        #expect(run.stderr.contains(".tally.yml: error: cannot write the policy file: it is a named pipe or a device"), "\(run.stderr)")
    }

    @Test func initEscapesOddNamesSoThePolicyReadsExactlyThoseFiles() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeKit = try Data(contentsOf: directory.appendingPathComponent("configs/ExampleApp.storekit"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("configs"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("catalog"))
        for folder in ["x[1]", "y\n::add-mask::z"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try storeKit.write(to: directory.appendingPathComponent("x[1]/A.storekit"))
        try storeKit.write(to: directory.appendingPathComponent("y\n::add-mask::z/B$(touch PWNED).storekit"))
        // `x[1]` as a pattern matches the folder `x1`: the escaped glob must not.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("x1"), withIntermediateDirectories: true)
        try storeKit.write(to: directory.appendingPathComponent("x1/C.storekit"))
        let initRun = try Self.bash("timeout 60 \"$T\" init", in: directory)
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect(!initRun.stdout.contains("\n::"), "a file name cannot start a line of the summary: \(initRun.stdout)")
        #expect(initRun.stdout.contains("y\\u{A}::add-mask::z/B$(touch PWNED).storekit"), "\(initRun.stdout)")
        let policy = try String(contentsOf: directory.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(policy.contains(#"  - "x\\[1\\]/*.storekit""#), "\(policy)")
        #expect(policy.contains(#"  - "y\n::add-mask::z/*.storekit""#), "\(policy)")
        #expect(!policy.contains("\n::"), "no line of the policy starts with a file name's text")
        let check = try Self.bash("timeout 60 \"$T\" check --format json", in: directory)
        #expect(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let sources = ((report?["summary"] as? [String: Any])?["sources"] as? [String]) ?? []
        #expect(sources.count == 3, "each file once, through its escaped glob: \(sources)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("PWNED").path))
    }

    // MARK: 2. outputs never over the run's inputs, never one file twice

    @Test(arguments: [
        ("check \(sources) --report json:catalog/products.yaml", "catalog/products.yaml", "the report"),
        ("check \(sources) --output configs/ExampleApp.storekit", "configs/ExampleApp.storekit", "the report"),
        ("convert configs/ExampleApp.storekit --to storekit -o configs/ExampleApp.storekit", "configs/ExampleApp.storekit", "the converted file"),
        ("convert configs/ExampleApp.storekit --to csv -o ./configs/../configs/ExampleApp.storekit", "configs/ExampleApp.storekit", "the converted file"),
        ("diff configs/ExampleApp.storekit catalog/products.yaml --output catalog/products.yaml", "catalog/products.yaml", "the report"),
        ("show catalog/products.yaml --output catalog/products.yaml", "catalog/products.yaml", "the report"),
        ("check --write-baseline .tally.yml", ".tally.yml", "the baseline"),
    ])
    func anOutputIsNeverOneOfTheRunsInputs(_ command: String, _ input: String, _ what: String) throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "version: 1\nsources:\n  - configs/*.storekit\n  - catalog/*.yaml\n".write(to: directory.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let before = Self.bytes(directory, input)
        let run = try Self.bash("timeout 60 \"$T\" \(command)", in: directory)
        #expect(run.status == 2, "\(command): \(run.stderr)")
        #expect(run.stderr.contains("error: cannot write \(what): it is one of this run's inputs") || run.stderr.contains("one of this run's inputs; Tally never writes over what it reads"),
                "\(command): \(run.stderr)")
        #expect(Self.bytes(directory, input) == before, "\(input) is unchanged")
    }

    @Test func aLinkToAnInputIsThatInput() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = Self.bytes(directory, "catalog/products.yaml")
        let run = try Self.bash("ln -s catalog/products.yaml out.json; timeout 60 \"$T\" check \(Self.sources) --report json:out.json", in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("out.json: error: cannot write the report: it is a symbolic link to catalog/products.yaml"), "\(run.stderr)")
        #expect(Self.bytes(directory, "catalog/products.yaml") == before)
    }

    @Test func aReportInsideAFolderReadAsOneSourceIsRefused() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/asc-export"), to: directory.appendingPathComponent("asc-export"))
        let run = try Self.bash("timeout 60 \"$T\" check configs/ExampleApp.storekit asc-export --report json:asc-export/tally.json; echo \"tally=$?\"; test -e asc-export/tally.json && echo written", in: directory)
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(!run.stdout.contains("written"))
        #expect(run.stderr.contains("asc-export/tally.json: error: cannot write the report: it is inside asc-export, a folder this run reads as a source"), "\(run.stderr)")
    }

    @Test(arguments: [
        ("--report json:a.json --report sarif:./a.json", "a.json and ./a.json"),
        ("--report json:a.json --report sarif:build/../a.json", "a.json and build/../a.json"),
        ("--report json:a.json --report sarif:b.json", "a.json and b.json"),
    ])
    func twoReportsToOneFileAreRefusedBeforeAnythingIsWritten(_ options: String, _ named: String) throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("mkdir -p build; echo old > a.json; ln -s a.json b.json; timeout 60 \"$T\" check \(Self.sources) \(options); echo \"tally=$?\"; cat a.json", in: directory)
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("two reports would be written to one file (\(named))"), "\(run.stderr)")
        #expect(run.stdout.contains("old"), "nothing was written: \(run.stdout)")
    }

    // MARK: 3. text that acts

    /// A StoreKit file whose product ID and reference name hold what a terminal, a CI runner,
    /// GitHub and a spreadsheet would act on.
    static let hostileID = "com.x\u{1B}[2J\u{1B}]8;;http://evil.example\u{07}link\u{1B}]8;;\u{07}\u{202E}lave\n::stop-commands::tok\n::add-mask::secret @org/team ##[error]forged"

    /// configs/NAME: the example StoreKit file with its first product's ID and reference name replaced.
    static func writeStoreKit(in directory: URL, named file: String, id: String, name: String) throws {
        let url = directory.appendingPathComponent("configs/ExampleApp.storekit")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var products = try #require(object["products"] as? [[String: Any]])
        products[0]["productID"] = id
        products[0]["referenceName"] = name
        object["products"] = products
        try JSONSerialization.data(withJSONObject: object).write(to: directory.appendingPathComponent("configs/" + file))
    }

    static func hostileRepository() throws -> URL {
        let directory = try repository()
        try writeStoreKit(in: directory, named: "Evil\n::error::forged.storekit", id: hostileID,
                          name: "=HYPERLINK(\"http://evil.example\",\"click\") cc @org/team")
        // A file that is not JSON at all, named to forge a line: its format error names it.
        try Data("{\u{1B}]0;pwned\u{07}".utf8).write(to: directory.appendingPathComponent("catalog/\u{1B}[31mbad\n::warning::x.json"))
        return directory
    }

    /// No escape byte, no bidirectional override, and no line a CI runner reads as a command.
    static func expectInert(_ text: String, _ label: String, allowingAnnotations: Bool = false) {
        #expect(!text.unicodeScalars.contains("\u{1B}"), "\(label): an escape byte: \(text.prefix(600))")
        #expect(!text.unicodeScalars.contains("\u{202E}"), "\(label): a bidirectional override")
        #expect(!text.unicodeScalars.contains("\u{07}"), "\(label): a bell")
        #expect(!text.contains("##["), "\(label): the runner's older command syntax: \(text.prefix(600))")
        for line in text.split(separator: "\n") {
            let body = line.drop { $0 == " " || $0 == "\t" }
            guard body.hasPrefix("::") else { continue }
            let ours = allowingAnnotations && ["::error ", "::warning ", "::notice "].contains { body.hasPrefix($0) }
            #expect(ours, "\(label): a line a CI runner reads as a command: \(line)")
        }
    }

    @Test(arguments: [
        "show configs/Evil*",
        "lint configs/Evil*",
        "check configs/Evil* configs/ExampleApp.storekit",
        "check configs/Evil* configs/ExampleApp.storekit --format markdown",
        "check configs/Evil* configs/ExampleApp.storekit catalog/*bad*",
        "lint configs/Evil* --format github",
        "diff configs/ExampleApp.storekit configs/Evil*",
        "diff configs/ExampleApp.storekit configs/Evil* --format release-notes",
        "convert configs/Evil* --to csv",
        "convert configs/Evil* --to tally-catalog-yaml",
        "init --print",
        "init",
    ])
    func textFromFilesAndNamesDoesNotAct(_ command: String) throws {
        let directory = try Self.hostileRepository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("timeout 60 \"$T\" \(command)", in: directory)
        #expect(run.status != 124 && run.status < 128, "\(command): \(run.status) \(run.stderr)")
        Self.expectInert(run.stderr, "\(command) (standard error)")
        Self.expectInert(run.stdout, "\(command) (standard output)", allowingAnnotations: command.contains("github"))
    }

    /// Every character `SafeText` names (C0 and C1 controls, DEL, separators, bidirectional and
    /// invisible format characters) in one product ID, one name and one file name, through every
    /// command for people: none of them reaches standard output or error as itself.
    @Test func everyUnsafeCharacterIsWrittenOut() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let values: [UInt32] = Array(1...31) + [0x7F] + Array(0x80...0x9F)
            + [0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF]
        let unsafe = values.compactMap(Unicode.Scalar.init)
        let all = String(String.UnicodeScalarView(unsafe))
        let name = "W" + String(String.UnicodeScalarView(unsafe.filter { $0 != "/" })) + ".storekit"
        try Self.writeStoreKit(in: directory, named: name, id: "com.x" + all + "::y", name: "name" + all)
        for command in ["show configs/W*", "lint configs/W*", "lint configs/W* --format markdown", "lint configs/W* --format github",
                        "convert configs/W* --to csv", "convert configs/W* --to tally-catalog-yaml", "init --print",
                        "diff configs/ExampleApp.storekit configs/W*", "diff configs/ExampleApp.storekit configs/W* --format release-notes"] {
            let run = try Self.bash("timeout 60 \"$T\" \(command)", in: directory)
            #expect(run.status <= 2, "\(command): \(run.status)")
            for (stream, text) in [("standard output", run.stdout), ("standard error", run.stderr)] {
                let shown = unsafe.filter { $0 != "\n" && $0 != "\t" && text.unicodeScalars.contains($0) }
                #expect(shown.isEmpty, "\(command) (\(stream)): \(shown.map { String($0.value, radix: 16) })")
            }
        }
    }

    @Test func markdownMentionsNobodyAndCSVRunsNoFormula() throws {
        let directory = try Self.hostileRepository()
        defer { try? FileManager.default.removeItem(at: directory) }
        for format in ["markdown", "release-notes"] {
            let markdown = try Self.bash("timeout 60 \"$T\" diff configs/ExampleApp.storekit configs/Evil* --format \(format)", in: directory)
            // GitHub reads no mention inside a code span; outside one, `@org/team` would notify the team.
            let prose = markdown.stdout.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            #expect(prose.contains("@&#8203;org/team"), "\(format): \(markdown.stdout.prefix(800))")
            #expect(!prose.contains("@org/team"), "\(format): a mention GitHub would notify: \(markdown.stdout.prefix(800))")
        }
        let check = try Self.bash("timeout 60 \"$T\" check configs/Evil* configs/ExampleApp.storekit --format markdown", in: directory)
        let checkProse = check.stdout.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
        #expect(!checkProse.contains("@org/team"), "\(check.stdout.prefix(800))")
        let csv = try Self.bash("timeout 60 \"$T\" convert configs/Evil* --to csv", in: directory)
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(!csv.stdout.contains(",=HYPERLINK") && !csv.stdout.contains(",\"=HYPERLINK"), "\(csv.stdout.prefix(600))")
        let table = try Self.bash("timeout 60 \"$T\" convert configs/ExampleApp.storekit --to csv", in: directory)
        try "product_id,kind,territory,price\n\"=HYPERLINK(\"\"http://evil.example\"\")\",consumable,USA,1.99\n".write(
            to: directory.appendingPathComponent("catalog/formula.csv"), atomically: true, encoding: .utf8)
        let fromCSV = try Self.bash("timeout 60 \"$T\" convert catalog/formula.csv --to csv", in: directory)
        #expect(fromCSV.stdout.contains("'=HYPERLINK("), "\(fromCSV.stdout) \(fromCSV.stderr)")
        #expect(table.status == 0 && !table.stdout.contains("'"), "an ordinary table is unchanged: \(table.stdout.prefix(300))")
        let github = try Self.bash("timeout 60 \"$T\" check configs/Evil* configs/ExampleApp.storekit --format github", in: directory)
        #expect(github.stdout.contains("::error "), "\(github.stdout.prefix(400))")
        Self.expectInert(github.stdout, "github", allowingAnnotations: true)
    }

    // MARK: 4. linked sources

    @Test func aLinkedSourceInsideTheRepositoryIsReadUnderItsName() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("""
            mkdir -p Shared App/Pro && mv configs/ExampleApp.storekit Shared/ExampleApp.storekit
            ln -s ../../Shared/ExampleApp.storekit App/Pro/Products.storekit
            printf 'version: 1\\nsources:\\n  - App/**/*.storekit\\n  - catalog/*.yaml\\n' > .tally.yml
            timeout 60 "$T" check; echo "policy=$?"
            timeout 60 "$T" check App/Pro/Products.storekit catalog/products.yaml; echo "arguments=$?"
            """, in: directory)
        #expect(run.stdout.contains("policy=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("arguments=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("compared: App/Pro/Products.storekit"), "named as the user named it: \(run.stdout)")
        #expect(!run.stderr.contains("not a regular file"), "\(run.stderr)")
    }

    @Test func aLinkedSourceAtARevisionIsTheFileItLeadsTo() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bash("""
            mkdir -p Shared App && mv configs/ExampleApp.storekit Shared/ExampleApp.storekit
            ln -s ../Shared/ExampleApp.storekit App/Products.storekit
            ln -s /etc/hostname App/Outside.storekit
            git add -A && git commit -qm links
            sed -i 's/"displayPrice" : "2.99"/"displayPrice" : "3.49"/' Shared/ExampleApp.storekit
            timeout 60 "$T" diff App/Products.storekit@HEAD App/Products.storekit --format json; echo "diff=$?"
            timeout 60 "$T" diff --since HEAD App/Products.storekit; echo "since=$?"
            timeout 60 "$T" diff App/Outside.storekit@HEAD Shared/ExampleApp.storekit; echo "outside=$?"
            """, in: directory)
        #expect(run.stdout.contains("diff=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("\"3.49\""), "the change seen through the link: \(run.stdout.prefix(600))")
        #expect(run.stdout.contains("since=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("outside=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("App/Outside.storekit at HEAD is a symbolic link to /etc/hostname, outside the repository"), "\(run.stderr)")
        #expect(!run.stderr.contains("not a regular file"), "\(run.stderr)")
    }

    @Test func aLinkedPageInASavedFolderIsRead() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/asc-export"), to: directory.appendingPathComponent("asc-export"))
        let whole = try Self.bash("timeout 60 \"$T\" show asc-export --format json", in: directory)
        let run = try Self.bash("""
            mkdir -p pages && mv asc-export/01-inAppPurchasesV2-page1.json pages/
            ln -s ../pages/01-inAppPurchasesV2-page1.json asc-export/01-inAppPurchasesV2-page1.json
            timeout 60 "$T" show asc-export --format json
            """, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == whole.stdout, "the folder reads the same with a page linked in")
    }

    @Test func aLinkLeadingOutOfTheRepositoryIsRefusedByName() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("tally-outside-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.copyItem(at: directory.appendingPathComponent("catalog/products.yaml"), to: outside)
        let run = try Self.bash("""
            ln -s '\(outside.path)' catalog/linked.yaml
            timeout 60 "$T" check configs/ExampleApp.storekit catalog/linked.yaml; echo "tally=$?"
            """, in: directory)
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("catalog/linked.yaml: error: a symbolic link to \(outside.path), outside the repository"), "\(run.stderr)")
    }
}
