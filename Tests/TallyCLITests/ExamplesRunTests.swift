import Foundation
import Testing

/// Issue 11 item 14: every example in `tally … --help` and every shell command in the README
/// runs as written in this repository: exit 0 (consistent) or 1 (mismatches), never 2 (a usage
/// or input error, such as a file that does not exist).
///
/// Each command's examples, and each README block, run in order in a fresh sandbox: a git
/// repository (branch main, two commits, so HEAD~1 exists) holding configs/, catalog/,
/// examples/ and .tally.yml, with the built `tally` first on PATH. `tally fetch` needs
/// credentials and the network: it is stood in for by copying the saved snapshot of that store
/// from examples/ to its --output folder, so the lines after it run on real pages.
@Suite(.timeLimit(.minutes(20)))
struct ExamplesRunTests {
    /// Programs README blocks use that the test does not run, and why.
    static let notRun: [String: String] = [
        "swift": "builds and tests the package itself (CI runs swift test and swift package tally)",
        "python3": "benchmarks (bench/)",
        "fuzz/run.sh": "the fuzzers (CI runs them)",
    ]
    /// Programs run beside tally in examples.
    static let helpers: Set<String> = ["cp"]
    /// Where `tally fetch` would have written: the saved pages of the same store.
    static let standIns = ["app-store-connect": "examples/asc-export", "google-play": "examples/google-play/play"]

    struct Example: CustomStringConvertible {
        var source: String
        var lines: [String]
        var description: String { source }
    }

    static let commands: [[String]] = [
        [], ["check"], ["show"], ["convert"], ["lint"], ["diff"], ["rules"], ["explain"], ["init"],
        ["fetch"], ["fetch", "app-store-connect"], ["fetch", "google-play"],
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
        return Example(source: "tally \(command.joined(separator: " ")) --help", lines: lines)
    }

    /// Marks the start of a README block: the next lines run from the repository's top folder.
    static let blockMark = "::block "

    /// The README's ```sh blocks (indented ones too), in one sandbox from top to bottom, as a
    /// reader follows it (a block may use what an earlier one fetched).
    static func readme() throws -> Example {
        let blocks = try readmeExamples()
        return Example(source: "README.md", lines: blocks.flatMap { [blockMark + $0.source] + $0.lines })
    }

    /// The README's ```sh blocks (indented ones too), one example each.
    static func readmeExamples() throws -> [Example] {
        let text = try String(contentsOf: CLIRunner.repository.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [Example] = []
        var current: [String]?
        var start = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```sh" { current = []; start = number + 1 }
            } else if trimmed.hasPrefix("```") {
                examples.append(Example(source: "README.md:\(start)", lines: current ?? []))
                current = nil
            } else if var lines = current, let last = lines.last, last.hasSuffix("\\") {
                lines[lines.count - 1] = String(last.dropLast()) + " " + trimmed
                current = lines
            } else if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
                current?.append(trimmed)
            }
        }
        return examples
    }

    @Test func helpAndReadmeHaveExamplesToRun() throws {
        let help = try Self.commands.map(Self.helpExamples)
        for example in help where example.source != "tally rules --help" {
            #expect(!example.lines.isEmpty, "\(example.source) has no examples")
        }
        #expect(try Self.readmeExamples().count >= 10)
    }

    @Test(arguments: try commands.map(helpExamples) + [readme()])
    func everyExampleRunsAsWritten(_ example: Example) throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        var failures: [String] = []
        var block = example.source
        for line in example.lines {
            if line.hasPrefix(Self.blockMark) {
                block = String(line.dropFirst(Self.blockMark.count))
                try sandbox.changeDirectory(".")
                continue
            }
            let program = String(line.split(separator: " ").first ?? "")
            if Self.notRun[program] != nil { continue }
            if program == "cd" {
                try sandbox.changeDirectory(String(line.dropFirst(3)).components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces))
                continue
            }
            if program == "tally", line.hasPrefix("tally fetch ") {
                try sandbox.standIn(forFetch: line)
                continue
            }
            guard program == "tally" || Self.helpers.contains(program) else {
                failures.append("\(line): the test does not know the program \(program); run it or say in notRun why not")
                continue
            }
            let output = try sandbox.run(line)
            if output.status != 0 && output.status != 1 {
                failures.append("\(block): \(line)\n  exit \(output.status): \(output.stderr.prefix(600))")
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
            let target = path == "." ? root : directory.appendingPathComponent(path)
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

        /// Runs one example line with bash (pipes and quotes as written), `tally` on PATH.
        func run(_ line: String) throws -> CLIRunner.Output {
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            return try CLIRunner.launch(URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", line], in: directory, environment: ["PATH": path])
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
