import TallyConfig
import TallyFormats
import TallyModel

/// The sources a command reads, as its flags say: the files named (none: the policy's, or the
/// default folders), `--input-format` and the reader settings (`ReadSettings`).
public struct SourceRequest: Sendable {
    public var arguments: [String]
    public var format: SourceFormat?
    public var settings: ReadSettings
    /// The bytes an argument was given as, when they are not UTF-8 (the CLI's `RawArguments`):
    /// such a file is opened with them.
    public var rawName: @Sendable (String) -> [UInt8]?

    public init(arguments: [String], format: SourceFormat? = nil, settings: ReadSettings = ReadSettings(),
                rawName: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }) {
        self.arguments = arguments
        self.format = format
        self.settings = settings
        self.rawName = rawName
    }

    /// The reader settings asked for; a mapping file or price-tier table that cannot be read
    /// stops the command like an unreadable source, ending with `consequence`.
    func readOptions(consequence: String = "nothing was checked") throws(Stop) -> ReadOptions {
        try Diagnostics.orExit(consequence) { () throws(RunFailure) in try settings.readOptions(noteInput: RunFiles.shared.noteInput) }
    }

    /// `--mapping` as the source set takes it (the command validated it).
    func mappingChoice(outcome: String = "nothing was checked") throws(Stop) -> SourceSet.MappingChoice {
        try Diagnostics.orExit(outcome) { () throws(RunFailure) in try settings.mappingChoice() }
    }

    /// The files a command reads: the arguments, else the policy's sources, else configs/ and
    /// catalog/ here; a stop (exit 2) when there are none or the policy's globs fail.
    func sourceSet(policy: PolicyFile?, outcome: String = "nothing was checked") throws(Stop) -> SourceSet {
        let choice = try mappingChoice(outcome: outcome)
        let set = try Diagnostics.orExit(outcome) { () throws(RunFailure) in
            try SourcePlanner.sources(arguments: arguments, policy: policy, mapping: choice, format: format)
        }
        guard var set else {
            throw .run(.noSources, outcome: outcome)
        }
        // A file name that is not UTF-8 is opened with the bytes given.
        for index in set.entries.indices { set.entries[index].rawName = rawName(set.entries[index].path) }
        // What the run reads, so that no output of it can be written over one (`RunFiles`).
        for entry in set.entries where entry.revision == nil {
            RunFiles.shared.noteInput(set.location(of: entry.path))
            if let mapping = entry.mapping { RunFiles.shared.noteInput(set.location(of: mapping)) }
        }
        return set
    }

    /// Reads the sources a command names on its own (show, convert), the stream told of what
    /// reading left out.
    func readAll(outcome: String) throws(Stop) -> [Catalog] {
        let set = try sourceSet(policy: nil, outcome: outcome)
        let readOptions = try readOptions(consequence: outcome)
        let catalogs = try Diagnostics.orExit(outcome) { () throws(RunFailure) in
            try set.read(format: format, options: readOptions, events: Diagnostics.progress)
        }
        Diagnostics.readingDone(catalogs)
        return catalogs
    }
}

/// Which policy file a command uses (`--config FILE`, `--no-config`, else the nearest `.tally.yml`).
public struct PolicyChoice: Sendable, Hashable {
    public var config: String?
    public var noConfig: Bool

    public init(config: String? = nil, noConfig: Bool = false) {
        self.config = config
        self.noConfig = noConfig
    }

    /// The policy file, or nil when there is none (or --no-config); a stop (exit 2) on any problem in it.
    func load() throws(Stop) -> PolicyFile? {
        if noConfig { return nil }
        let policy: PolicyFile?
        do {
            policy = try SourcePlanner.policy(named: config)
        } catch let error as FormatError {
            throw .diagnostics(error.diagnostics)
        } catch {
            throw .message("error: \(error)")
        }
        if let policy { RunFiles.shared.noteInput(policy.file) }
        return policy
    }
}
