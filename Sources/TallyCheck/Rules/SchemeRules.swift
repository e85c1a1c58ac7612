import TallyModel

/// The StoreKit configuration an Xcode scheme runs the app against (issue 50): Xcode tests every
/// purchase against the `.storekit` file its scheme names (`StoreKitConfigurationFileReference`).
/// A reference that leads nowhere (a file moved or renamed) is an error at the scheme's line; a
/// gate that checks `.storekit` files no scheme uses, while a scheme uses one it does not check,
/// checks the wrong copy (a warning).
public struct SchemeStoreKitRule: LintRule {
    public static let description = describe(
        id: .schemeStoreKit, defaultSeverity: .error,
        summary: "An Xcode scheme runs the app against a StoreKit configuration that does not exist, or one the check does not read.",
        rationale: "Xcode runs the app against the .storekit file its scheme names. A reference left behind by a move makes every purchase in the simulator fail (\"resolves to … and does not exist\"); a scheme that uses another file than the one the gate checks means the products the team tests are not the ones checked.",
        fix: "In Xcode, Product → Scheme → Edit Scheme → Run → Options → StoreKit Configuration: choose the file (Xcode writes the path from the workspace the scheme is opened in). Or add the file the scheme uses to the sources of .tally.yml.")

    public init() {}

    /// Findings come from the repository's schemes (TallyRun's `SchemeFindings`), not from a source.
    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {}
}
