import Foundation
import Testing
import TallyCheck
@testable import TallyConfig
@testable import TallyConvert
@testable import TallyFormats
import TallyModel

/// The JSON Schemas in docs/schemas/ validate every shipped example and fixture (and what
/// `tally convert` writes), and accept exactly the keys the readers accept.
struct SchemaTests {
    static let schemas = Sources.repository.appendingPathComponent("docs/schemas")
    static let catalogSchema = schemas.appendingPathComponent("tally-catalog-1.schema.json")
    static let mappingSchema = schemas.appendingPathComponent("tally-mapping-1.schema.json")
    static let policySchema = schemas.appendingPathComponent("tally-policy.schema.json")

    static let jsonschemaMissing = "python3 with jsonschema is not installed (.ci/run installs it); schema validation is skipped"

    /// Examples and fixtures, with their schema.
    static let documents: [(file: String, schema: URL)] = [
        ("catalog/products.yaml", catalogSchema),
        ("Tests/TallyFormatsTests/Fixtures/seeds/small-catalog.json", catalogSchema),
        ("examples/server/tally-mapping.yml", mappingSchema),
        (".tally.yml", policySchema),
    ]

    @Test("shipped examples and fixtures validate against the schemas", .enabled(if: Validator.available, Comment(rawValue: jsonschemaMissing)))
    func examplesValidate() throws {
        for document in Self.documents {
            let json = try Validator.json(fromFile: Sources.repo(document.file))
            #expect(try Validator.violations(of: json, schema: document.schema) == [], "\(document.file)")
        }
    }

    @Test("the catalogue examples in docs/catalog-format.md validate", .enabled(if: Validator.available, Comment(rawValue: jsonschemaMissing)))
    func documentationExamplesValidate() throws {
        let text = try String(contentsOfFile: Sources.repo("docs/catalog-format.md"), encoding: .utf8)
        var count = 0
        for block in text.components(separatedBy: "```").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element)
        where block.hasPrefix("yaml\nformat: tally-catalog/1") || block.hasPrefix("json\n{\n  \"format\": \"tally-catalog/1\"") {
            let body = String(block.drop { $0 != "\n" }.dropFirst())
            let json = try Validator.json(fromYAML: body, file: "docs/catalog-format.md")
            #expect(try Validator.violations(of: json, schema: Self.catalogSchema) == [])
            count += 1
        }
        #expect(count >= 3)
    }

    @Test("converted catalogues validate against the schema", .enabled(if: Validator.available, Comment(rawValue: jsonschemaMissing)),
          arguments: Sources.all)
    func convertedCataloguesValidate(_ source: Sources.Source) throws {
        let catalog = try source.read()
        let json = Converter.convert(catalog, options: ConvertOptions(target: .tallyCatalogJSON)).text
        #expect(try Validator.violations(of: json, schema: Self.catalogSchema) == [])
        let yaml = Converter.convert(catalog, options: ConvertOptions(target: .tallyCatalogYAML)).text
        #expect(try Validator.violations(of: Validator.json(fromYAML: yaml, file: "c.yaml"), schema: Self.catalogSchema) == [])
    }

    @Test("a catalogue with mistakes fails the schema", .enabled(if: Validator.available, Comment(rawValue: jsonschemaMissing)))
    func mistakesFail() throws {
        let json = #"{"format": "tally-catalog/1", "products": [{"id": "a", "price": {"USA": "1"}}]}"#
        let violations = try Validator.violations(of: json, schema: Self.catalogSchema)
        #expect(violations.count >= 2, "\(violations)")
    }

    // MARK: the schemas agree with the readers

    @Test func catalogueKeysAgree() throws {
        let schema = try Schema(Self.catalogSchema)
        #expect(schema.keys([]) == Set(CatalogDecoder.topKeys))
        #expect(schema.keys(["definitions", "product"]) == Set(CatalogDecoder.productKeys))
        #expect(schema.keys(["definitions", "subscription"]) == Set(CatalogDecoder.subscriptionKeys))
        #expect(schema.keys(["definitions", "group"]) == Set(CatalogDecoder.groupKeys))
        #expect(schema.keys(["definitions", "promotionalOffer"]) == Set(CatalogDecoder.offerKeys))
        #expect(schema.keys(["definitions", "introductoryOffer"]) == Set(CatalogDecoder.introductoryOfferKeys))
        #expect(schema.keys(["definitions", "localization"]) == Set(CatalogDecoder.localizationKeys))
        #expect(schema.keys(["definitions", "seatTier"]) == Set(CatalogDecoder.seatTierKeys))
        #expect(schema.enumeration(["properties", "known_fields", "items"]) == Set(CatalogDecoder.fieldKeyOrder))
        #expect(Set(CatalogDecoder.fieldKeys.keys) == Set(CatalogDecoder.fieldKeyOrder))
    }

    @Test func mappingKeysAgree() throws {
        let schema = try Schema(Self.mappingSchema)
        #expect(schema.keys([]) == Set(MappingParser.topKeys))
        #expect(schema.keys(["properties", "fields"]) == Set(MappingParser.fieldKeys))
        #expect(schema.keys(["properties", "values"]) == Set(MappingParser.valueKeys))
        #expect(schema.keys(["properties", "fields", "properties", "introductory_offer"]) == Set(MappingParser.offerKeys))
        #expect(schema.keys(["properties", "fields", "properties", "prices", "oneOf", "1"]) == Set(MappingParser.priceKeys))
        #expect(schema.keys(["definitions", "source", "oneOf", "1"]) == Set(MappingParser.sourceKeys))
    }

    @Test func policyKeysAgree() throws {
        let schema = try Schema(Self.policySchema)
        #expect(schema.keys([]) == Set(PolicyDecoder.topKeys))
        #expect(schema.keys(["properties", "ignore", "items"]) == Set(PolicyDecoder.ignoreKeys))
        #expect(schema.keys(["properties", "groups", "items"]) == Set(PolicyDecoder.groupKeys))
        let ruleIDs = Set(TallyCheckRules.ids)
        #expect(schema.enumeration(["properties", "rules", "propertyNames"]) == ruleIDs)
        #expect(schema.enumeration(["properties", "ignore", "items", "properties", "rule"]) == ruleIDs.union(["*"]),
                "an ignore entry names any rule, or *")
    }
}

