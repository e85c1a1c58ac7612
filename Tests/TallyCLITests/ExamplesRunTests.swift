import Foundation
import Testing

/// Issue 11 item 14 and issue 21 item 3: every example in `tally … --help`, and every command in
/// README.md and docs/**/*.md, runs as written, and the documents' commands give the outcome the
/// text states: the exit code, and for a transcript the lines it shows.
///
/// How a document states an outcome (docs/contributing.md, "Commands in the documents"):
/// - In a ```sh block, every command carries its exit code in its trailing comment,
///   `tally check   # exit 1: ...`. A command without one fails the test (so that no command is
///   left unchecked); `cd`, `mkdir`, `cp`, `rm`, `head` and `cat` must exit 0 and need no comment.
/// - A ```console block is a transcript: `$ COMMAND   # exit N`, then the lines it prints
///   (standard output and standard error, as a terminal shows them), which must match exactly,
///   but for a line `...`, which stands for any number of lines.
///
/// Each document runs in a fresh sandbox, blocks in order from top to bottom as a reader follows
/// it (a block may use what an earlier one wrote); a `cd` holds until the next heading, and each
/// section starts in the repository's top folder. The sandbox is a git repository (branch main, two commits, so HEAD~1 exists) holding
/// configs/, catalog/, examples/ and .tally.yml, with the built `tally` first on PATH. `tally
/// fetch` needs credentials and the network: it is stood in for by copying the saved snapshot of
/// that store from examples/ to its --output folder, so the lines after it run on real pages.
@Suite(.timeLimit(.minutes(20)))
struct ExamplesRunTests {
    /// Programs document blocks use that the test does not run, and why.
    static let notRun: [String: String] = [
        "swift": "builds and tests the package itself (CI runs swift test and swift package tally)",
        "python3": "benchmarks (bench/)",
        "fuzz/run.sh": "the fuzzers (CI runs them)",
        "/usr/bin/time": "measures generated benchmark workloads (bench/)",
    ]
    /// Programs run beside tally in examples; they must succeed.
    static let helpers: Set<String> = ["cp", "mkdir", "rm", "head", "cat"]
    /// Where `tally fetch` would have written: the saved pages of the same store.
    static let standIns = ["app-store-connect": "examples/asc-export", "google-play": "examples/google-play/play",
                           "revenuecat": "examples/paywall/revenuecat"]

    /// One command of a document or of a command's help, with what it must give.
    struct Command: Sendable {
        /// `README.md:42`.
        var source: String
        var line: String
        /// The exit code the text states; nil when it states none.
        var exit: Int32?
        /// The lines a transcript shows (nil outside transcripts).
        var output: [String]?
        /// The first command under a heading: it runs from the repository's top folder.
        var startsSection = false
    }

    struct Example: CustomStringConvertible, Sendable {
        var source: String
        var commands: [Command]
        /// Help examples: exit 0 or 1 (a finding or none), never 2; documents state each code.
        var statesOutcomes: Bool
        var description: String { source }
    }

    static let commands: [[String]] = [
        [], ["check"], ["show"], ["convert"], ["lint"], ["diff"], ["rules"], ["explain"], ["init"],
        ["fetch"], ["fetch", "app-store-connect"], ["fetch", "google-play"], ["fetch", "revenuecat"],
    ]

