import Testing
import TallyModel
import TallyRun

/// Swift Testing has an `ExitStatus` of its own.
typealias ExitStatus = TallyRun.ExitStatus

/// The exit is read from the diagnostics stream and the verdict (issue 39): an error said
/// anywhere in a run ends it with 2; warnings and notes never change the exit.
@Suite struct ExitEndingTests {
    static let note = Diagnostic(.note, "wrote build/tally.json")
    static let warning = Diagnostic(.warning, "a value was not taken", at: SourceLocation(file: "App.storekit", line: 3, column: 9))
    static let error = Diagnostic(.error, "error: cannot write to standard output: no space left on device")

    @Test(arguments: [ExitStatus.consistent, .mismatches, .usageOrInput])
    func withoutAnErrorTheVerdictIsTheExit(verdict: ExitStatus) {
        #expect(ExitStatus.ending(verdict: verdict, said: []) == verdict)
        #expect(ExitStatus.ending(verdict: verdict, said: [Self.note, Self.warning]) == verdict)
    }

    @Test(arguments: [ExitStatus.consistent, .mismatches])
    func anErrorSaidEndsTheRunWithTwoWhateverItFound(verdict: ExitStatus) {
        #expect(ExitStatus.ending(verdict: verdict, said: [Self.note, Self.error, Self.warning]) == .usageOrInput)
    }

    @Test func aCommandWithoutAVerdictEndsWithZeroUnlessItSaidAnError() {
        #expect(ExitStatus.ending(verdict: nil, said: [Self.note, Self.warning]) == .consistent)
        #expect(ExitStatus.ending(verdict: nil, said: [Self.error]) == .usageOrInput)
    }
}