enum TallyCheckRules {
    static var ids: [String] { RuleSet.descriptions.map(\.id.rawValue) }
}

/// A schema file as a tree, to read the keys it allows.
struct Schema {
    let root: Any

    init(_ url: URL) throws {
        root = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }

    private func node(_ path: [String]) -> Any? {
        var current: Any? = root
        for step in path {
            if let object = current as? [String: Any] {
                current = object[step]
            } else if let array = current as? [Any], let index = Int(step), index < array.count {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// The property names an object schema at `path` allows.
    func keys(_ path: [String]) -> Set<String> {
        Set(((node(path) as? [String: Any])?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    /// The values of an `enum` at `path`.
    func enumeration(_ path: [String]) -> Set<String> {
        Set(((node(path) as? [String: Any])?["enum"] as? [String]) ?? [])
    }
}

/// Validates JSON against a JSON Schema (draft-07) with Python's `jsonschema`, installed by `.ci/run`.
enum Validator {
    static let available: Bool = (try? run(["-c", "import jsonschema"], input: Data()).status) == 0

    static let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        document = json.load(sys.stdin)
        errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
        for error in errors:
            print("/".join(str(p) for p in error.absolute_path) + ": " + error.message)
        sys.exit(1 if errors else 0)
        """

    static func violations(of json: String, schema: URL) throws -> [String] {
        let result = try run(["-c", script, schema.path], input: Data(json.utf8))
        let lines = result.output.split(separator: "\n").map(String.init)
        if result.status != 0 && lines.isEmpty { return ["python3 exited with status \(result.status)"] }
        return lines
    }

    /// A YAML or JSON file as JSON text, read with Tally's own readers (YAML is a superset of JSON).
    static func json(fromFile path: String) throws -> String {
        try json(fromYAML: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    static func json(fromYAML text: String, file: String) throws -> String {
        var reader = try YAMLReader(bytes: Array(text.utf8), file: file)
        var output = ""
        try write(&reader, into: &output)
        return output
    }

    private static func write(_ reader: inout YAMLReader, into output: inout String) throws {
        switch try reader.peekKind() {
        case .object:
            output += "{"
            var first = true
            try reader.forEachKey { reader, key in
                output += (first ? "" : ",") + JSONText.quoted(key) + ":"
                first = false
                try write(&reader, into: &output)
            }
            output += "}"
        case .array:
            output += "["
            var first = true
            try reader.forEachElement { reader, _ in
                output += first ? "" : ","
                first = false
                try write(&reader, into: &output)
            }
            output += "]"
        case .string: output += JSONText.quoted(try reader.readString())
        case .number: output += try reader.readNumberText()
        case .bool: output += try reader.readBool() ? "true" : "false"
        case .null:
            _ = try reader.readNullIfPresent()
            output += "null"
        }
    }

    private static func run(_ arguments: [String], input: Data) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
