import Foundation
import Testing
import TallyReport

/// docs/architecture.md lists the places that adding a format, a rule or a report format touches,
/// one per numbered item as `` `FILE` `SYMBOL` ``. The lists drift when code moves: these tests
/// fail when a named file is gone, when its symbol is no longer in it, or when a heading's count of
/// places is not the number of items under it.
@Suite struct ArchitecturePlacesTests {
    struct Place: CustomStringConvertible {
        var list: String
        var file: String
        var symbol: String
        var description: String { "\(list): `\(file)` `\(symbol)`" }
    }

    /// Each "**Adding a …** (N places…" heading with its numbered items.
    static func lists() throws -> [(heading: String, count: Int, places: [Place])] {
        let text = try String(contentsOf: CLIRunner.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var lists: [(heading: String, count: Int, places: [Place])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let heading = line.firstMatch(of: /^\*\*(Adding a [a-z ]+)\*\* \((\d+) places/) {
                lists.append((String(heading.output.1), Int(heading.output.2) ?? -1, []))
            } else if let item = line.firstMatch(of: /^\d+\. `([^`]+)` `([^`]+)`/), !lists.isEmpty {
                lists[lists.count - 1].places.append(Place(list: lists[lists.count - 1].heading, file: String(item.output.1),
                                                           symbol: String(item.output.2)))
            }
        }
        return lists
    }

    /// Issue 51: rules ask a format what it can state (`SourceFormatTraits.swift`), never which
    /// format it is: a `format == .x` test in TallyCheck is a place the compiler cannot name when a
    /// format is added.
    @Test func noRuleTestsWhichFormatASourceIs() throws {
        let root = CLIRunner.repository.appendingPathComponent("Sources/TallyCheck")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 20)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("format == .") || line.contains("format != .") || line.contains(/\]\.contains\([a-z.]*format\)/) {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The case names of an enum declared in `file` (`case name = "…"`, `case a, b`).
    static func cases(of name: String, in file: String) throws -> [String] {
        let text = try String(contentsOf: CLIRunner.repository.appendingPathComponent(file), encoding: .utf8)
        guard let start = text.range(of: "enum \(name):") else { return [] }
        var names: [String] = []
        var depth = 0
        for line in text[start.lowerBound...].split(separator: "\n") {
            if depth == 1, let match = line.firstMatch(of: /^\s*case ([a-zA-Z0-9_, ]+?)(\s*=.*)?$/) {
                names += match.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if depth == 0, line.contains("}") { break }
        }
        return names
    }

    /// Every line of the Swift files under `Sources/` (but `except`) that matches `pattern`.
    static func sourceLines(matching pattern: Regex<Substring>, except: (String) -> Bool) throws -> [String] {
        let root = CLIRunner.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var found: [String] = []
        for file in files.sorted() where !except(file) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(pattern) {
                found.append("Sources/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// Issue 51: what a store is lives in `Store.swift` (one exhaustive switch a fact); no code
    /// elsewhere asks which store a value is (`== .googlePlay`, `.appStore ? … : …`), so that a
    /// third store is placed by the compiler, not found by grep.
    @Test func noCodeTestsWhichStoreItIs() throws {
        let stores = try Self.cases(of: "Store", in: "Sources/TallyModel/Store.swift")
        #expect(stores.count >= 2, "the Store enum's cases were not found: \(stores)")
        let names = stores.joined(separator: "|")
        let pattern = try Regex<Substring>("(?:==|!=) \\.(?:\(names))\\b|\\.(?:\(names)) \\?")
        let found = try Self.sourceLines(matching: pattern) { $0 == "TallyModel/Store.swift" }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        // Nor a list of every store written out (`[.appStore, .googlePlay]`): `Store.allCases`.
        let every = try Regex<Substring>("\\[(?:Store)?\\.(?:\(names))(?:,\\s*(?:Store)?\\.(?:\(names)))+\\]")
        let lists = try Self.sourceLines(matching: every) { $0 == "TallyModel/Store.swift" }
        #expect(lists.isEmpty, "\(lists.joined(separator: "\n"))")
    }

    /// Issue 51: what a source format can state is a trait of `SourceFormat`
    /// (`SourceFormatTraits.swift`); only the format's own reader (`Sources/TallyFormats`) and the
    /// model that declares it test which format a source is.
    @Test func noCodeOutsideTheFormatsOwnersTestsWhichFormatItIs() throws {
        let formats = try Self.cases(of: "SourceFormat", in: "Sources/TallyModel/Catalog.swift")
        #expect(formats.count >= 15, "the SourceFormat enum's cases were not found: \(formats)")
        let names = formats.joined(separator: "|")
        // A report format (`ReportFormat.markdown`) is not a source format: the test names the
        // source format's own cases, after `format` or `Format`.
        let pattern = try Regex<Substring>("[fF]ormat\\??\\s*(?:==|!=)\\s*\\.(?:\(names))\\b")
        let found = try Self.sourceLines(matching: pattern) { file in
            file.hasPrefix("TallyFormats/") || file == "TallyModel/Catalog.swift" || file == "TallyModel/SourceFormatTraits.swift"
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func theListsAreThereWithTheirCounts() throws {
        let lists = try Self.lists()
        #expect(lists.map(\.heading) == ["Adding a format", "Adding a rule", "Adding a report format", "Adding a store"], "\(lists.map(\.heading))")
        for list in lists {
            #expect(list.places.count == list.count, "\(list.heading) says \(list.count) places and lists \(list.places.count)")
        }
    }

    /// Issue 39 cut the places (a format's fuzz target is its reader's): a list that grows again
    /// fails here, so that a new hand-kept list is a decision, not a drift.
    @Test func theListsDoNotGrowAgain() throws {
        let counts = Dictionary(try Self.lists().map { ($0.heading, $0.count) }, uniquingKeysWith: max)
        #expect(counts["Adding a format"] ?? .max <= 4, "a format touches \(counts["Adding a format"] ?? -1) places")
        #expect(counts["Adding a rule"] ?? .max <= 4, "a rule touches \(counts["Adding a rule"] ?? -1) places")
        #expect(counts["Adding a report format"] ?? .max <= 4, "a report format touches \(counts["Adding a report format"] ?? -1) places")
        #expect(counts["Adding a store"] ?? .max <= 7, "a store touches \(counts["Adding a store"] ?? -1) places")
    }

    @Test func everyPlaceNamesAFileThatHoldsItsSymbol() throws {
        let places = try Self.lists().flatMap(\.places)
        #expect(places.count >= 12)
        for place in places {
            let url = CLIRunner.repository.appendingPathComponent(place.file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("\(place): no such file")
                continue
            }
            #expect(text.contains(place.symbol), "\(place): the file does not mention the symbol")
        }
    }

    /// The formats' own lists in the docs: docs/reports.md's table for check and lint, the synopsis
    /// of docs/commands/diff.md for diff. Each names every format and no other.
    @Test func theReportDocsNameEveryFormat() throws {
        let reports = try String(contentsOf: CLIRunner.repository.appendingPathComponent("docs/reports.md"), encoding: .utf8)
        let rows = Set(reports.split(separator: "\n").compactMap { line in line.firstMatch(of: /^\| `([a-z-]+)` \|/).map { String($0.output.1) } })
        #expect(rows == Set(ReportFormat.allCases.map(\.rawValue)), "docs/reports.md's table: \(rows.sorted())")

        let diff = try String(contentsOf: CLIRunner.repository.appendingPathComponent("docs/commands/diff.md"), encoding: .utf8)
        let synopsis = diff.firstMatch(of: /--format ([a-z|-]+)\]/).map { Set($0.output.1.split(separator: "|").map(String.init)) }
        #expect(synopsis == Set(DiffFormat.allCases.map(\.rawValue)), "docs/commands/diff.md's synopsis: \(String(describing: synopsis))")
    }

    /// `--format`'s help comes from the formats (`ReportKind.names`) in check, lint and diff alike.
    @Test(arguments: ["check", "lint", "diff"]) func theFormatHelpNamesEveryFormat(command: String) throws {
        let help = try CLIRunner.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let names = command == "diff" ? DiffFormat.names : ReportFormat.names
        #expect(help.contains("One report's format: \(names)"), "\(command) --help: \(help)")
    }

    /// Issue 51: a command maps its flags onto a request and makes one call into `TallyRun`
    /// (`TallyRun/Command/`), which says what it has to say through the console `main` installs.
    /// So standard error is written from at most two files of the command line (`Tally.swift`,
    /// `main`; `Console.swift`, the writer), and the command line stays at most 1,500 lines
    /// (`wc -l Sources/tally/*.swift`): run logic that grows back into a command fails here.
    @Test func theCommandLineIsThinAndTwoOfItsFilesWriteStandardError() throws {
        let folder = CLIRunner.repository.appendingPathComponent("Sources/tally")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10)
        let writes = ["Diagnostics.", "Console.err", "FileHandle.standardError", "StandardError()", "fputs(", "stderr", "STDERR_FILENO"]
        var lines = 0
        var writers: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            lines += text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            if writes.contains(where: { text.contains($0) }) { writers.append(file) }
        }
        #expect(writers.count <= 2 && Set(writers).isSubset(of: ["Tally.swift", "Console.swift"]),
                "standard error is written from \(writers.joined(separator: ", ")): say it through TallyRun's Diagnostics from the command's run instead")
        #expect(lines <= 1_500, "Sources/tally has \(lines) lines: move run logic into TallyRun/Command/ (the commands map flags onto a request)")
    }
}
