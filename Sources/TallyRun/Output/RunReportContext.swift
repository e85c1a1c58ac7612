import Foundation
import TallyCheck
import TallyConfig
import TallyReport


extension ReportContext {
    /// The context of a check or lint run: what fails it (the outcome's `FailBar`, the value
    /// its exit status reads) and, when a report needs it, the repository root:
    /// `git rev-parse --show-toplevel` here, else the folder of the policy file, else here.
    public static func forRun(_ outcome: RunOutcome, recordingBaseline: String? = nil, policyFile: PolicyFile?, needsRoot: Bool) -> ReportContext {
        var context = ReportContext(failsAt: outcome.failBar.severity, recordingBaseline: recordingBaseline)
        context.failBar = outcome.failBar
        let policy = outcome.gate.policy
        context.rulesOff = Set(policy.rules.filter { $0.value == .off }.keys)
        guard needsRoot else { return context }
        let here = FileManager.default.currentDirectoryPath
        context.workingDirectory = here
        if let top = GitRevisionStore.topLevel() {
            context.repositoryRoot = top
        } else if let policyFile {
            let file = policyFile.file.hasPrefix("/") ? policyFile.file : here + "/" + policyFile.file
            context.repositoryRoot = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
        } else {
            context.repositoryRoot = here
        }
        return context
    }
}
