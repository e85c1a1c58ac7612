import ArgumentParser
import Foundation
import TallyDiff
import TallyFormats
import TallyModel
import TallyReport

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two versions of a catalogue: products, prices, periods, offers, groups.",
        discussion: """
        OLD and NEW are any two sources Tally reads, of the same or of different formats. Each is \
        a file, FILE@REV for the file as it was at a git revision (read with 'git show'), or a \
        folder: the source files directly in it, compared as one catalogue (files match by name; \
        configurations and catalogues apart when a folder holds both).

        With --since REV, from any folder of a git repository, the sources are compared with \
        themselves at REV: the ones the nearest .tally.yml (here or above) names in 'sources:', \
        else those in configs/ and catalog/; or the FILEs and folders named (a folder stands for \
        the source files in it, unless Tally reads it as one source: a snapshot or saved store \
        pages, read as one at both revisions). With --until REV2 (or 'tally diff REV..REV2'), the \
        newer side is REV2 instead of the working tree, and its .tally.yml names the sources: \
        nothing is checked out (files come from 'git ls-tree' and 'git show'). Paths are printed \
        from the repository's top folder, as git does. \
        Configurations (.storekit, .plist) and catalogues are two sets, each compared as a whole \
        across its files: a product that moves from one file to another is reported as moved \
        (not for attention), not as removed and added; a file added or deleted since REV adds or \
        removes its products. When the same product ID is in several files of a set (one \
        configuration per storefront), those files are compared file by file instead.

        A removed and an added product of the same kind whose IDs are near misses (as check's \
        "did you mean") are marked "renamed? OLD → NEW": still removed and added, since the App \
        Store never reuses an ID.

        Changes are matched by identity, never by position: products by ID, prices by territory, \
        offers by offer ID, localisations by locale, subscription groups by their members. \
        Between two StoreKit files with different storefronts (USA and COL) each product's one \
        price is compared storefront to storefront, naming both currencies.

        Marked for attention: a price increase on an existing subscription, a removed product \
        (its ID can never be used again), a period change on an existing subscription, a \
        reordered group, a free trial removed or shortened, and a price that changes by more \
        than a factor of 3 in the same currency (a currency mix-up?).

        The report starts with a summary. A product repriced in more than \(DiffFormat.sweepThreshold) \
        territories is summarised in one row; --verbose lists every row. JSON always lists every \
        change (docs/diff-json.md); Markdown fits a pull-request comment; release-notes is Markdown \
        for a release ticket, grouped by what buyers see (new and removed products, price rises \
        and cuts, trials and offers, periods, levels and groups), with reference names beside the \
        IDs, the attention items once at the top and no line numbers; HTML is one self-contained \
        page (no scripts, nothing from the network) to keep as a CI artefact. --output creates \
        missing folders and writes the report atomically. Several reports in one run: any number \
        of --report FORMAT[:FILE] (one may go to standard output). Over several files the totals \
        say configurations and catalogues apart.

        Exit codes (like git diff): 0, also when there are changes; with --exit-code, 1 when \
        there are changes; 2 on usage or input errors.

        Examples:
          tally diff configs/ExampleApp.storekit catalog/products.yaml
          tally diff configs/ExampleApp.storekit@HEAD~1 configs/ExampleApp.storekit
          tally diff catalog/products.yaml@HEAD~1 catalog/products.yaml
          tally diff catalog/products.yaml examples/finance/prices.csv --format markdown --output diff.md
          tally diff configs/ catalog/
          tally diff --since main --exit-code
          tally diff --since HEAD catalog/ --format release-notes
          tally diff --since HEAD --format html --output build/diff.html
          tally diff --since HEAD~1 configs/ExampleApp.storekit --format json --output diff.json
          tally diff --since HEAD~1 --until HEAD
          tally diff HEAD~1..HEAD --report text:build/diff.txt --report html:build/diff.html --report release-notes:build/notes.md
        """
    )

    @Argument(help: ArgumentHelp("OLD and NEW (a file, FILE@REV or a folder); with --since (or REV..REV2 first), the files or folders to compare (default: the policy's sources, or configs/ and catalog/).",
                                 valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare the sources (the policy's, the default folders', or the FILEs named) with themselves at this git revision.", valueName: "rev"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("With --since: compare with the sources as they are at this revision, not with the working tree ('tally diff OLD..NEW' says both at once).", valueName: "rev"))
    var until: String?

    @Option(name: .long, help: "Report format: \(DiffFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: DiffFormat?

    @Option(name: .long, help: ArgumentHelp(
        "A report to write: FORMAT to standard output, or FORMAT:FILE (atomically, folders created). Repeat for several (text, html and release-notes in one run).",
        valueName: "format[:file]"))
    var report: [String] = []

    @Flag(name: .long, help: "List every price row and every attention item instead of summarising large sweeps.")
    var verbose = false

    @Flag(name: .customLong("exit-code"), help: "Exit with 1 when there are changes (0 when there are none).")
    var exitCode = false

    @OptionGroup var input: SourceOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if since?.isEmpty == true { throw ValidationError("--since needs a git revision, e.g. --since HEAD~1") }
        if until?.isEmpty == true { throw ValidationError("--until needs a git revision, e.g. --until v2") }
        if until != nil, since == nil, range == nil { throw ValidationError("--until goes with --since: 'tally diff --since v1 --until v2', or 'tally diff v1..v2'") }
        if range != nil, since != nil || until != nil {
            throw ValidationError("\(files[0]) names both revisions already; drop --since and --until, or write 'tally diff --since v1 --until v2'")
        }
        if since == nil, range == nil, files.count != 2 {
            throw ValidationError("tally diff needs OLD and NEW (got \(files.count) file\(files.count == 1 ? "" : "s")), e.g. 'tally diff old.storekit new.storekit', --since REV, or REV1..REV2.")
        }
        _ = try targets()
    }

    /// `v1..v2` as the first argument (when no such file exists): the two revisions to compare.
    var range: (since: String, until: String)? {
        guard let first = files.first, !FileManager.default.fileExists(atPath: first), let dots = first.range(of: "..") else { return nil }
        let old = String(first[..<dots.lowerBound]), new = String(first[dots.upperBound...])
        guard !old.isEmpty, !new.isEmpty, !new.hasPrefix(".") else { return nil }
        return (old, new)
    }

    func run() throws {
        let diffs: [CatalogDiff]
        if let range {
            diffs = try diffsSince(range.since, until: range.until, arguments: Array(files.dropFirst()))
        } else if let since {
            diffs = try diffsSince(since, until: until, arguments: files)
        } else {
            diffs = try diffFiles()
        }
        let result = DiffResult(diffs: diffs)
        let targets = try targets()
        for target in targets {
            var options = output
            options.output = target.path
            var stream = try ReportStream(options)
            target.format.reporter(color: target.path == nil && output.useColor, verbose: verbose).write(result, to: &stream)
            try stream.finish()
        }
        if !report.isEmpty, !targets.contains(where: { $0.path == nil }) {
            // Every report went to a file: the console gets the totals and where the reports went.
            let written = targets.compactMap { target in target.path.map { "\(target.format) \($0)" } }
            var console = StandardOutput(role: .console)
            print(DiffTextReporter.totals(result) + "\nreports: " + written.joined(separator: ", "), to: &console)
        }
        if exitCode, result.hasChanges { throw TallyExit.mismatches.code }
    }

    /// The reports asked for: every `--report`, and `--format`/`--output` (text to standard output
    /// when nothing is named).
    private func targets() throws -> [(format: DiffFormat, path: String?)] {
        var targets: [(format: DiffFormat, path: String?)] = try report.map { text in
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let format = DiffFormat(rawValue: parts[0].lowercased()) else {
                var message = "unknown report format \"\(parts[0])\" in --report \(text)"
                if let near = NearMatch.best(for: parts[0], among: DiffFormat.allCases.map(\.rawValue)) { message += "; did you mean \"\(near)\"?" }
                throw ValidationError(message + " (formats: \(DiffFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard parts.count == 2 else { return (format, nil) }
            guard !parts[1].isEmpty else { throw ValidationError("--report \(text) names no file after the ':'; write \(parts[0]):FILE, or \(parts[0]) alone for standard output") }
            return (format, parts[1] == "-" ? nil : parts[1])
        }
        if format != nil || output.output != nil || targets.isEmpty { targets.insert((format ?? .text, output.output), at: 0) }
        if targets.filter({ $0.path == nil }).count > 1 {
            throw ValidationError("only one report can go to standard output; give the others a file, e.g. --report html:build/diff.html")
        }
        let paths = targets.compactMap(\.path)
        if let twice = paths.first(where: { path in paths.filter { $0 == path }.count > 1 }) {
            throw ValidationError("two reports would be written to \(twice); give each its own file")
        }
        return targets
    }

    /// OLD against NEW; a side that is a folder (not one a reader reads whole, such as an App
    /// Store Connect export) stands for the source files directly in it, compared as a whole.
    private func diffFiles() throws -> [CatalogDiff] {
        let old = try DiffInput(parsing: files[0]), new = try DiffInput(parsing: files[1])
        let oldFolder = try folderInputs(old), newFolder = try folderInputs(new)
        guard oldFolder != nil || newFolder != nil else {
            let catalogs = try DiffReading.read([old, new], options: input)
            guard let before = catalogs[0], let after = catalogs[1] else { throw TallyExit.usageOrInput.code }
            return [CatalogDiffer().diff(old: before, new: after)]
        }
        // Files are the same file on both sides by their name inside the folder.
        let oldInputs = oldFolder ?? [(name: (old.path as NSString).lastPathComponent, input: old)]
        let newInputs = newFolder ?? [(name: (new.path as NSString).lastPathComponent, input: new)]
        let catalogs = try DiffReading.read(oldInputs.map(\.input) + newInputs.map(\.input), options: input)
        let olds = Array(zip(oldInputs.map(\.name), catalogs.prefix(oldInputs.count).compactMap { $0 }))
        let news = Array(zip(newInputs.map(\.name), catalogs.suffix(newInputs.count).compactMap { $0 }))
        let format = input.inputFormat
        let roles = [SourceRole.configuration, .catalog]
        func has(_ side: [(String, Catalog)], _ role: SourceRole) -> Bool { side.contains { DiffSince.role(of: $0.0, format) == role } }
        // One set a side when each side is of one kind (a configuration against a catalogue
        // compares across formats); configurations and catalogues apart when a side holds both.
        let split = roles.filter { has(olds, $0) }.count > 1 || roles.filter { has(news, $0) }.count > 1
        let groups: [SourceRole?] = split ? roles.filter { has(olds, $0) || has(news, $0) } : [nil]
        return groups.map { role in
            let before = olds.filter { role == nil || DiffSince.role(of: $0.0, format) == role }
            let after = news.filter { role == nil || DiffSince.role(of: $0.0, format) == role }
            let model = after.first?.1 ?? before.first?.1
            func set(_ side: [(String, Catalog)], _ label: String) -> CatalogSet {
                CatalogSet(label: label, side.map(\.1), paths: side.map(\.0),
                           format: model?.format ?? .tallyCatalogYAML, territory: model?.defaultTerritory ?? .usa)
            }
            return CatalogDiffer().diff(old: set(before, oldFolder == nil ? old.label : Self.folderLabel(old)),
                                        new: set(after, newFolder == nil ? new.label : Self.folderLabel(new)))
        }
    }

    /// Prints `tally: message` to standard error; the error to throw (exit 2, without the usage).
    private static func fail(_ message: String) -> ExitCode {
        var standardError = StandardError()
        print("tally: \(message)", to: &standardError)
        return TallyExit.usageOrInput.code
    }

    /// `old/` for a folder side.
    private static func folderLabel(_ input: DiffInput) -> String {
        input.path.hasSuffix("/") ? input.path : input.path + "/"
    }

    /// The source files directly in a folder side, by name, or nil when the side is a file or a
    /// folder one reader reads whole.
    private func folderInputs(_ side: DiffInput) throws -> [(name: String, input: DiffInput)]? {
        var isDirectory: ObjCBool = false
        guard side.revision == nil, FileManager.default.fileExists(atPath: side.path, isDirectory: &isDirectory), isDirectory.boolValue,
              !SourceLoader.isDirectorySource(side.path, format: input.inputFormat) else { return nil }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: side.path)) ?? []).sorted().filter { name in
            var folder: ObjCBool = false
            let path = (side.path as NSString).appendingPathComponent(name)
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: path, isDirectory: &folder) && !folder.boolValue
                && (input.inputFormat != nil || SourceLoader.isSourceFile(name))
        }
        guard !names.isEmpty else {
            throw Self.fail("'\(side.path)' is a folder with no source files Tally reads directly in it")
        }
        return names.map { (name: $0, input: DiffInput(path: (side.path as NSString).appendingPathComponent($0))) }
    }

    /// Every set of sources (configurations, catalogues) against itself at `revision`, each as a whole.
    private func diffsSince(_ revision: String, until: String?, arguments: [String]) throws -> [CatalogDiff] {
        let plan: DiffSince.Plan
        let since: DiffSince
        do {
            since = try DiffSince(revision: revision, until: until)
            plan = try since.plan(arguments: arguments, format: input.inputFormat, readsAll: try input.mappingChoice().general != nil)
        } catch let failure as GitRevision.Failure {
            var standardError = StandardError()
            print("tally: \(failure.message)", to: &standardError)
            throw TallyExit.usageOrInput.code
        } catch let error as FormatError {
            var standardError = StandardError()
            print(Diagnostics.text(error), to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        var standardError = StandardError()
        for note in plan.skipped { print(note, to: &standardError) }
        guard !plan.sets.isEmpty else {
            throw Self.fail("no catalogue sources in \(plan.origin), \(until.map { "at \($0)" } ?? "here") or at \(revision); name the files or folders to compare")
        }
        // Every file that exists on a side, read at once.
        var inputs: [DiffInput] = []
        var slot: [String: Int] = [:]
        for set in plan.sets {
            for file in set.files {
                if set.old.contains(file) {
                    slot["old:" + file] = inputs.count
                    var old = DiffInput(path: since.here(file), revision: revision, display: file)
                    old.mapping = plan.mappings[file].map(since.here)
                    inputs.append(old)
                }
                if set.new.contains(file) {
                    slot["new:" + file] = inputs.count
                    var new = DiffInput(path: since.here(file), revision: until, display: file)
                    new.mapping = plan.mappings[file].map(since.here)
                    inputs.append(new)
                }
            }
        }
        let catalogs = try DiffReading.read(inputs, options: input)
        func catalog(_ side: String, _ file: String) -> Catalog? { slot[side + file].flatMap { catalogs[$0] } }
        var diffs: [CatalogDiff] = []
        for set in plan.sets {
            let oldFiles = set.files.filter { catalog("old:", $0) != nil }, newFiles = set.files.filter { catalog("new:", $0) != nil }
            let olds = oldFiles.compactMap { catalog("old:", $0) }, news = newFiles.compactMap { catalog("new:", $0) }
            let model = news.first ?? olds.first
            let format = model?.format ?? .tallyCatalogYAML, territory = model?.defaultTerritory ?? .usa
            func label(_ catalogs: [Catalog], _ at: String?) -> String {
                let names = catalogs.isEmpty ? set.files.filter { set.old.contains($0) || set.new.contains($0) } : catalogs.map(\.file)
                return catalogs.isEmpty ? names.map { name in at.map { "\(name)@\($0)" } ?? name }.joined(separator: ", ") : names.joined(separator: ", ")
            }
            let old = CatalogSet(label: label(olds, revision), olds, paths: oldFiles, format: format, territory: territory)
            let new = CatalogSet(label: label(news, until), news, paths: newFiles, format: format, territory: territory)
            if old.duplicates.isEmpty, new.duplicates.isEmpty {
                diffs.append(CatalogDiffer().diff(old: old, new: new))
                continue
            }
            // The same product in several files of a side (one configuration per storefront):
            // each file is compared with itself.
            for file in set.files {
                let before = catalog("old:", file), after = catalog("new:", file)
                guard let other = before ?? after else { continue }
                func empty(_ at: String?) -> Catalog {
                    Catalog(file: at.map { "\(file)@\($0)" } ?? file, format: other.format, defaultTerritory: other.defaultTerritory)
                }
                diffs.append(CatalogDiffer().diff(old: before ?? empty(revision), new: after ?? empty(until),
                                                  oldAbsent: before == nil, newAbsent: after == nil))
            }
        }
        return diffs
    }
}

extension DiffFormat: ExpressibleByArgument {}
