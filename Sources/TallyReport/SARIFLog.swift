/// The parts of a SARIF 2.1.0 log that Tally writes, as typed values (see `SARIFReporter`).
/// Optional properties that are nil are left out, as the schema expects.
struct SARIFLog: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, runs
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var columnKind = "unicodeCodePoints"
        /// `%SRCROOT%`: the repository root the artifact URIs are relative to.
        var originalUriBaseIds: [String: ArtifactLocation]? = nil
        /// `coverage`: what the run did not compare, when anything (JSONReport.CoverageReport).
        var properties: RunProperties? = nil
    }

    struct RunProperties: Encodable {
        var coverage: JSONReport.CoverageReport
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name: String
        var version: String
        var semanticVersion: String
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Help
        var defaultConfiguration: Configuration
        var properties: RuleProperties
    }

    struct Text: Encodable {
        var text: String
    }

    struct Help: Encodable {
        var text: String
        var markdown: String
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct RuleProperties: Encodable {
        var category: String
        var tags: [String]
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
        var relatedLocations: [Location]?
        var partialFingerprints: [String: String]
        var baselineState: String?
        var properties: ResultProperties
    }

    struct Location: Encodable {
        var id: Int?
        var physicalLocation: PhysicalLocation
        var message: Text?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String? = nil
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int?
    }

    struct ResultProperties: Encodable {
        var product: String?
        var field: String
        var territory: String?
        var offer: String?
        /// Each side's value by its label (`configuration`, `catalog`, `source`): money as amount
        /// and currency, a period as ISO 8601, other values as words.
        var values: [String: SideValue]?
        /// The message with `{0}`, `{1}`, … where its values stand, and the values: for tools that
        /// link or format them. Absent for a message without values.
        var messageTemplate: String?
        var messageArguments: [String]?
    }

    struct SideValue: Encodable {
        var text: String
        var amount: String?
        var currency: String?
        var period: String?
        var territories: [String]?
    }
}
