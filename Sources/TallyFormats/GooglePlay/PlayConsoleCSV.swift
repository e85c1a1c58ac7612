import Foundation
import TallyModel

/// The Play Console's in-app products CSV (import and export), one row per product:
///
/// ```
/// Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price,Pricing Template ID
/// coins_100,published,managed_by_android,false,en_US; 100 Coins; A pile of coins,false,US; 990000; GB; 790000,
/// ```
///
/// Prices are micro-units (990000 is 0.99) after a region code, `; `-separated pairs; a region
/// priced twice in one row is an error naming the product, the region, both values and their lines. With `Auto Fill Prices` true the price is
/// one amount in the developer's default currency, for no region in particular: it is read as
/// the price of the Play default territory (`PlayDefaultPrice`), else named as a dropped value.
/// The snake_case header of the documentation (`product_id,publish_state,purchase_type,autotranslate,locale; title;
/// description,autofill,country; price,pricing_template_id`) is read too.
enum PlayConsoleCSV {
    /// Header names with case, spaces and `_` taken out.
    private static func normalise(_ name: String) -> String {
        name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "\u{FEFF}" }
    }

    /// Whether a file's first line is a Play Console header.
    static func sniff(_ head: String) -> Bool {
        let first = head.prefix { $0 != "\n" && $0 != "\r" }
        let names = first.split(separator: ",").map { normalise(String($0)) }
        return names.first == "productid" && names.contains("purchasetype")
            && (names.contains("publishedstate") || names.contains("publishstate"))
    }

    static func read(bytes: [UInt8], file: String, firstLine: Int, options: ReadOptions, into records: inout PlayRecords) throws {
        // The Console file is small: its records are taken whole (texts and cell positions) from
        // the project's streaming CSV scanner.
        var scanner = try CSVScanner(bytes: bytes, file: file)
        var rows: [ConsoleRow] = []
        while try scanner.advance() {
            let record = scanner.record
            if record.isBlank { continue }
            rows.append(ConsoleRow(number: record.number, fields: (0..<record.count).map { record.untrimmed($0) },
                                   positions: (0..<record.count).map { record.position($0) },
                                   textPositions: (0..<record.count).map { record.textPosition($0) }, line: record.line))
        }
        guard let headerRow = rows.first else {
            throw FormatError("the file has no header row (expected Product ID,Published State,Purchase Type,...)", file: file, position: Position(line: 1, column: 1))
        }
        let shift = firstLine - 1
        func shifted(_ position: Position) -> Position {
            Position(line: Int(position.line) + shift, column: Int(position.column))
        }
        func at(_ row: ConsoleRow, _ index: Int) -> Position { shifted(row.position(index)) }
        let table = (header: headerRow.fields.map { $0.trimmingCharacters(in: .whitespaces) }, rows: rows.dropFirst())
        func position(_ row: ConsoleRow, _ index: Int?) -> Position { at(row, index ?? 0) }
        let names = table.header.map(normalise)
        func column(_ candidates: String...) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let idColumn = column("productid") else {
            throw FormatError("a Play Console CSV needs a Product ID column", file: file, position: Position(line: 1, column: 1))
        }
        let stateColumn = column("publishedstate", "publishstate")
        let typeColumn = column("purchasetype")
        let listingColumn = column("locale;title;description")
        let autofillColumn = column("autofillprices", "autofill")
        let priceColumn = column("price", "country;price")
        // A column Tally neither reads nor skips on purpose is named, with how many rows fill it.
        var account = KeyAccount()
        for (index, name) in names.enumerated() where !columns.knows(name) {
            let filled = table.rows.filter { index < $0.fields.count && !$0.fields[index].trimmingCharacters(in: .whitespaces).isEmpty }.count
            account.note(table.header[index], in: columns, entries: filled, at: shifted(headerRow.position(index)))
        }
        records.issues += account.issues

        for row in table.rows {
            func cell(_ index: Int?) -> String? {
                guard let index, index < row.fields.count else { return nil }
                let text = row.fields[index].trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            guard let id = cell(idColumn) else {
                throw FormatError("row \(row.number) has no Product ID", file: file, position: position(row, idColumn))
            }
            let state: String? = switch cell(stateColumn)?.lowercased() {
            case "published"?, "active"?: "ACTIVE"
            case "unpublished"?, "inactive"?: "INACTIVE"
            case let other?: other.uppercased()
            case nil: nil
            }
            guard ProductStates.counts(state, including: options.includeStates, hidden: &records.hidden) else { continue }
            let kind: ProductKind
            switch cell(typeColumn)?.lowercased() {
            case "managed_by_android"?, "managedbyandroid"?, "managed"?, "managed_by_publisher"?, nil: kind = .nonConsumable
            case "subscription"?: kind = .autoRenewableSubscription
            case let other?:
                throw FormatError("unknown purchase type \"\(other)\" (expected managed_by_android or subscription)",
                                  file: file, position: position(row, typeColumn))
            }
            var product = Product(id: id, kind: kind, position: at(row, idColumn), fieldPositions: [.id: at(row, idColumn)])
            if let typeColumn { product.fieldPositions[.kind] = at(row, typeColumn) }
            if let listing = cell(listingColumn) {
                let parts = listing.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                var index = 0
                while index + 1 < parts.count {
                    product.localizations.append(Localization(locale: parts[index], displayName: parts[index + 1],
                                                              description: index + 2 < parts.count ? parts[index + 2] : nil))
                    index += 3
                }
            }
            let autofill = cell(autofillColumn)?.lowercased() == "true"
            if let priceColumn, priceColumn < row.fields.count, cell(priceColumn) != nil {
                product.fieldPositions[.prices] = at(row, priceColumn)
                let parts = pricedParts(row.fields[priceColumn], at: shifted(row.textPosition(priceColumn)))
                if autofill, parts.count == 1 {
                    // One amount, no region: the app's default price in the developer's default currency.
                    let written = parts[0]
                    guard let amount = PlayAmount.micros(written.text) else {
                        records.issues.append(SourceIssue(rule: .invalidPrice, productID: id, field: .prices,
                                                          message: "default price \"\(written.text)\" is not a whole number of micro-units",
                                                          position: written.position))
                        records.consoleProducts.append(product)
                        continue
                    }
                    if let price = PlayDefaultPrice.place(amount, currency: nil, written: "Auto Fill Prices is true: the price \(written.text)",
                                                          productID: id, position: written.position, options: options, issues: &records.issues) {
                        product.prices.append(price)
                    }
                } else {
                    guard parts.count % 2 == 0 else {
                        let text = row.fields[priceColumn].trimmingCharacters(in: .whitespaces)
                        throw FormatError("the price \"\(text)\" is not region; micro-units pairs (US; 990000; GB; 790000)"
                                          + (autofill ? " nor one default price in micro-units (990000)" : ""),
                                          file: file, position: position(row, priceColumn))
                    }
                    var seen: [Territory: (region: PricedPart, amount: PricedPart)] = [:]
                    for pair in stride(from: 0, to: parts.count, by: 2) {
                        let region = parts[pair], amountText = parts[pair + 1]
                        guard let territory = Territory(region: region.text) else {
                            throw FormatError(Territory.notARegion(region.text), file: file, position: region.position)
                        }
                        if let first = seen[territory] {
                            // Name the product, the region, both values as written (and in money) and where each is.
                            func written(_ pair: (region: PricedPart, amount: PricedPart)) -> String {
                                let money = PlayAmount.micros(pair.amount.text).map { " (\(Money(amount: $0, in: territory)))" } ?? ""
                                return "\(pair.region.text); \(pair.amount.text)\(money) at \(file):\(pair.region.position.line):\(pair.region.position.column)"
                            }
                            let lines = first.region.position.line == region.position.line
                                ? "on line \(region.position.line)" : "on lines \(first.region.position.line) and \(region.position.line)"
                            throw FormatError("\(id): region \(region.text) is priced twice in one row \(lines): \(written(first)) and "
                                              + "\(written((region, amountText))); keep one of them",
                                              file: file, position: region.position)
                        }
                        seen[territory] = (region, amountText)
                        guard let amount = PlayAmount.micros(amountText.text) else {
                            records.issues.append(SourceIssue(rule: .invalidPrice, productID: id, field: .prices,
                                                              message: "price \"\(amountText.text)\" in \(region.text) is not a whole number of micro-units",
                                                              position: amountText.position))
                            continue
                        }
                        product.prices.append(Price(territory: territory, money: Money(amount: amount, in: territory), position: region.position))
                    }
                }
            }
            records.consoleProducts.append(product)
        }
    }
}

