import Foundation

/// Files the gate tests write into a copy of the shipped examples.
enum Policy {
    /// A starter policy for the examples: their sources, and whatever else a test adds.
    static func write(_ extra: String = "", to directory: URL, name: String = ".tally.yml") throws {
        let text = "version: 1\nsources:\n  - configs/*.storekit\n  - catalog/*.yaml\n" + extra
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// The schema violations of a SARIF document, from Python's `jsonschema` and the committed schema.
    static func sarifViolations(_ json: Data) throws -> [String] {
        let schema = CLIRunner.repository.appendingPathComponent("Tests/TallyReportTests/Fixtures/sarif/sarif-schema-2.1.0.json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import json, sys, jsonschema
            validator = jsonschema.Draft4Validator(json.load(open(sys.argv[1])), format_checker=jsonschema.FormatChecker())
            errors = list(validator.iter_errors(json.load(sys.stdin)))
            for error in errors: print(error.message)
            sys.exit(1 if errors else 0)
            """, schema.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(json)
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? [] : text.split(separator: "\n").map(String.init) + ["exit \(process.terminationStatus)"]
    }

    static let pythonAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import jsonschema"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}
