import Foundation
import TallyCheck
import TallyConfig
import TallyReport
import TallyRun

extension ReportContext {
    /// The context of a check or lint run: what fails it (the policy's `fail_on`, `--strict`;
    /// nothing while recording a baseline) and, when a report needs it, the repository root:
    /// `git rev-parse --show-toplevel` here, else the folder of the policy file, else here.
    static func forRun(policy: Policy, strict: Bool, recordingBaseline: String? = nil, policyFile: PolicyFile?, needsRoot: Bool) -> ReportContext {
        let failsAt: Severity? = recordingBaseline != nil ? nil : (strict ? min(policy.failOn, .warning) : policy.failOn)
        var context = ReportContext(failsAt: failsAt, recordingBaseline: recordingBaseline)
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
