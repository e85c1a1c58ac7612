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

    /// Parses and runs, mapping every usage error to exit code 2 (not ArgumentParser's 64). Every
    /// way out goes through `Console.exit`, which turns an undelivered verdict into exit 2.
    /// `tally fetch`'s commands are async (a fetch is a task that a signal cancels); the others
    /// run as they are, on the main thread.
    @MainActor static func main() async {
        Descriptor.claimStandardStreams()
        do {
            // argv as bytes: a file name that is not UTF-8 stays openable (see RawArguments).
            let parsed = try parseAsRoot(RawArguments.arguments)
            if var command = parsed as? AsyncParsableCommand {
                try await command.run()
            } else {
                var command = parsed
                try command.run()
            }
            Console.exit(TallyExit.consistent.rawValue)
        } catch let verdict as Verdict {
            // The run's verdict: its reports are written; the outcome it keeps is never freed.
            Console.exit(verdict.status.rawValue)
        } catch let stop as Stop {
            Diagnostics.emit(stop.diagnostics)
            Console.exit(stop.exitCode)
        } catch let exit as ExitCode {
            Console.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version: the text is the output.
                Console.out(fullMessage(for: error) + "\n")
                Console.exit(code.rawValue)
            }
            Console.err(fullMessage(for: error) + "\n", essential: true)
            Console.exit(TallyExit.usageOrInput.rawValue)
        }
    }
}

/// Why a command ends without a verdict: `main` emits its diagnostics (`Diagnostics.emit`, the
/// one stream) and exits 2 (128 + the signal when interrupted). Commands throw it; none prints an
/// error and exits on its own.
enum Stop: Error {
    /// A stage of a run failed (sources, policy, revisions); `outcome` says what did not happen.
    case run(RunFailure, outcome: String)
    /// What stopped it, as diagnostics (`tally: MESSAGE`, `path: error: …`).
    case diagnostics([Diagnostic])
    /// A signal stopped the run (`tally fetch`): `tally: MESSAGE`, exit 128 + the signal.
    case interrupted(signal: Int32, message: String)

    /// `tally: MESSAGE`.
    static func message(_ message: String, remedy: Remedy? = nil) -> Stop {
        .diagnostics([Diagnostic(.error, message, remedy: remedy)])
    }

    /// A file the run needs could not be read: its errors, then `tally: WHAT could not be read; CONSEQUENCE`.
    static func unreadable(_ error: FormatError, what: String, consequence: String) -> Stop {
        .diagnostics(error.diagnostics + [Diagnostic(.error, "\(what) could not be read; \(consequence)")])
    }

    var exitCode: Int32 {
        if case .interrupted(let signal, _) = self { return 128 + signal }
        return TallyExit.usageOrInput.rawValue
    }

    var diagnostics: [Diagnostic] {
        switch self {
        case .run(let failure, let outcome): failure.diagnostics(outcome: outcome)
        case .diagnostics(let diagnostics): diagnostics
        case .interrupted(_, let message): [Diagnostic(.error, message)]
        }
    }
}

/// Tally's exit codes: `TallyRun`'s exit status, which every run ends with.
typealias TallyExit = ExitStatus

extension ExitStatus {
    var code: ExitCode { ExitCode(rawValue) }
}

/// How `check`, `lint` and `diff` end once their reports are written: thrown to `main`, the one
/// place that turns a status into an exit code. It holds the run's outcome so that unwinding does
/// not free a large model on the way out (that costs time and shows nothing); `main` exits with
/// it still held.
struct Verdict: Error {
    let status: ExitStatus
    let kept: [any Sendable]

    init(_ status: ExitStatus, keeping kept: any Sendable...) {
        self.status = status
        self.kept = kept
    }
}
