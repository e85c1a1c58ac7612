import Foundation
import Testing
import TallyConvert
import TallyModel

/// The constants files compile, and at run time each constant is exactly its product ID: the
/// language's own compiler reads the file (swiftc always; kotlinc, dart and tsc with node where
/// they are installed, skipped with a message where not).
@Suite(.serialized) struct ConstantsCompileTests {
    /// The example configuration's IDs, keywords, digits, collisions and hostile IDs in one catalogue.
    static func catalog() throws -> Catalog {
        var catalog = try ConstantsWriterTests.example.read()
        let more = ConstantsWriterTests.hostile + ["com.calmly.app.default", "com.calmly.app.in", "com.calmly.app.self", "com.calmly.app.100coins",
                                                   "com.calmly.app.plus_monthly", "com.calmly.app.all", "com.calmly.app.prämie"]
        catalog.products += more.map { Product(id: $0, kind: .nonConsumable) }
        return catalog
    }

    /// Each ID as its UTF-8 bytes, one line each, in the file's order (sorted by bytes).
    static func expected(_ catalog: Catalog) -> String {
        Set(catalog.products.map(\.id)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { $0.utf8.map(String.init).joined(separator: ",") + "\n" }.joined()
    }

    @Test("Swift: swiftc -parse and -typecheck accept the file; compiled, every case's rawValue is its ID",
          .enabled(if: Compilers.find("swiftc") != nil, "swiftc is not on PATH: the Swift output is not compiled"))
    func swift() throws {
        let catalog = try Self.catalog()
        let text = Converter.convert(catalog, options: ConvertOptions(target: .swift)).text
        let folder = try Compilers.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ProductID.swift")
        try Data(text.utf8).write(to: file)
        let swiftc = Compilers.find("swiftc") ?? "swiftc"
        try Compilers.expectSuccess(swiftc, ["-parse", file.path], in: folder)
        try Compilers.swiftTypecheck(text)
        try Data("for id in ProductID.allCases { print(id.rawValue.utf8.map(String.init).joined(separator: \",\")) }\n".utf8)
            .write(to: folder.appendingPathComponent("main.swift"))
        try Compilers.expectSuccess(swiftc, ["-swift-version", "6", "ProductID.swift", "main.swift", "-o", "run"], in: folder)
        let run = try Compilers.run(folder.appendingPathComponent("run").path, [], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == Self.expected(catalog))
    }

    @Test("Kotlin: kotlinc compiles the file; run, ProductIds.all is every ID",
          .enabled(if: Compilers.find("kotlinc") != nil && Compilers.find("java") != nil, "kotlinc or java is not on PATH"))
    func kotlin() throws {
        let catalog = try Self.catalog()
        let folder = try Compilers.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Converter.convert(catalog, options: ConvertOptions(target: .kotlin)).text.utf8).write(to: folder.appendingPathComponent("ProductIds.kt"))
        try Data("""
            fun main() {
                for (id in ProductIds.all) println(id.toByteArray(Charsets.UTF_8).joinToString(",") { (it.toInt() and 0xff).toString() })
            }

            """.utf8).write(to: folder.appendingPathComponent("Main.kt"))
        try Compilers.expectSuccess(Compilers.find("kotlinc") ?? "kotlinc", ["ProductIds.kt", "Main.kt", "-include-runtime", "-d", "p.jar"], in: folder)
        let run = try Compilers.run(Compilers.find("java") ?? "java", ["-Dfile.encoding=UTF-8", "-jar", "p.jar"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == Self.expected(catalog))
    }

    @Test("Dart: dart runs the file; ProductIds.all is every ID", .enabled(if: Compilers.find("dart") != nil, "dart is not on PATH"))
    func dart() throws {
        let catalog = try Self.catalog()
        let folder = try Compilers.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Converter.convert(catalog, options: ConvertOptions(target: .dart)).text.utf8).write(to: folder.appendingPathComponent("product_ids.dart"))
        try Data("""
            import 'dart:convert';
            import 'product_ids.dart';

            void main() {
              for (final id in ProductIds.all) print(utf8.encode(id).join(','));
            }

            """.utf8).write(to: folder.appendingPathComponent("main.dart"))
        let run = try Compilers.run(Compilers.find("dart") ?? "dart", ["run", "main.dart"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == Self.expected(catalog))
    }

    @Test("TypeScript: tsc --strict accepts the file; run with node, allProductIds is every ID",
          .enabled(if: Compilers.find("tsc") != nil && Compilers.find("node") != nil, "tsc or node is not on PATH"))
    func typeScript() throws {
        let catalog = try Self.catalog()
        let folder = try Compilers.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Converter.convert(catalog, options: ConvertOptions(target: .typeScript)).text.utf8).write(to: folder.appendingPathComponent("productIds.ts"))
        try Compilers.expectSuccess(Compilers.find("tsc") ?? "tsc", ["--strict", "--module", "commonjs", "--target", "es2015", "productIds.ts"], in: folder)
        let script = "for (const id of require('./productIds.js').allProductIds) console.log(Array.from(Buffer.from(id, 'utf8')).join(','));"
        let run = try Compilers.run(Compilers.find("node") ?? "node", ["-e", script], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == Self.expected(catalog))
    }
}

/// Finding and running the languages' compilers.
enum Compilers {
    struct Output { var status: Int32; var stdout: String; var stderr: String }

    /// The program on PATH (or beside swiftc's toolchain, for swiftc), or nil.
    static func find(_ name: String) -> String? {
        var folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        if name == "swiftc" { folders.append("/opt/swift/usr/bin") }
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-constants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func run(_ program: String, _ arguments: [String], in folder: URL) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func expectSuccess(_ program: String, _ arguments: [String], in folder: URL) throws {
        let result = try run(program, arguments, in: folder)
        #expect(result.status == 0, "\(program) \(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)")
    }

    /// `swiftc -typecheck` of a Swift constants file (its StoreKit part is left out where StoreKit is not).
    static func swiftTypecheck(_ text: String) throws {
        guard let swiftc = find("swiftc") else { return }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: folder.appendingPathComponent("ProductID.swift"))
        try expectSuccess(swiftc, ["-typecheck", "-swift-version", "6", "ProductID.swift"], in: folder)
    }
}
