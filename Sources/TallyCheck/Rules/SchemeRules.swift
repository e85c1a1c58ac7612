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

/// A StoreKit configuration package whose product names a promotional image (`promotionalImageID`)
/// its `Assets/` folder does not hold (issue 50): Xcode shows no image for the promoted purchase.
public struct PromotionalImageRule: SourceIssueRule {
    public static let description = describe(
        id: .promotionalImage, defaultSeverity: .warning,
        summary: "A StoreKit configuration package names a promotional image its Assets folder does not hold.",
        rationale: "Xcode keeps a promoted purchase's image in the package's Assets folder under the ID the configuration names; an image left out of a commit (or deleted) leaves the promoted purchase without its image in every test of the app.",
        fix: "Add the image back to Name.storekit/Assets/ (Xcode: the product's Promotional Image in the StoreKit configuration editor), or remove the promotional image from the product.")
    public init() {}
}
