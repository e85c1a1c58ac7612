import TallyConvert
import TallyFetch
import TallyModel
import TallyReport

/// `tally show` as its flags ask for it: the files (one source, or code files read together as
/// one), the format and where to write it.
public struct ShowRequest: Sendable {
    public var sources: SourceRequest
    /// `--format json`: stable JSON, written product by product; else a table for people.
    public var json: Bool
    /// `--output FILE`, or nil for standard output.
    public var output: String?

    public init(sources: SourceRequest, json: Bool = false, output: String? = nil) {
        self.sources = sources
        self.json = json
        self.output = output
    }
}

/// `tally show`, whole: reads the source and writes it.
public enum ShowRun {
    public static func perform(_ request: ShowRequest) throws(Stop) {
        let catalogs = try request.sources.readAll(outcome: "nothing was shown")
        // Code files are one source; anything else is shown one file at a time.
        guard let catalog = catalogs.first else { throw .run(.noSources, outcome: "nothing was shown") }
        guard catalogs.count == 1 else {
            throw .usage("show reads one source: \(catalogs.map { SafeText.line($0.file) }.joined(separator: ", ")) are \(catalogs.count); "
                         + "several files are one source only when they are all code (run show once for each of the others)")
        }
        let file = request.sources.arguments[0]
        if !request.json {
            // A `tally fetch` snapshot: what was fetched, when and from where, above the table.
            let snapshot = SnapshotManifest.read(folder: file).map { "snapshot: \($0.summary)\n\n" } ?? ""
            // A table for people, made safe for a terminal and a CI log (`SafeText.block`).
            let text = SafeText.block(snapshot + CatalogTable.render(catalog))
            guard let output = request.output else { return CommandConsole.shared.out(text.hasSuffix("\n") ? text : text + "\n", .verdict) }
            return try ReportFile.writeOrExit(text, to: output)
        }
        // Written product by product (a catalogue of hundreds of megabytes is never held as text).
        let destination = try StreamedOutput.opened(request.output, what: "the report")
        var sink = destination.sink()
        CatalogJSON.write(catalog, to: &sink)
        sink.finish()
        try destination.commit(what: "the report")
    }
}

/// `tally convert` as its flags ask for it: the source, what to write and where.
public struct ConvertRequest: Sendable {
    public var source: SourceRequest
    public var options: ConvertOptions
    /// `-o FILE`, or nil for standard output.
    public var output: String?

    public init(source: SourceRequest, options: ConvertOptions, output: String? = nil) {
        self.source = source
        self.options = options
        self.output = output
    }
}

/// `tally convert`, whole: reads the source, writes it as the target, and says what the target
/// could not hold and what was written.
public enum ConvertRun {
    public static func perform(_ request: ConvertRequest) throws(Stop) {
        guard let catalog = try request.source.readAll(outcome: "nothing was converted").first else {
            throw .run(.noSources, outcome: "nothing was converted")
        }
        let options = request.options
        let output = options.outputPath(request.output)
        if let refusal = Converter.refusal(catalog, options: options) {
            throw .message("error: \(refusal); nothing was converted")
        }
        // Written as it is made; what the target could not hold is said once the file is complete.
        let destination = try StreamedOutput.opened(output, what: "the converted file")
        var sink = destination.sink()
        let notes = Converter.write(catalog, options: options, to: &sink)
        sink.finish()
        for note in notes { Diagnostics.note("note: \(note)") }
        try destination.commit(what: "the converted file")
        if let output {
            Diagnostics.note("wrote \(output) (\(options.target), \(catalog.products.count) product\(catalog.products.count == 1 ? "" : "s"))")
        }
    }
}
