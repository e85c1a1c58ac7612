import ArgumentParser
import Foundation
import TallyFormats
import TallyModel
import TallyReport
import TallyRun

/// The `tally` command: checks that in-app-purchase product configurations agree.
@main
struct Tally: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Keep in-app-purchase product catalogues consistent.",
        discussion: """
        Tally reads \(SourceFormat.listedForPeople), normalises them into one product \
        model and reports every mismatch: missing products, kinds, prices, periods, offers, groups \
        and levels. Fields a source does not know are skipped, and the report says so.

        Reports: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (check, lint); \
        \(DiffFormat.allCases.map(\.rawValue).joined(separator: ", ")) (diff).

        Exit codes: 0 consistent, 1 mismatches found, 2 usage or input error.

        Examples:
          tally init --print   # a starter .tally.yml (tally init writes it)
          tally check                     # the sources in .tally.yml
          tally check configs/ExampleApp.storekit catalog/products.yaml \\
              --format junit --output build/tally.xml
          tally check --report text --report sarif:build/tally.sarif
          tally check configs/ExampleApp.storekit examples/server/products.json \\
              --mapping examples/server/tally-mapping.yml
          tally check configs/ExampleApp.storekit examples/app-store/metadata.xml \\
              --price-tiers examples/app-store/tiers.csv
          tally diff catalog/products.yaml@HEAD~1 catalog/products.yaml
          tally show configs/ExampleApp.storekit --format json
          tally fetch app-store-connect --app 1600000001 --output asc/
          tally convert configs/ExampleApp.storekit --to tally-catalog-yaml \\
              -o build/products.yaml
          tally lint catalog/products.yaml
          tally explain intro-offer
        """,
        version: BuildVersion.description,
        subcommands: [CheckCommand.self, ShowCommand.self, ConvertCommand.self, LintCommand.self, DiffCommand.self, RulesCommand.self, ExplainCommand.self,
                      InitCommand.self, FetchCommand.self],
        defaultSubcommand: nil
    )

    /// Parses and runs; every way out goes through here. The exit is read from what the command
    /// said and its verdict (`ExitStatus.ending`): an error in the diagnostics stream (a usage
    /// error, a file it could not read, a report or standard output it could not write) ends it
    /// with 2, whatever it found. `tally fetch`'s commands are async (a fetch is a task that a
    /// signal cancels); the others run as they are, on the main thread.
    @MainActor static func main() async {
        Descriptor.claimStandardStreams()
        // The commands' runs (TallyRun) write standard output and standard error through the console.
        CommandConsole.install(Console.commandConsole)
        var verdict: ExitStatus?
        // The run's outcome, held until the process exits: unwinding would free a large model,
        // which costs time and shows nothing.
        var kept: Verdict?
        do {
            // argv as bytes: a file name that is not UTF-8 stays openable (see RawArguments).
            let parsed = try parseAsRoot(RawArguments.arguments)
            if var command = parsed as? AsyncParsableCommand {
                try await command.run()
            } else {
                var command = parsed
                try command.run()
            }
        } catch let ended as Verdict {
            (verdict, kept) = (ended.status, ended)
        } catch let stop as Stop {
            if case .usage(let message) = stop {
                // Found once the command ran, said as ArgumentParser says a validation error.
                parsingFailed(ValidationError(message))
            } else {
                Diagnostics.emit(stop.diagnostics)
                if case .interrupted(let signal, _) = stop { Console.exit(128 + signal) }
                verdict = .usageOrInput
            }
        } catch let exit as ExitCode {
            Console.exit(exit.rawValue)
        } catch {
            parsingFailed(error)
        }
        withExtendedLifetime(kept) {
            Console.exit(ExitStatus.ending(verdict: verdict, said: Diagnostics.log.all).rawValue)
        }
    }

    /// An error ArgumentParser reports: `--help` and `--version` (the text is the output), or its
    /// usage message as it writes it, in the stream as an error.
    @MainActor static func parsingFailed(_ error: any Error) {
        if exitCode(for: error) == .success {
            Console.out(fullMessage(for: error) + "\n")
        } else {
            Diagnostics.log.append(Diagnostic(.error, message(for: error)))
            Console.err(fullMessage(for: error) + "\n", essential: true)
        }
    }
}

/// Tally's exit codes: `TallyRun`'s exit status, which every run ends with.
typealias TallyExit = ExitStatus

extension ExitStatus {
    var code: ExitCode { ExitCode(rawValue) }
}