extension PlayConsoleCSV {
    /// The header's columns, with case, spaces and `_` taken out (both spellings: the Console's
    /// and the documentation's snake_case).
    static let columns = KeyVocabulary(
        "Play Console CSV", noun: "column",
        read: ["productid", "publishedstate", "publishstate", "purchasetype", "locale;title;description", "autofillprices", "autofill",
               "price", "country;price"],
        // Whether Play machine-translates the listing into other languages, and the name of a
        // pricing template (the prices it gives are in the Price column).
        ignored: ["autotranslate", "pricingtemplateid"])

    /// One `;`-separated part of a price cell, trimmed, and where it starts.
    struct PricedPart {
        var text: String
        var position: Position
    }

    /// The parts of a price cell (`US; 990000; GB; 790000`) with their positions, from where the
    /// cell's text starts (a line break inside a quoted cell starts a new line).
    static func pricedParts(_ text: String, at start: Position) -> [PricedPart] {
        var parts: [PricedPart] = []
        var current = ""
        var partStart: Position?
        var line = Int(start.line), column = Int(start.column)
        func close() {
            parts.append(PricedPart(text: current.trimmingCharacters(in: .whitespaces), position: partStart ?? Position(line: line, column: column)))
            current = ""
            partStart = nil
        }
        for character in text {
            if character == ";" {
                close()
            } else {
                if partStart == nil, !(character == " " || character == "\t" || character.isNewline) {
                    partStart = Position(line: line, column: column)
                }
                current.append(character)
            }
            if character.isNewline { line += 1; column = 1 } else { column += 1 }
        }
        close()
        return parts
    }
}

