import Foundation
import TallyCheck
import TallyConfig
import TallyFormats
import TallyModel

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
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> CheckResult {
        try consistent(configs: [config], catalogs: [catalog], policy: policy, strict: strict, root: root,
                       fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Compares every configuration with every catalogue.
    @discardableResult
    public static func consistent(
        configs: [String], catalogs: [String], policy: Policy = Policy(), strict: Bool = false, root: String? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> CheckResult {
        let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let base = root ?? PackageRoot.find(from: "\(filePath)")
        let configurations = try load(configs, base: base)
        let serverCatalogs = try load(catalogs, base: base)
        guard !configurations.isEmpty, !serverCatalogs.isEmpty else {
            throw TallyAssertError("name at least one StoreKit configuration and one catalogue")
        }
        let outcome = Gate(policy: policy).check(configurations: configurations, catalogs: serverCatalogs)
        record(outcome, strict: strict, base: base, callSite: callSite)
        return outcome.result
    }

    /// Runs the check the repository's policy file describes: its sources, rules, ignores and
    /// baseline, exactly as `tally check` would with no arguments.
    @discardableResult
    public static func policy(
        _ path: String = PolicyFile.defaultName, strict: Bool = false, root: String? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> CheckResult {
        let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let base = root ?? PackageRoot.find(from: "\(filePath)")
        let policyFile = try PolicyFile.load(path: absolute(path, base: base))
        guard !policyFile.sources.isEmpty else { throw TallyAssertError("\(path) names no sources: add a 'sources:' list") }
        let catalogs = try load(try policyFile.sourcePaths(), base: base)
        let baseline = try policyFile.baselinePath.map { try BaselineFile.read(path: $0) }
        let gate = Gate(policy: policyFile.policy, baseline: baseline, baselineFile: policyFile.baseline)
        // The same pairing as `tally check` (SourcePairing, through the gate): a .storekit file and
        // the app's Products.plist are compared with each other, not only linted.
        guard let outcome = gate.check(sources: catalogs) else {
            throw TallyAssertError("\(path) names one source; a check compares two or more")
        }
        record(outcome, strict: strict, base: base, callSite: callSite)
        return outcome.result
    }

    /// Reads each file, naming it relative to `base` in messages.
    static func load(_ paths: [String], base: String) throws -> [Catalog] {
        try paths.map { path in
            let full = absolute(path, base: base)
            let bytes = try SourceLoader.readBytes(path: full)
            return try SourceLoader.load(bytes: bytes, file: PackageRoot.relative(full, to: base))
        }
    }

    static func absolute(_ path: String, base: String) -> String {
        path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    }

    static func record(_ outcome: GateOutcome, strict: Bool, base: String, callSite: CallSite) {
        let recorder = FailureRecorder.current
        for finding in outcome.result.findings {
            let failing = outcome.policy.fails(CheckResult(findings: [finding]), strict: strict)
            guard failing || finding.severity == .warning else { continue }
            let place = FailurePlace(finding, base: base)
            recorder.record(FailureText.message(finding), at: place, failing: failing, callSite: callSite)
        }
    }
}

/// A misuse of `TallyAssert` (no sources named).
public struct TallyAssertError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
