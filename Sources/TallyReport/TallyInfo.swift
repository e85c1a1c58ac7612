/// The tool's name and version, as reports (SARIF's `tool.driver`) and `tally --version` give them.
public enum TallyInfo {
    public static let name = "Tally"
    public static let version = "0.1.0"
}
