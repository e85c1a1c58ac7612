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
        a file, or FILE@REV for the file as it was at a git revision (read with 'git show'). \
        With --since REV, every catalogue source in the repository (configs/ and catalog/ here, or \
        the FILEs named) is compared with itself at REV; a file added or deleted since then shows \
        every product added or removed.

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
        change (docs/diff-json.md); Markdown fits a pull-request comment or release notes; HTML is \
        one self-contained page (no scripts, nothing from the network) to keep as a CI artefact. \
        --output creates missing folders and writes the report atomically.

        Exit codes (like git diff): 0, also when there are changes; with --exit-code, 1 when \
        there are changes; 2 on usage or input errors.

        Examples:
          tally diff configs/ExampleApp.storekit catalog/products.yaml
          tally diff configs/ExampleApp.storekit@HEAD~1 configs/ExampleApp.storekit
          tally diff catalog/products.yaml@HEAD~1 catalog/products.yaml
          tally diff catalog/products.yaml examples/finance/prices.csv --format markdown --output diff.md
          tally diff --since main --exit-code
          tally diff --since HEAD --format html --output build/diff.html
          tally diff --since HEAD~1 configs/ExampleApp.storekit --format json --output diff.json
        """
    )

    @Argument(help: ArgumentHelp("OLD and NEW (a file or FILE@REV); with --since, the files to compare (default: configs/ and catalog/).",
                                 valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare every catalogue source (or each FILE) with itself at this git revision.", valueName: "rev"))
    var since: String?

    @Option(name: .long, help: "Report format: \(DiffFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: DiffFormat = .text

    @Flag(name: .long, help: "List every price row and every attention item instead of summarising large sweeps.")
    var verbose = false

    @Flag(name: .customLong("exit-code"), help: "Exit with 1 when there are changes (0 when there are none).")
    var exitCode = false

    @OptionGroup var input: SourceOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if since == nil, files.count != 2 {
            throw ValidationError("tally diff needs OLD and NEW (got \(files.count) file\(files.count == 1 ? "" : "s")), e.g. 'tally diff old.storekit new.storekit', or --since REV.")
        }
        if since?.isEmpty == true { throw ValidationError("--since needs a git revision, e.g. --since HEAD~1") }
    }

    func run() throws {
        let pairs = try since.map(pairsSince) ?? [(try DiffInput(parsing: files[0]), try DiffInput(parsing: files[1]))]
        let catalogs = try DiffReading.read(pairs.flatMap { [$0.old, $0.new] }, options: input)
        var diffs: [CatalogDiff] = []
        for (index, pair) in pairs.enumerated() {
            let old = catalogs[2 * index], new = catalogs[2 * index + 1]
            guard let other = old ?? new else {
                var standardError = StandardError()
                print("\(pair.new.path): error: the file exists neither here nor at \(pair.old.revision ?? "the revision")", to: &standardError)
                throw TallyExit.usageOrInput.code
            }
            func empty(_ input: DiffInput) -> Catalog {
                Catalog(file: input.label, format: other.format, defaultTerritory: other.defaultTerritory)
            }
            diffs.append(CatalogDiffer().diff(old: old ?? empty(pair.old), new: new ?? empty(pair.new),
                                              oldAbsent: old == nil, newAbsent: new == nil))
        }
        let result = DiffResult(diffs: diffs)
        var stream = try ReportStream(output)
        format.reporter(color: output.useColor, verbose: verbose).write(result, to: &stream)
        try stream.finish()
        if exitCode, result.hasChanges { throw TallyExit.mismatches.code }
    }

    /// Each named file (or every catalogue source now or at `revision`) against itself at `revision`.
    private func pairsSince(_ revision: String) throws -> [(old: DiffInput, new: DiffInput)] {
        do {
            try GitRevision.verify(revision)
            var paths = files
            if paths.isEmpty {
                let now = Self.folders.flatMap { folder in
                    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { "\(folder)/\($0)" }
                }
                paths = Array(Set(now + (try GitRevision.files(in: Self.folders, at: revision))).filter(Self.isSource)).sorted()
            }
            guard !paths.isEmpty else {
                throw ValidationError("no catalogue sources in configs/ or catalog/ here or at \(revision); name the files to compare.")
            }
            return try paths.map { path in
                guard try DiffInput(parsing: path).revision == nil else {
                    throw ValidationError("with --since, name plain files ('\(path)' names a revision)")
                }
                return (DiffInput(path: path, revision: revision, mayBeAbsent: true), DiffInput(path: path, mayBeAbsent: true))
            }
        } catch let failure as GitRevision.Failure {
            var standardError = StandardError()
            print("tally: \(failure.message)", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
    }

    /// The folders `--since` looks in, as `tally check` does.
    static let folders = ["configs", "catalog"]

    /// A file directly in configs/ or catalog/ with an extension some reader claims.
    static func isSource(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        return folders.contains(folder) && !name.hasPrefix(".") && SourceLoader.isSourceFile(name)
    }
}

extension DiffFormat: ExpressibleByArgument {}
