/// A folder written by `tally fetch`: the store's pages as the API sent them, plus a manifest
/// (what was fetched, when, from where) that readers skip: it is not a page.
public enum SnapshotFolder {
    /// The manifest's file name inside a snapshot folder.
    public static let manifestName = "tally-snapshot.json"
}
