import TallyFormats

/// What `tally fetch google-play` needs of a list page it has saved: the next page's token, and
/// of each item its product ID and base plans' IDs (for the per-base-plan offers requests). Read
/// by streaming through the page, never kept as a tree: a page held as Foundation objects cost
/// about 60 times its size, and every page of a list was kept until the list ended (issue 47).
struct PlayListPage {
    struct Item {
        var productID: String?
        /// Each base plan's ID (nil where a plan has none), in order.
        var basePlans: [String?] = []
    }

    var items: [Item] = []
    var nextPageToken: String?

    /// `items`: the list's key (`subscriptions`); `legacy`: the token is in `tokenPagination`.
    /// Throws when the body is not a JSON object.
    init(_ body: [UInt8], items key: String, legacy: Bool) throws {
        var reader = try JSONReader(bytes: body, file: "page", maxDepth: 512)
        guard try reader.peekKind() == .object else { throw JSONPageError.notAnObject }
        try reader.beginObject()
        while let name = try reader.nextKey() {
            switch name {
            case key where try reader.peekKind() == .array:
                try reader.beginArray()
                while try reader.nextElement() { items.append(try Self.item(&reader)) }
            case "nextPageToken" where !legacy:
                nextPageToken = try Self.string(&reader)
            case "tokenPagination" where try legacy && reader.peekKind() == .object:
                try reader.beginObject()
                while let inner = try reader.nextKey() {
                    if inner == "nextPageToken" { nextPageToken = try Self.string(&reader) } else { try reader.skipValue() }
                }
            default:
                try reader.skipValue()
            }
        }
        try reader.finish()
    }

    private static func item(_ reader: inout JSONReader) throws -> Item {
        var item = Item()
        guard try reader.peekKind() == .object else { try reader.skipValue(); return item }
        try reader.beginObject()
        while let name = try reader.nextKey() {
            switch name {
            case "productId":
                item.productID = try string(&reader)
            case "basePlans" where try reader.peekKind() == .array:
                try reader.beginArray()
                while try reader.nextElement() {
                    var id: String?
                    if try reader.peekKind() == .object {
                        try reader.beginObject()
                        while let field = try reader.nextKey() {
                            if field == "basePlanId" { id = try string(&reader) } else { try reader.skipValue() }
                        }
                    } else {
                        try reader.skipValue()
                    }
                    item.basePlans.append(id)
                }
            default:
                try reader.skipValue()
            }
        }
        return item
    }

    /// A string value, or nil (skipped) when the value is of another kind.
    private static func string(_ reader: inout JSONReader) throws -> String? {
        if try reader.peekKind() == .string { return try reader.readString() }
        try reader.skipValue()
        return nil
    }

    enum JSONPageError: Error { case notAnObject }
}
