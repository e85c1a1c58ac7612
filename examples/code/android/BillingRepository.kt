package app.calmly.billing

import com.android.billingclient.api.BillingClient
import com.android.billingclient.api.QueryProductDetailsParams

// Asks Google Play for the subscriptions (Skus.kt) and the lifetime unlock.
class BillingRepository(private val client: BillingClient) {
    fun querySubscriptions(ids: List<String>) = client.queryProductDetailsAsync(
        QueryProductDetailsParams.newBuilder().setProductList(ids.map { id ->
            QueryProductDetailsParams.Product.newBuilder()
                .setProductId(id)
                .setProductType(BillingClient.ProductType.SUBS)
                .build()
        }).build()
    ) { _, _ -> }

    fun loadAll() {
        querySubscriptions(Skus.SUBSCRIPTIONS)
        client.queryProductDetailsAsync(
            QueryProductDetailsParams.newBuilder().setProductList(listOf(
                QueryProductDetailsParams.Product.newBuilder()
                    .setProductId(Skus.LIFETIME)
                    .setProductType(BillingClient.ProductType.INAPP)
                    .build()
            )).build()
        ) { _, _ -> }
    }
}
