import TallyModel

/// A small input a rule fires on, or one it passes: files as people write them (a StoreKit
/// configuration, a `tally-catalog/1` catalogue, a paywall platform's export, the app's code) that
/// the readers take as they are, and the policy file where the rule needs a setting. Every rule
/// owns its examples (`Rule.examples`): `RuleExampleTests` runs each through `tally check`'s own
/// run (`CheckRun`: the readers, the pairing, the gate) and asserts that the rule fires, or does
/// not; docs/rules.md shows them under the rule.
public struct RuleExample: Sendable, Hashable {
    /// One file of the example: its name (which tells the readers its format, as on disk) and text.
    /// A name in a folder (`revenuecat/02-products.json`) puts the file there, and the folder is
    /// one source (RevenueCat's pages, an App Store Connect snapshot).
    public struct File: Sendable, Hashable {
        public var name: String
        public var text: String
        /// Whether `tally check` is given the file (or its folder); false for a file of the
        /// repository the run finds on its own (an Xcode scheme).
        public var isSource = true

        public init(_ name: String, _ text: String) {
            self.name = name
            self.text = text
        }

        /// `.file("catalog.yaml", """ … """)`, in a rule's `examples`.
        public static func file(_ name: String, _ text: String) -> File { File(name, text) }

        /// A file of the repository that is not a source (an Xcode scheme the run finds).
        public static func repository(_ name: String, _ text: String) -> File {
            var file = File(name, text)
            file.isSource = false
            return file
        }
    }

    /// Whether the rule reports something here (`true`), or passes.
    public var fires: Bool
    /// The files, in the order `tally check` is given them.
    public var files: [File]
    /// The text of the run's `.tally.yml`, where the rule needs a setting (`required_locales`).
    public var policy: String?

    public init(fires: Bool, files: [File], policy: String? = nil) {
        self.fires = fires
        self.files = files
        self.policy = policy
    }

    /// Files the rule reports something in.
    public static func fires(_ files: File..., policy: String? = nil) -> RuleExample {
        RuleExample(fires: true, files: files, policy: policy)
    }

    /// Files the rule passes.
    public static func passes(_ files: File..., policy: String? = nil) -> RuleExample {
        RuleExample(fires: false, files: files, policy: policy)
    }

    /// The sources `tally check` is given, in order: each file, or the folder files are in.
    public var sources: [String] {
        var seen = Set<String>()
        return files.filter(\.isSource).compactMap { file in
            let source = file.name.split(separator: "/").first.map(String.init) ?? file.name
            return seen.insert(source).inserted ? source : nil
        }
    }

    /// The command the example stands for: `tally check App.storekit catalog.yaml`.
    public var command: String {
        (["tally check"] + sources).joined(separator: " ")
    }

    /// The example in Markdown, for the rules page: the command, then each file (the policy
    /// first) in a fenced block of its language.
    public var markdown: String {
        var text = "\(fires ? "Fires" : "Passes"): `\(command)`\n"
        let shown = (policy.map { [File(".tally.yml", $0)] } ?? []) + files
        for file in shown {
            text += "\n`\(file.name)`:\n\n```\(Self.language(of: file.name))\n\(file.text.trimmingTrailingNewlines)\n```\n"
        }
        return text
    }

    /// The fence's language for a file name: its ending's (`storekit` is JSON).
    static func language(of name: String) -> String {
        let ending = name.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        switch ending {
        case "storekit", "json": return "json"
        case "yaml", "yml": return "yaml"
        case "swift", "kt", "java", "dart", "ts": return ending
        case "m": return "objc"
        case "cs": return "csharp"
        case "csv", "txt", "tsv": return "text"
        case "plist", "xml": return "xml"
        default: return ""
        }
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
