/// An object that must stop its work when the custom scope holding it
/// closes — even if something else (a script's variable, say) still holds
/// it, so `deinit` would come later or never.
///
/// ```swift
/// final class MovieLoader: ScopeBound {
///     func scopeDidClose() { cancelPendingRequests() }
/// }
/// let screen = try container.openScope("screen")
/// let loader = try screen.resolve(MovieLoader.self)
/// try screen.close()      // loader.scopeDidClose() runs here
/// ```
public protocol ScopeBound: AnyObject {
    /// Called once, when the scope that holds this instance closes (newest
    /// instance first, nested scopes before their parent), or the container
    /// that holds it as a singleton closes. An error it throws is reported
    /// by that `close()`, after every other instance was closed.
    ///
    /// - Throws: What releasing failed with: the close reports it (`.disposalFailed`) after every other instance was closed.
    func scopeDidClose() throws
}
