import Testing
import TallyModel
import TallyReport
@testable import TallyRun

/// What a command asks for, checked in `TallyRun` (the CLI only maps its flags onto these):
/// reader settings, where reports go, what `diff` compares.
@Suite struct CommandRequestTests {
    static func usage(_ body: () throws -> Void) -> String? {
        do { try body() } catch let failure as RunFailure {
            if case .usage(let message) = failure { return message }
            return "\(failure)"
        } catch {
            return "\(error)"
        }
        return nil
    }

    @Test func readSettingsRefuseWhatCannotBeUsedNamingTheFlag() {
        var settings = ReadSettings()
        #expect(Self.usage { try settings.validate() } == nil)
        settings.includeStates = ["SOLD_OUT"]
        #expect(Self.usage { try settings.validate() }?.hasPrefix("--include-state SOLD_OUT is not a state Tally knows") == true)
        settings.includeStates = ["inactive"]
        settings.playDefaultCurrency = "USD"
        #expect(Self.usage { try settings.validate() } == "--play-default-currency needs --play-default-territory: a price is read as one territory's price")
        settings.playDefaultTerritory = "U S"
        #expect(Self.usage { try settings.validate() }?.contains("is not a territory") == true)
        settings.playDefaultTerritory = "us"
        #expect(Self.usage { try settings.validate() } == nil)
        #expect(Self.usage { _ = try ReadSettings.number("0", in: ReadSettings.depth, of: "levels") } == "give a whole number of levels from 1 to \(ReadSettings.depth.upperBound)")
    }

    @Test func readSettingsBecomeReadOptions() throws {
        var settings = ReadSettings()
        settings.maxInputMegabytes = 3
        settings.includeStates = ["inactive"]
        settings.playDefaultTerritory = "US"
        settings.playDefaultCurrency = "usd"
        var noted: [String] = []
        let options = try settings.readOptions { noted.append($0) }
        #expect(options.maxBytes == 3 * 1024 * 1024)
        #expect(options.playDefaultTerritory == Territory("USA"))
        #expect(options.playDefaultCurrency == "USD")
        #expect(!options.includeStates.isEmpty)
        #expect(noted.isEmpty)
    }

    @Test func aMissingMappingFileIsAFileThatCouldNotBeRead() {
        var settings = ReadSettings()
        settings.mapping = ["/nonexistent/tally-mapping.yml"]
        var noted: [String] = []
        do {
            _ = try settings.readOptions { noted.append($0) }
            Issue.record("a missing mapping file was read")
        } catch {
            guard case .needed(_, let what) = error else { Issue.record("\(error)"); return }
            #expect(what == "the mapping file")
            #expect(error.diagnostics(outcome: "nothing was checked").last?.message == "the mapping file could not be read; nothing was checked")
        }
        #expect(noted == ["/nonexistent/tally-mapping.yml"])
    }

    @Test func reportTargetsParseAndRefuseTwoOnStandardOutput() throws {
        let targets = try ReportTargets<ReportFormat>(format: nil, output: nil, reports: ["text", "junit:build/t.xml"], environment: [:])
        #expect(targets.all == [ReportTarget(format: .text, path: nil), ReportTarget(format: .junit, path: "build/t.xml")])
        #expect(targets.listsPassingChecks)
        #expect(!targets.allToFiles)
        let two = try ReportTargets<ReportFormat>(format: nil, output: nil, reports: ["text", "json"], environment: [:])
        #expect(Self.usage { try two.validate() }?.hasPrefix("only one report can go to standard output") == true)
        #expect(Self.usage { _ = try ReportTarget<ReportFormat>.parse("jnuit:x.xml") }?.contains("did you mean \"junit\"?") == true)
        #expect(Self.usage { _ = try ReportTarget<ReportFormat>.parse("sarif:") }?.contains("names no file after the ':'") == true)
        // None named: the standard format, GitHub annotations on GitHub Actions.
        let standard = try ReportTargets<ReportFormat>(format: nil, output: nil, reports: [], environment: ["GITHUB_ACTIONS": "true"])
        #expect(standard.all == [ReportTarget(format: .github, path: nil)])
    }

    @Test func aDiffRequestSaysWhatDoesNotGoTogether() {
        #expect(Self.usage { try DiffRequest(files: ["a.storekit", "b.storekit"]).validate() } == nil)
        #expect(Self.usage { try DiffRequest(files: ["a.storekit"]).validate() }?.hasPrefix("tally diff needs OLD and NEW (got 1 file)") == true)
        #expect(Self.usage { try DiffRequest(files: [], until: "v2").validate() }?.hasPrefix("--until goes with --since") == true)
        #expect(Self.usage { try DiffRequest(files: ["v1..v2"], since: "v1").validate() }?.contains("names both revisions already") == true)
        #expect(Self.usage { try DiffRequest(files: [], since: "").validate() } == "--since needs a git revision, e.g. --since HEAD~1")
    }
}
