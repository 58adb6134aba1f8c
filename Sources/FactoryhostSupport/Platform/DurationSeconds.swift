extension Duration {
    /// The duration in seconds, as a `Double` (fractions kept).
    ///
    /// ```swift
    /// Duration.milliseconds(1500).inSeconds     // 1.5
    /// ```
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