/// One record of a Play Console CSV: its fields and where each starts.
private struct ConsoleRow {
    var number: Int
    var fields: [String]
    var positions: [Position]
    /// Where each field's text starts (after an opening quote).
    var textPositions: [Position]
    var line: Int

    func position(_ index: Int) -> Position {
        index < positions.count ? positions[index] : Position(line: line, column: 1)
    }

    func textPosition(_ index: Int) -> Position {
        index < textPositions.count ? textPositions[index] : position(index)
    }
}

/// The Google Play developer's default price: one amount in the developer's default currency,
/// for no region in particular (a Play Console CSV row with Auto Fill Prices true; a legacy
/// `InAppProduct` with a `defaultPrice` and no `prices`). It is read as the price of
/// `ReadOptions.playDefaultTerritory`, in `ReadOptions.playDefaultCurrency` (else the currency
/// the source writes, else the territory's); without a territory it is a dropped value.
enum PlayDefaultPrice {
    static func place(_ amount: Decimal, currency: String?, written: String, productID: String, position: Position,
                      options: ReadOptions, issues: inout [SourceIssue]) -> Price? {
        guard let territory = options.playDefaultTerritory else {
            let money = PeopleText.money(plain: MachineText.decimal(amount), currency: currency) + (currency == nil ? " in the developer's default currency" : "")
            issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .prices,
                                      message: "\(written) (\(money)) is the app's default price, for no region in particular",
                                      position: position, remedy: .givePlayDefaultTerritory))
            return nil
        }
        let money = Money(amount: amount, currency: currency ?? options.playDefaultCurrency ?? territory.currency)
        return Price(territory: territory, money: money, position: position)
    }
}
