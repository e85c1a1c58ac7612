import Foundation

/// Validates JSON against a JSON schema with Python's `jsonschema` (installed by `.ci/run`).
enum SchemaValidator {
    static let sarifSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sarif/sarif-schema-2.1.0.json")

    /// Whether `python3` with `jsonschema` can be run here.
    static let available: Bool = (try? run(["-c", "import jsonschema"], input: Data()).status) == 0

    static let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        document = json.load(sys.stdin)
        validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors:
            print("/".join(str(p) for p in error.absolute_path) + ": " + error.message)
        sys.exit(1 if errors else 0)
        """

    /// The schema violations in `json`, one line each; empty when it is valid.
    static func violations(of json: String, schema: URL = sarifSchema) throws -> [String] {
        let result = try run(["-c", script, schema.path], input: Data(json.utf8))
        let lines = result.output.split(separator: "\n").map(String.init)
        if result.status != 0 && lines.isEmpty { return ["python3 exited with status \(result.status)"] }
        return lines
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
