// swift-tools-version: 6.0
// Tally's command plugin on the release binary: `swift package tally` without compiling Tally.
// As SwiftLint publishes SwiftLintPlugins, this folder is a package of its own: the plugin depends
// on a binary target, the artifact bundle `scripts/release` builds (tally.artifactbundle.zip), and
// `scripts/release --pin` writes the release's URL and checksum below. The plugin's source is the
// source-built TallyPlugin's (Plugins/TallyPlugin/TallyPlugin.swift); .ci/release-check.sh keeps
// the two files equal. docs/install.md says how to depend on it.
import PackageDescription

let package = Package(
    name: "TallyPlugins",
    products: [
        .plugin(name: "TallyPlugin", targets: ["TallyPlugin"]),
    ],
    targets: [
        // `swift package tally`, and in Xcode the project's context menu: runs the binary's `tally check`.
        .plugin(
            name: "TallyPlugin",
            capability: .command(intent: .custom(verb: "tally", description: "Check in-app-purchase catalogues with the package's .tally.yml")),
            dependencies: ["TallyBinary"],
            path: "Plugins/TallyBinaryPlugin"
        ),
        .binaryTarget(
            name: "TallyBinary",
            url: "https://github.com/OWNER/tally/releases/download/v0.1.0/tally.artifactbundle.zip",
            checksum: "0000000000000000000000000000000000000000000000000000000000000000" // pinned-checksum
        ),
    ]
)
