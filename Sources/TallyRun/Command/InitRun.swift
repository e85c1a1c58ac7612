import TallyConfig
import TallyModel

/// `tally init` as its flags ask for it: `--force` (replace an existing `.tally.yml`) and
/// `--print` (print the starter file instead of writing it).
public struct InitRequest: Sendable, Hashable {
    public var force: Bool
    public var print: Bool

    public init(force: Bool = false, print: Bool = false) {
        self.force = force
        self.print = print
    }
}

/// `tally init`, whole: looks for the sources below the current directory, and prints or writes
/// the starter `.tally.yml` naming them, with what it found on the console.
public enum InitRun {
    public static func perform(_ request: InitRequest) throws(Stop) {
        let path = PolicyFile.defaultName
        if !request.print && !request.force && PolicyFile.defaultExists() {
            throw .message("\(path) already exists; use --force to replace it, or --print to see a fresh starter file")
        }
        let found = PolicyTemplate.scan()
        let text = PolicyTemplate.render(PolicyTemplate.detect(found))
        let console = CommandConsole.shared
        if request.print {
            return console.out(text, .verdict)
        }
        // A policy naming nothing would make the next 'tally check' an input error.
        guard found.hasSources else { return console.out(found.nothingFoundLines.map { $0 + "\n" }.joined(), .console) }
        try ReportFile.writeOrExit(text, to: path, what: "the policy file", regularOnly: true)
        console.out(found.summaryLines(wrote: path).map { $0 + "\n" }.joined(), .console)
    }
}
