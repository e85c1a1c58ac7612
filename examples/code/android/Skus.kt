package app.calmly.billing

// The Calmly app's Google Play product IDs.
object Skus {
    const val PLUS_MONTHLY = "com.calmly.app.plus.monthly"
    const val PLUS_ANNUAL = "com.calmly.app.plus.annual"
    const val LIFETIME = "com.calmly.app.lifetime"

    val SUBSCRIPTIONS = listOf(PLUS_MONTHLY, PLUS_ANNUAL)
}
