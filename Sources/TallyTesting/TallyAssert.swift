import Foundation
import TallyCheck
import TallyConfig
import TallyFormats
import TallyModel
import TallyRun

/// Catalogue consistency as a unit test, in Swift Testing or XCTest: the check runs, and every
/// finding that fails the gate becomes one test failure with its message, at the finding's
/// place in the source file.
///
/// ```swift
/// import Testing
/// import TallyTesting
///
/// @Test func productsAreConsistent() throws {
///     try TallyAssert.consistent(config: "configs/App.storekit", catalog: "catalog/products.yaml")
/// }
///
/// @Test func theRepositoryPolicyPasses() throws {
///     try TallyAssert.policy()   // .tally.yml: its sources, rules, ignores and baseline
/// }
/// ```
///
/// Relative paths are resolved from the package root: the nearest folder above the calling test
/// file that holds `Package.swift`, `.tally.yml` or `.git` (pass `root:` to choose another).
/// A file that cannot be read throws (with its line and column), so a broken source fails the
/// test too. Warnings become Swift Testing warnings (they do not fail the test) unless `strict`.
public enum TallyAssert {
    /// Compares one configuration with one catalogue.
    @discardableResult
    public static func consistent(
        config: String, catalog: String, policy: Policy = Policy(), strict: Bool = false, root: String? = nil,
        options: ReadOptions = ReadOptions(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> CheckResult {
        try consistent(configs: [config], catalogs: [catalog], policy: policy, strict: strict, root: root, options: options,
                       fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Compares every configuration with every catalogue.
    @discardableResult
    public static func consistent(
        configs: [String], catalogs: [String], policy: Policy = Policy(), strict: Bool = false, root: String? = nil,
        options: ReadOptions = ReadOptions(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> CheckResult {
        let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let base = root ?? PackageRoot.find(from: "\(filePath)")
        guard !configs.isEmpty, !catalogs.isEmpty else {
            throw TallyAssertError("name at least one StoreKit configuration and one catalogue")
        }
        // The same run as `tally check CONFIG CATALOG`: read, paired and gated by `CheckRun`.
        let run = CheckRun(sources: SourceSet((configs + catalogs).map { SourceSet.Entry($0) }, root: base),
                           policyFile: PolicyFile(file: PolicyFile.defaultName, policy: policy), baseline: .none,
                           options: options, recordsSubjects: true, strict: strict)
        let outcome = try orThrow { () throws(RunFailure) in try run.check() }
        record(outcome.gate, failBar: outcome.failBar, base: base, callSite: callSite)
        return outcome.result
    }

    /// Runs the check the repository's policy file describes: its sources (with their mappings),
    /// rules, ignores and baseline, through the same `CheckRun` as `tally check` with no
    /// arguments, so that both give the same findings.
    @discardableResult
    public static func policy(
        _ path: String = PolicyFile.defaultName, strict: Bool = false, root: String? = nil, options: ReadOptions = ReadOptions(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> CheckResult {
        let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let base = root ?? PackageRoot.find(from: "\(filePath)")
        let policyFile = try orThrow { () throws(RunFailure) -> PolicyFile in
            do {
                return try PolicyFile.read(bytes: SourceLoader.readBytes(path: absolute(path, base: base), maxBytes: PolicyFile.maxBytes, whose: "a policy file"), file: path)
            } catch {
                throw .policy((error as? FormatError) ?? FormatError("\(error)", file: path, position: .unknown))
            }
        }
        guard !policyFile.sources.isEmpty else { throw TallyAssertError("\(path) names no sources: add a 'sources:' list") }
        let outcome = try orThrow { () throws(RunFailure) -> RunOutcome in
            guard let sources = try SourcePlanner.sources(arguments: [], policy: policyFile, root: base) else { throw .noSources }
            return try CheckRun(sources: sources, policyFile: policyFile, options: options, recordsSubjects: true, strict: strict).check()
        }
        record(outcome.gate, failBar: outcome.failBar, base: base, callSite: callSite)
        return outcome.result
    }

    /// Runs a stage of the run; a failure becomes a `TallyAssertError` with every located error.
    static func orThrow<T>(_ body: () throws(RunFailure) -> T) throws(TallyAssertError) -> T {
        do {
            return try body()
        } catch {
            throw TallyAssertError(error)
        }
    }

    static func absolute(_ path: String, base: String) -> String {
        path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    }

    /// One failure per finding the run's `FailBar` fails (the value `tally check`'s exit status
    /// reads), one warning per other warning.
    static func record(_ outcome: GateOutcome, failBar: FailBar, base: String, callSite: CallSite) {
        let recorder = FailureRecorder.current
        for finding in outcome.result.findings {
            let failing = failBar.fails(finding)
            guard failing || finding.severity == .warning else { continue }
            let place = FailurePlace(finding, base: base)
            recorder.record(FailureText.message(finding), at: place, failing: failing, callSite: callSite)
        }
        // Baseline entries that match no finding any more (fixed, or now with other values): a
        // warning, which fails under `strict` or `fail_on: warning`, as in `tally check`.
        let suppressed = outcome.result.suppressed
        if suppressed.unmatchedEntries > 0 {
            let lines = suppressed.stale.map { "  stale: \($0)" } + suppressed.changed.map { "  recorded: \($0)" }
            let message = (["[baseline] \(suppressed.unmatchedEntries) entr\(suppressed.unmatchedEntries == 1 ? "y" : "ies") of \(suppressed.baselineFile ?? "the baseline") no longer match a finding; record the baseline again"] + lines)
                .joined(separator: "\n")
            recorder.record(message, at: nil, failing: failBar.failsOnStaleBaseline, callSite: callSite)
        }
        // Nothing compared (or less than `require_compared: all` asks): a failure, as `tally
        // check` exits 3 (issue 48).
        if !failBar.fails(outcome.result), let reason = failBar.coverageFailure(outcome.result) {
            let items = outcome.result.coverage?.notCompared.prefix(20).map { "  \($0.product ?? "a call") (\($0.source)\($0.line.map { ":\($0)" } ?? "")): \($0.reason.words)" } ?? []
            recorder.record((["[coverage] " + reason] + items).joined(separator: "\n"), at: nil, failing: true, callSite: callSite)
        }
    }
}

/// A misuse of `TallyAssert` (no sources named).
public struct TallyAssertError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    /// A run that could not be done, with each remedy named as the argument a test passes.
    init(_ failure: RunFailure) {
        switch failure {
        case .unreadable(let errors):
            description = errors.map { $0.rendered(remedy: Self.argument) }.joined(separator: "\n")
        case .policy(let error):
            description = error.rendered(remedy: Self.argument)
        case .needed(let error, let what):
            description = error.rendered(remedy: Self.argument) + "\n\(what) could not be read"
        case .usage(let message):
            description = message
        case .noSources:
            description = "the policy's sources match no file"
        case .revision(let error):
            description = error.message + (error.remedy.map { " (\(Self.argument($0)))" } ?? "")
        }
    }

    /// A remedy in a test's words: the argument to pass.
    static func argument(_ remedy: Remedy) -> String {
        switch remedy {
        case .raiseInputLimit: "pass options: ReadOptions(maxBytes: …) with a higher limit"
        case .raiseDepthLimit: "pass options: ReadOptions(maxDepth: …) with a higher limit"
        case .useMapping: "name the mapping in .tally.yml: sources: [{path: …, mapping: tally-mapping.yml}] (docs/mapping-format.md)"
        case .nameInputFormat: "rename the file with its format's extension"
        case .readAsStoreKit: "give the file the .storekit extension"
        case .writeBaseline: "record the baseline again with 'tally check --write-baseline FILE'"
        case .givePriceTiers: "set options.priceTiers to a PriceTierTable"
        case .givePlayDefaultTerritory: "set options.playDefaultTerritory (and options.playDefaultCurrency)"
        case .nameReportApp: "set options.reportApp to the app's APP_NAME or APP_APPLE_ID"
        }
    }
}
