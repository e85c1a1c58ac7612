import StoreKit

// Loads the products the paywall shows: the IDs come from ProductID.swift, read together with this file.
@MainActor
final class StoreModel {
    private(set) var products: [Product] = []

    func load() async throws {
        products = try await Product.products(for: ProductID.allCases.map(\.rawValue))
    }
}