    /// The "Examples:" lines of a command's help (continuation lines joined).
    static func helpExamples(_ command: [String]) throws -> Example {
        let help = try CLIRunner.run(command + ["--help"], environment: ["COLUMNS": "1000"])
        var lines: [String] = []
        var inExamples = false
        for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces) == "Examples:" { inExamples = true; continue }
            guard inExamples else { continue }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || !line.hasPrefix(" ") { inExamples = false; continue }
            if let last = lines.last, last.hasSuffix("\\") {
                lines[lines.count - 1] = String(last.dropLast()) + " " + text
            } else {
                lines.append(text)
            }
        }
        let source = "tally \(command.joined(separator: " ")) --help"
        return Example(source: source, commands: lines.map { Command(source: source, line: Self.split($0).command) }, statesOutcomes: false)
    }

    /// README.md and every page under docs/, by path from the repository's top folder.
    static func documents() throws -> [String] {
        let docs = CLIRunner.repository.appendingPathComponent("docs")
        var pages: [String] = []
        if let walker = FileManager.default.enumerator(atPath: docs.path) {
            for case let path as String in walker where path.hasSuffix(".md") { pages.append("docs/" + path) }
        }
        return ["README.md"] + pages.sorted()
    }

    static func document(_ path: String) throws -> Example {
        let text = try String(contentsOf: CLIRunner.repository.appendingPathComponent(path), encoding: .utf8)
        return Example(source: path, commands: commands(inDocument: text, named: path), statesOutcomes: true)
    }

    /// The commands of a document's ```sh and ```console blocks (indented ones too), in order.
    static func commands(inDocument text: String, named path: String) -> [Command] {
        var commands: [Command] = []
        var language: String?
        var sectionStarts = true
        var pending = ""
        var pendingLine = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            guard let current = language else {
                if trimmed.hasPrefix("```") { language = String(trimmed.dropFirst(3)) }
                if raw.hasPrefix("#") { sectionStarts = true }
                continue
            }
            if trimmed.hasPrefix("```") { language = nil; continue }
            guard current == "sh" || current == "console" else { continue }
            // A transcript's output line.
            if current == "console", pending.isEmpty, !trimmed.hasPrefix("$ ") {
                if commands.indices.contains(commands.count - 1), commands[commands.count - 1].output != nil {
                    commands[commands.count - 1].output?.append(String(raw).trimmingTrailingWhitespace)
                }
                continue
            }
            var line = current == "console" && pending.isEmpty ? String(trimmed.dropFirst(2)) : trimmed
            if pending.isEmpty { pendingLine = index + 1 } else { line = pending + " " + line }
            if line.hasSuffix("\\") { pending = String(line.dropLast()).trimmingCharacters(in: .whitespaces); continue }
            pending = ""
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (command, comment) = split(line)
            commands.append(Command(source: "\(path):\(pendingLine)", line: command, exit: statedExit(comment),
                                    output: current == "console" ? [] : nil, startsSection: sectionStarts))
            sectionStarts = false
        }
        return commands
    }

    /// `tally check   # exit 1: two findings` → (`tally check`, `exit 1: two findings`): the
    /// comment starts at the first `#` after a space, outside quotes.
    static func split(_ line: String) -> (command: String, comment: String) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " {
                return (line[..<index].trimmingCharacters(in: .whitespaces), line[line.index(after: index)...].trimmingCharacters(in: .whitespaces))
            }
            previous = character
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    /// The `exit N` a comment states.
    static func statedExit(_ comment: String) -> Int32? {
        guard let range = comment.range(of: #"\bexit [0-9]\b"#, options: .regularExpression) else { return nil }
        return Int32(String(comment[range].dropFirst(5)))
    }

    /// The program a line runs (after any `NAME=value` settings).
    static func program(_ line: String) -> String {
        let words = line.split(separator: " ").map(String.init)
        return words.first { !$0.contains("=") } ?? ""
    }

    /// Whether `actual` shows `expected`, where a line `...` stands for any number of lines.
    static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = Array(expected.dropFirst())
            return (0...actual.count).contains { matches(rest, Array(actual.dropFirst($0))) }
        }
        guard let line = actual.first, line == first else { return false }
        return matches(Array(expected.dropFirst()), Array(actual.dropFirst()))
    }

    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingTrailingWhitespace }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    @Test func helpAndDocumentsHaveExamplesToRun() throws {
        let help = try Self.commands.map(Self.helpExamples)
        for example in help where example.source != "tally rules --help" {
            #expect(!example.commands.isEmpty, "\(example.source) has no examples")
        }
        let documents = try Self.documents().map(Self.document)
        #expect(documents.flatMap(\.commands).count >= 40)
        #expect(documents.flatMap(\.commands).filter { $0.output != nil }.count >= 8, "the documents show transcripts")
        #expect(try Self.documents().contains("docs/commands/check.md"))
    }

    @Test func transcriptsAndExitCommentsAreRead() {
        let text = """
        ```console
        $ tally check a \\
            b   # exit 1: two findings
        one
        ...
        three
        $ tally show x  # exit 0
        ```
        ```sh
        tally lint   # exit 0
        cd x         # no outcome needed
        ```
        """
        let commands = Self.commands(inDocument: text, named: "doc.md")
        #expect(commands.map(\.line) == ["tally check a b", "tally show x", "tally lint", "cd x"])
        #expect(commands.map(\.exit) == [1, 0, 0, nil])
        #expect(commands[0].output == ["one", "...", "three"])
        #expect(commands.map(\.startsSection) == [true, false, false, false])
        let sections = Self.commands(inDocument: "```sh\ncd a\n```\n# Next\n```sh\ntally rules  # exit 0\n```\n", named: "d.md")
        #expect(sections.map(\.startsSection) == [true, true])
        #expect(Self.matches(["one", "...", "three"], ["one", "two", "2b", "three"]))
        #expect(Self.matches(["one", "...", "three"], ["one", "three"]))
        #expect(!Self.matches(["one", "three"], ["one", "two", "three"]))
        #expect(!Self.matches(["one"], ["one", "two"]))
        #expect(Self.split("tally show 'a # b'  # exit 2").command == "tally show 'a # b'")
    }

    @Test(arguments: try commands.map(helpExamples) + documents().map(document))
    func everyExampleRunsAsWritten(_ example: Example) throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        var failures: [String] = []
        for command in example.commands {
            let line = command.line
            if command.startsSection { try sandbox.changeDirectory(".") }
            let program = Self.program(line)
            if Self.notRun[program] != nil { continue }
            if program == "cd" {
                try sandbox.changeDirectory(String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces))
                continue
            }
            guard program == "tally" || Self.helpers.contains(program) else {
                failures.append("\(command.source): \(line): the test does not know the program \(program); run it or say in notRun why not")
                continue
            }
            let stated = Self.helpers.contains(program) ? command.exit ?? 0 : command.exit
            if example.statesOutcomes && stated == nil {
                failures.append("\(command.source): \(line): states no outcome; end the line with a comment such as '# exit 0'")
                continue
            }
            if program == "tally", line.hasPrefix("tally fetch ") {
                try sandbox.standIn(forFetch: line)
                continue
            }
            let output = try sandbox.run(line)
            if let stated {
                if output.status != stated {
                    failures.append("\(command.source): \(line)\n  exit \(output.status), the text says \(stated): \(output.stdout.suffix(600))")
                    continue
                }
            } else if output.status != 0 && output.status != 1 {
                failures.append("\(command.source): \(line)\n  exit \(output.status): \(output.stdout.prefix(600))")
                continue
            }
            if let expected = command.output, !Self.matches(expected, Self.lines(output.stdout)) {
                let printed = Self.lines(output.stdout)
                let difference = expected.first { $0 != "..." && !printed.contains($0) }
                    .map { "the command did not print the line: \($0)" }
                    ?? printed.first { line in !expected.contains(line) && !expected.contains("...") }.map { "the transcript does not show the line: \($0)" }
                    ?? "the lines are in another order"
                failures.append("\(command.source): \(line)\n  \(difference)\n  the command printed:\n\(output.stdout)")
            }
        }
        #expect(failures.isEmpty, "\(example.source):\n\(failures.joined(separator: "\n"))")
    }

    /// A copy of the repository's examples in a git repository of its own.
    final class Sandbox {
        let root: URL
        let bin: URL
        /// Where the next line runs: the root, until an example says `cd DIR`.
        private(set) var directory: URL

        init() throws {
            let manager = FileManager.default
            let base = manager.temporaryDirectory.appendingPathComponent("tally-examples-\(UUID().uuidString)")
            root = base.appendingPathComponent("repo")
            bin = base.appendingPathComponent("bin")
            directory = root
            try manager.createDirectory(at: root, withIntermediateDirectories: true)
            try manager.createDirectory(at: bin, withIntermediateDirectories: true)
            try manager.createSymbolicLink(at: bin.appendingPathComponent("tally"), withDestinationURL: CLIRunner.executable)
            for item in ["configs", "catalog", "examples", ".tally.yml"] {
                try manager.copyItem(at: CLIRunner.repository.appendingPathComponent(item), to: root.appendingPathComponent(item))
            }
            let commit = ["-c", "user.name=Tally Tests", "-c", "user.email=tests@example.com", "commit", "-q", "-m"]
            try git(["init", "-q"])
            try git(["checkout", "-q", "-b", "main"])
            try git(["add", "."])
            try git(commit + ["examples"])
            try "# notes\n".write(to: root.appendingPathComponent("NOTES.md"), atomically: true, encoding: .utf8)
            try git(["add", "NOTES.md"])
            try git(commit + ["notes"])
        }

        func changeDirectory(_ path: String) throws {
            let target = path == "." ? root : directory.appendingPathComponent(path).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIRunner.EditError(message: "cd \(path): no such folder in the repository")
            }
            directory = target
        }

        func remove() { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }

        private func git(_ arguments: [String]) throws {
            let status = try GitRepository.run(arguments, in: root)
            guard status == 0 else { throw CLIRunner.EditError(message: "git \(arguments.joined(separator: " ")) failed with \(status)") }
        }

        /// Runs one example line with bash (pipes and quotes as written), `tally` on PATH;
        /// standard error joins standard output, in the order a terminal shows them.
        func run(_ line: String) throws -> CLIRunner.Output {
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            return try CLIRunner.launch(URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", "exec 2>&1\n" + line], in: directory,
                                        environment: ["PATH": path, "COLUMNS": "100"])
        }

        /// `tally fetch STORE ... --output DIR`: the store's saved pages copied to DIR.
        func standIn(forFetch line: String) throws {
            let words = line.split(separator: " ").map(String.init)
            guard words.count > 2, let saved = ExamplesRunTests.standIns[words[2]],
                  let flag = words.firstIndex(of: "--output"), flag + 1 < words.count else {
                throw CLIRunner.EditError(message: "cannot stand in for \(line): name a store and --output DIR")
            }
            let output = directory.appendingPathComponent(words[flag + 1])
            try? FileManager.default.removeItem(at: output)
            try FileManager.default.copyItem(at: root.appendingPathComponent(saved), to: output)
        }
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
