import Foundation
import TallyModel

/// The commented starter `.tally.yml` that `tally init` writes.
public enum PolicyTemplate {
    /// What `tally init` found in the repository.
    public struct Detected: Sendable {
        public var configurations: [String]
        public var catalogs: [String]
        /// Territories every catalogue product is priced in today (safe to require).
        public var pricedEverywhere: [Territory]
        /// A configuration group name and a catalogue group ID, for the commented example.
        public var groupExample: (configuration: String, catalog: String)?
        /// The catalogues that are folders read as one source (a snapshot): named as the folder.
        public var folders: Set<String>
        /// The directory the paths are relative to (where a glob is checked to match only them).
        public var directory: String
        /// `code:` globs: the app's code that asks for products.
        public var code: [String] = []

        public init(configurations: [String] = [], catalogs: [String] = [], pricedEverywhere: [Territory] = [],
                    groupExample: (configuration: String, catalog: String)? = nil, folders: Set<String> = [], directory: String = ".") {
            self.configurations = configurations
            self.catalogs = catalogs
            self.pricedEverywhere = pricedEverywhere
            self.groupExample = groupExample
            self.folders = folders
            self.directory = directory
        }
    }

    /// The file's text. Every section is present, commented where there is nothing to set yet,
    /// and the result reads back as a valid version-1 policy.
    public static func render(_ detected: Detected) -> String {
        let globs = SourceScan.globs(for: detected.configurations, in: detected.directory)
            + SourceScan.globs(for: detected.catalogs, in: detected.directory, folders: detected.folders)
        var lines = [
            "# Tally policy: what 'tally check' (with no arguments) checks in this repository, and what",
            "# fails the gate. Written by 'tally init'; the reference is policy.md in Tally's documentation.",
            "version: 1",
            "",
            "# The sources to check: files or globs relative to this file ('*' within a name, '**' for any folders).",
            "# .storekit files are configurations (what the app sells); catalogues are what the server grants.",
            "# A folder Tally reads as one source (a 'tally fetch' snapshot, saved store pages) is named as the folder.",
        ]
        if globs.isEmpty {
            lines += [
                "# No sources were found here: name them, for example",
                "sources:",
                "  # - App/Products.storekit",
                "  # - server/catalog/*.yaml",
            ]
        } else {
            lines += ["sources:"] + globs.map { "  - \(quoted($0))" }
        }
        lines += [
            "",
            "# The app's code: the product IDs it asks the store for (Product.products(for:), setProductId, ...),",
            "# compared with every source above (rules code-unknown-product, code-unused-product). Where the",
            "# app builds its IDs another way, add ids: with a regular expression they match.",
        ]
        if detected.code.isEmpty {
            lines += ["# code:", "#   paths: [App/**/*.swift]", "#   ids: 'com\\.example\\.app\\.[a-z.]+'"]
        } else {
            lines += ["code:", "  paths: [\(detected.code.map(quoted).joined(separator: ", "))]"]
        }
        lines += [
            "",
            "# What fails the gate (exit 1): error (the default) or warning.",
            "fail_on: error",
            "",
            "# Severity per rule: error, warning or off. 'tally rules' lists the rules; 'tally explain RULE'",
            "# says why one matters and how to fix its findings.",
            "rules:",
            "  # family-sharing: error",
            "  # level: warning",
            "",
            "# Findings accepted on purpose: a rule (or '*') on the products an ID or glob matches, and why.",
            "ignore:",
            "  # - rule: price",
            "  #   product: com.example.legacy.*",
            "  #   reason: legacy products keep their old price until the server migration ships",
            "",
            "# Territories every catalogue product must have a price in (rule unpriced-territory).",
        ]
        if detected.pricedEverywhere.isEmpty {
            lines += ["required_territories:", "  # - USA"]
        } else {
            lines += ["# Every catalogue product is priced in these today:",
                      "required_territories: [\(detected.pricedEverywhere.map(\.code).joined(separator: ", "))]"]
        }
        let example = detected.groupExample ?? (configuration: "Example Pro", catalog: "pro")
        lines += [
            "",
            "# Subscription groups are matched by their members. To pair them explicitly, name each group",
            "# by ID or name: as the StoreKit configuration calls it, and as the catalogue does.",
            "groups:",
            "  # - configuration: \(quoted(example.configuration))",
            "  #   catalog: \(quoted(example.catalog))",
            "",
            "# Known findings recorded with 'tally check --write-baseline FILE': then only new ones fail.",
            "# baseline: .tally-baseline.json",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Plain YAML when safe, double-quoted otherwise, with `\` and `"` escaped and every control,
    /// line break and invisible or bidirectional character (`SafeText.isUnsafe`) written as a YAML
    /// escape (`\n`, `\x1B`, `\u202E`): a file name cannot end a comment, start a key of its own or
    /// carry an escape sequence into the file.
    static func quoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { scalar in
            (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "._/-* ".unicodeScalars.contains(scalar))
                && !SafeText.isUnsafe(scalar)
        } && !text.hasPrefix("*") && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.isEmpty
        guard !plain else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where SafeText.isUnsafe(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += scalar.value < 0x100 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
