import Foundation
import TallyCheck
import TallyModel
import TallyReport
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Where the assertion was made.
struct CallSite: Sendable {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
}

/// Where a finding should show in an editor: the first side with a line, as an absolute path.
struct FailurePlace: Sendable, Equatable {
    var filePath: String
    var fileName: String
    var line: Int
    var column: Int

    init?(_ finding: Finding, base: String) {
        guard let side = [finding.left, finding.right].compactMap({ $0 }).first(where: { $0.location.line != nil }),
              let line = side.location.line, line > 0 else { return nil }
        let file = side.location.file
        filePath = file.hasPrefix("/") ? file : (base as NSString).appendingPathComponent(file)
        fileName = (file as NSString).lastPathComponent
        self.line = line
        column = max(1, side.location.column ?? 1)
    }
}

/// The text of one failure: `[price] message`, then both sides and the hint.
enum FailureText {
    static func message(_ finding: Finding) -> String {
        (["[\(finding.ruleID)] \(finding.message)"] + finding.detailLines.map { "  " + $0 }).joined(separator: "\n")
    }
}

/// Records failures in whichever test library is running the current test.
enum FailureRecorder {
    case swiftTesting
    case xcTest

    /// Swift Testing inside a `@Test`, XCTest otherwise.
    static var current: FailureRecorder {
        #if canImport(Testing)
        if Test.current != nil { return .swiftTesting }
        #endif
        return .xcTest
    }

    /// One failure (or, when `failing` is false, a warning that does not fail the test).
    func record(_ message: String, at place: FailurePlace?, failing: Bool, callSite: CallSite) {
        switch self {
        case .swiftTesting:
            #if canImport(Testing)
            let fileID = "\(callSite.fileID)"
            let module = fileID.split(separator: "/").first.map(String.init) ?? "Tally"
            let location = place.map {
                Testing.SourceLocation(fileID: "\(module)/\($0.fileName)", filePath: $0.filePath, line: $0.line, column: $0.column)
            } ?? Testing.SourceLocation(fileID: fileID, filePath: "\(callSite.filePath)", line: Int(callSite.line), column: Int(callSite.column))
            #if compiler(>=6.2)
            Issue.record(Comment(rawValue: message), severity: failing ? .error : .warning, sourceLocation: location)
            #else
            // Swift Testing before 6.2 has no warning issues: only failures are recorded.
            if failing { Issue.record(Comment(rawValue: message), sourceLocation: location) }
            #endif
            #endif
        case .xcTest:
            #if canImport(XCTest)
            // XCTest takes only the call site's static file name: the finding's place is in the message.
            guard failing else { return }
            XCTFail(message, file: callSite.filePath, line: callSite.line)
            #endif
        }
    }
}
