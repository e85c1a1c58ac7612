import ArgumentParser
import TallyReport
import TallyRun

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
          tally diff catalog/products.yaml examples/finance/prices.csv \\
              --format markdown --output diff.md
          tally diff configs/ catalog/
          tally diff --since main --exit-code
          tally diff --since HEAD catalog/ --format release-notes
          tally diff --since HEAD --format html --output build/diff.html
          tally diff --since HEAD~1 configs/ExampleApp.storekit --format json \\
              --output diff.json
          tally diff --since HEAD~1 --until HEAD
          tally diff HEAD~1..HEAD --report text:build/diff.txt \\
              --report html:build/diff.html --report release-notes:build/notes.md
        """
    )

    @Argument(help: ArgumentHelp("OLD and NEW (a file, FILE@REV or a folder); with --since (or REV..REV2 first), the files or folders to compare (default: the policy's sources, or configs/ and catalog/).",
                                 valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare the sources (the policy's, the default folders', or the FILEs named) with themselves at this git revision.", valueName: "rev"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("With --since: compare with the sources as they are at this revision, not with the working tree ('tally diff OLD..NEW' says both at once).", valueName: "rev"))
    var until: String?

    @Flag(name: .long, help: "List every price row and every attention item instead of summarising large sweeps.")
    var verbose = false

    @Flag(name: .customLong("exit-code"), help: "Exit with 1 when there are changes (0 when there are none).")
    var exitCode = false

    @OptionGroup var input: SourceOptions

    @OptionGroup var reports: ReportOptions<DiffFormat>

    /// What was asked, as `TallyRun` takes it.
    var request: DiffRequest { DiffRequest(files: files, since: since, until: until) }

    func validate() throws {
        try Usage.checked { () throws(RunFailure) in try request.validate() }
    }

    func run() throws {
        // The totals on the console only when reports were named with --report.
        throw try DiffRun.perform(DiffCommandRequest(diff: request, sources: input.request(files), reports: reports.request, verbose: verbose,
                                                     failsOnChanges: exitCode, consoleSummary: !reports.report.isEmpty))
    }
}

extension DiffFormat: ExpressibleByArgument {}
