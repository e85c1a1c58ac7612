import Foundation
import TallyModel

/// A monthly billing plan (iOS 26.4: billed monthly with a 12-month commitment) whose commitment
/// price is not its monthly price times the months of its commitment. The customer pays the
/// monthly price every month of the commitment; a source that states another total (StoreKit's
/// `commitmentDisplayPrice`, a catalogue's `commitment_price`) shows a total nobody is charged.
/// Where the total is the subscription's up-front price, the hint says so: the two plans are often
/// priced alike, but the store does not make them so.
public struct CommitmentPriceRule: LintRule {
    public static let description = describe(
        id: .commitmentPrice, defaultSeverity: .error,
        summary: "A monthly billing plan's commitment price is not its monthly price times the months of its commitment (12).",
        rationale: "A monthly plan with a 12-month commitment charges its monthly price 12 times: the store's commitment total is that product. A configuration or catalogue that states another total (often the up-front plan's price, which may differ) shows customers, StoreKit testing and revenue figures a total that is never charged.",
        fix: "Set the commitment price to the monthly price times 12 (commitmentDisplayPrice in the .storekit file, commitment_price in a catalogue), or the monthly price to the commitment price divided by 12, as App Store Connect prices the monthly plan.")

    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard catalog.knownFields.contains(.billingPlans) else { return }
        for product in catalog.products where product.kind.isAutoRenewable && !product.billingPlans.isEmpty {
            markChecked(catalog, product, &checked)
            for plan in product.billingPlans where plan.kind == .monthly {
                guard let monthly = plan.price ?? plan.price(in: catalog.defaultTerritory), let commitment = plan.commitmentPrice else { continue }
                let months = plan.commitment.map(\.months).flatMap { $0 > 0 ? $0 : nil } ?? 12
                let total = monthly.amount * Decimal(months)
                guard total != commitment.amount else { continue }
                let owed = Money(amount: total, currency: monthly.currency ?? commitment.currency)
                let stated = Money(amount: commitment.amount, currency: commitment.currency ?? monthly.currency)
                var hint: String?
                if let upfront = product.billingPlansByKind[.upfront].flatMap({ $0.price ?? $0.price(in: catalog.defaultTerritory) }) ?? product.price(in: catalog.defaultTerritory)?.money,
                   upfront.amount == commitment.amount {
                    hint = "\(stated) is the up-front plan's price: the monthly plan's commitment is what its \(months) monthly payments come to (\(owed))"
                }
                findings.append(finding(catalog, product.id, .billingPlans,
                                        "\(product: product.id)'s monthly plan costs \(monthly) a month, \(owed) over its \(count: months)-month commitment, but its commitment price is \(stated)",
                                        at: plan.position, value: stated.description, hint: hint))
            }
        }
    }
}
