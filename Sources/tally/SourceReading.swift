import Foundation
import TallyConfig
import TallyFormats
import TallyModel
import TallyRun

/// How the command line shows what `TallyRun` reports: failures with their remedies as flags,
/// progress on a terminal. Every command that reads sources goes through here.
enum Diagnostics {
    /// A remedy in the command line's words.
    static func flag(_ remedy: Remedy) -> String {
        switch remedy {
        case .raiseInputLimit: "raise it with --max-input-mb"
        case .raiseDepthLimit: "raise it with --max-depth"
        case .useMapping: "describe it with a tally-mapping/1 file and pass --mapping FILE (docs/mapping-format.md)"
        case .nameInputFormat: "use --input-format to name it"
        case .readAsStoreKit: "use --input-format storekit"
        case .writeBaseline: "write it again with 'tally check --write-baseline FILE'"
        case .givePriceTiers: "give --price-tiers FILE"
        case .givePlayDefaultTerritory: "name it with --play-default-territory (and --play-default-currency)"
        case .nameReportApp: "name it with --report-app NAME (its APP_NAME or APP_APPLE_ID)"
        }
    }

    /// A format error as the command line prints it.
    static func text(_ error: FormatError) -> String {
        error.rendered(remedy: flag)
    }

    /// Runs a stage; a failure stops the command (`main` prints it and exits 2).
    /// - Parameter outcome: what did not happen because of it ("nothing was checked").
    static func orExit<T>(_ outcome: String = "nothing was checked", _ body: () throws(RunFailure) -> T) throws(Stop) -> T {
        do {
            return try body()
        } catch {
            throw .run(error, outcome: outcome)
        }
    }

    static func report(_ failure: RunFailure, outcome: String) {
        var standardError = StandardError()
        switch failure {
        case .unreadable(let errors):
            for error in errors { print(text(error), to: &standardError) }
            let noun = errors.count == 1 ? "source" : "sources"
            print("tally: \(errors.count) \(noun) could not be read; \(outcome)", to: &standardError)
        case .policy(let error):
            print(text(error), to: &standardError)
        case .usage(let message):
            print("tally: \(message)", to: &standardError)
        case .noSources:
            print("tally: no sources given, no .tally.yml with sources, and no configs/*.{storekit,plist} or catalog/* files here. Name the files to compare (e.g. 'tally check configs/ExampleApp.storekit catalog/products.yaml') or run 'tally init'.",
                  to: &standardError)
        case .revision(let error):
            print("tally: \(error.message)\(error.remedy.map { " (\(flag($0)))" } ?? "")", to: &standardError)
        }
    }

    /// Prints the run's warnings about its own settings.
    static func warn(_ notices: [RunNotice]) {
        var standardError = StandardError()
        for notice in notices { print(notice.description, to: &standardError) }
    }

    /// Progress on standard error, only for large files and only on a terminal.
    static let progress: RunEvents = { event in
        guard case .reading(let path, let bytes?) = event, bytes >= progressThreshold, isatty(STDERR_FILENO) == 1 else { return }
        var standardError = StandardError()
        print("tally: reading \(path) (\(bytes / 1_048_576) MB)…", to: &standardError)
    }

    static let progressThreshold = 8 * 1024 * 1024
}

/// Reads sources a command names on its own (show, convert, lint), through `TallyRun`.
enum SourceReading {
    static func readAll(_ paths: [String], options: SourceOptions, outcome: String = "nothing was checked") throws -> [Catalog] {
        let set = try options.sourceSet(arguments: paths, policy: nil, outcome: outcome)
        let readOptions = try options.readOptions(consequence: outcome)
        let catalogs = try Diagnostics.orExit(outcome) { () throws(RunFailure) in
            try set.read(format: options.inputFormat, options: readOptions, events: Diagnostics.progress)
        }
        DroppedValues.warn(about: catalogs)
        return catalogs
    }
}

/// Values the readers could not take, on standard error with file and line: every command that
/// reads sources (check, lint, show, diff, convert) calls this once, after reading them.
enum DroppedValues {
    /// How many are listed per source before the rest is counted.
    static let shown = 20

    static func warn(about catalogs: [Catalog]) {
        var standardError = StandardError()
        for catalog in catalogs {
            let dropped = catalog.droppedValues
            for value in dropped.prefix(shown) { print(value.description(remedy: Diagnostics.flag), to: &standardError) }
            if dropped.count > shown {
                print("\(catalog.file): warning: \(dropped.count - shown) more values were not taken ('tally lint \(catalog.file)' lists them all)",
                      to: &standardError)
            }
            if let note = hiddenNote(catalog) { print(note, to: &standardError) }
        }
    }

    /// `play.csv: note: 5 products were left out by state (5 INACTIVE): only products for sale
    /// count; --include-state INACTIVE shows them (--include-state ALL shows every product)`.
    static func hiddenNote(_ catalog: Catalog) -> String? {
        let hidden = catalog.hiddenByState.filter { $0.value > 0 }
        guard !hidden.isEmpty else { return nil }
        let total = hidden.values.reduce(0, +)
        let states = hidden.sorted { $0.key < $1.key }
        let counts = states.map { "\($0.value) \($0.key.isEmpty ? "without a state" : $0.key)" }.joined(separator: ", ")
        let flags = states.map { $0.key }.filter { ProductStates.normalise($0) != nil }.map { "--include-state \($0)" }
        let show = flags.isEmpty ? "--include-state ALL shows them" : "\(flags.joined(separator: " ")) shows them (--include-state ALL shows every product)"
        return "\(catalog.file): note: \(total) product\(total == 1 ? " was" : "s were") left out by state (\(counts)): only products for sale count; \(show)"
    }
}
