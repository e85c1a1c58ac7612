import Foundation
import Testing
import TallyCheck
import TallyConfig
import TallyFormats
import TallyModel

@Suite("Policy file")
struct PolicyFileTests {
    static func read(_ text: String, file: String = ".tally.yml") throws -> PolicyFile {
        try PolicyFile.read(bytes: Array(text.utf8), file: file)
    }

    static func error(_ text: String) -> FormatError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error as? FormatError
        }
    }

    @Test func everyKeyIsRead() throws {
        // Given
        let text = """
            version: 1
            sources:
              - configs/*.storekit
              - catalog/**/*.yaml
            fail_on: warning
            rules:
              family-sharing: error
              level: warning
              invalid-id: off
            ignore:
              - rule: price
                product: com.example.legacy.*
                reason: priced by the old server until June
            required_territories: [USA, JPN]
            groups:
              - configuration: Example Pro
                catalog: pro
            baseline: .tally-baseline.json
            """
        // When
        let file = try Self.read(text, file: "app/.tally.yml")
        // Then
        #expect(file.sources.map(\.pattern) == ["configs/*.storekit", "catalog/**/*.yaml"])
        #expect(file.sources.first?.location?.line == 3)
        #expect(file.policy.failOn == .warning)
        #expect(file.policy.rules == [.familySharing: .error, .level: .warning, .invalidID: .off])
        #expect(file.policy.ignores.map(\.description) == ["price on com.example.legacy.*"])
        #expect(file.policy.ignores.first?.reason == "priced by the old server until June")
        #expect(file.policy.ignores.first?.location?.line == 11)
        #expect(file.policy.requiredTerritories.map(\.code) == ["USA", "JPN"])
        #expect(file.policy.groups.map(\.description) == ["\"Example Pro\" ↔ \"pro\""])
        #expect(file.baselinePath == "app/.tally-baseline.json")
        #expect(file.directory == "app")
    }

    @Test func sectionsLeftEmptyOrCommentedOutAreEmpty() throws {
        let file = try Self.read("version: 1\nrules:\n  # level: warning\nignore:\ngroups:\n")
        #expect(file.policy == Policy())
        #expect(file.sources.isEmpty)
    }

    @Test("An unknown key is an error naming the key and its line", arguments: [
        ("version: 1\nsources: []\nrulez:\n  price: off\n", "unknown key \"rulez\" in the policy file; did you mean \"rules\"?", 3),
        ("version: 1\nignore:\n  - rule: price\n    products: com.a.*\n    reason: x\n", "unknown key \"products\" in an ignore; did you mean \"product\"?", 4),
        ("version: 1\ngroups:\n  - configuration: A\n    catalogue: b\n", "unknown key \"catalogue\" in a group pair; did you mean \"catalog\"?", 4),
        ("version: 1\nrules:\n  prices: error\n", "unknown rule \"prices\"; did you mean \"price\"?", 3),
        ("version: 1\nrules:\n  price: fatal\n", "\"fatal\" is not a severity for price: use error, warning or off", 3),
        ("version: 1\nfail_on: note\n", "fail_on is error or warning, not \"note\"", 2),
        ("version: 1\nrequired_territories: [USA, uk]\n", "\"uk\" is not an App Store storefront code", 2),
        ("version: 1\nignore:\n  - rule: price\n    product: com.a.*\n", "this ignore has no reason", 3),
        ("version: 1\nignore:\n  - rule: prise\n    product: com.a.*\n    reason: x\n", "unknown rule \"prise\"; did you mean \"price\"?", 3),
        ("version: 1\nsources: configs/*.storekit\n", "expected a list", 2),
    ])
    func strictErrors(text: String, message: String, line: Int) throws {
        let error = try #require(Self.error(text), "no error for:\n\(text)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == line, "\(error)")
        #expect(error.location.file == ".tally.yml")
    }

    /// Every mistake at once, in file order; a misspelt key is reported as the unknown key only,
    /// not again as the key that is missing.
    @Test func everyMistakeIsReportedOnceInOneRead() throws {
        let error = try #require(Self.error("version: 1\nrules:\n  prise: off\nignore:\n  - rule: price\n    products: com.a.*\ngroups:\n  - configuration: A\n"))
        #expect(error.all.map { "\($0.location.line ?? 0) \($0.message.prefix(30))" } == [
            "3 unknown rule \"prise\"; did you ",
            "5 this ignore has no reason: say",
            "6 unknown key \"products\" in an i",
            "8 a group pair names both sides:",
        ], "\(error)")
    }

    @Test func aRepeatedKeyIsRefused() throws {
        let error = try #require(Self.error("version: 1\nrules: {}\nrules: {}\n"))
        #expect(error.message.contains("the key \"rules\" appears twice"), "\(error)")
    }

    @Test func aNewerVersionIsRefusedBeforeItsKeysAreJudged() throws {
        let error = try #require(Self.error("format_v2_key: yes\nversion: 2\n"))
        #expect(error.description == ".tally.yml:2:10: error: this policy file is version 2, but this Tally reads version 1 only: upgrade Tally (at version)")
    }

    @Test("A missing, empty or malformed version is refused", arguments: ["sources: []\n", "version: one\n", "version: 0\n", "  \n", "version: [1\n"])
    func badVersions(text: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.location.file == ".tally.yml")
    }

    @Test func theStarterFileReadsBackAsAValidPolicy() throws {
        // Given: what 'tally init' writes for the shipped examples, and for an empty folder.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-template-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for file in ["configs/App.storekit", "catalog/products.yaml", "catalog/extra.yaml"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(file).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: root.appendingPathComponent(file))
        }
        let detected = PolicyTemplate.Detected(
            configurations: ["configs/App.storekit"], catalogs: ["catalog/products.yaml", "catalog/extra.yaml"],
            pricedEverywhere: [.usa, Territory("GBR")!], groupExample: ("Calmly: Plus", "calmly_plus"), directory: root.path)
        // When
        let full = try Self.read(PolicyTemplate.render(detected))
        let empty = try Self.read(PolicyTemplate.render(PolicyTemplate.Detected()))
        // Then
        #expect(full.sources.map(\.pattern) == ["configs/*.storekit", "catalog/*.yaml"])
        #expect(full.policy.requiredTerritories.map(\.code) == ["USA", "GBR"])
        #expect(full.policy.failOn == .error)
        #expect(PolicyTemplate.render(detected).contains("#   catalog: calmly_plus"))
        #expect(PolicyTemplate.render(detected).contains("# - configuration: \"Calmly: Plus\""))
        #expect(empty.sources.isEmpty)
        #expect(empty.policy == Policy())
    }

    @Test func theRepositorysOwnPolicyFileIsValid() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".tally.yml").path
        let file = try PolicyFile.load(path: path)
        #expect(!file.sources.isEmpty)
        #expect(file.policy.rules[.familySharing] == .error)
    }
}
