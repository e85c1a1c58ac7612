/// One store's fetch in progress: it writes pages through `writer` and counts what it did.
protocol SnapshotRun {
    var writer: SnapshotWriter { get }
    var client: FetchClient { get }
    var requests: Int { get }
    var counts: [String: Int] { get }
    mutating func fetchAll() async throws
}

extension SnapshotRun {
    /// Fetches everything, then puts the snapshot in place with its manifest; on any failure
    /// the output folder is left as it was. Every store's fetch ends here.
    mutating func complete(manifest: (Self) -> SnapshotManifest) async throws -> SnapshotManifest {
        for name in writer.swept { client.progress?(.stagingRemoved(name: name)) }
        do {
            try await fetchAll()
            let made = manifest(self)
            try writer.commit(manifest: made)
            return made
        } catch {
            writer.discard()
            throw error
        }
    }
}
