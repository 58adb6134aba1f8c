import CCurl
import LuaBridge

/// One HTTP GET through the system's libcurl (see `CCurl`: loaded on the
/// first request), which another thread can cancel: cancelling shuts the
/// connection down, so a wait for the server ends at once.
// @unchecked Sendable: `get` is a let; `run` is called once, by one thread, and `cancel()` may come from any
// other — the C side guards what they share (`cancelled`, the socket) with its own mutex.
final class HTTPGet: @unchecked Sendable {
    private let get: OpaquePointer?

    init() { get = fh_http_get_new() }
    deinit { fh_http_get_free(get) }

    /// The longest a GET may take.
    static let timeoutMilliseconds = 30_000

    /// `GET url` (`http://` or `https://`): the status and the body (as
    /// UTF-8; invalid bytes become U+FFFD).
    func run(_ url: String) throws -> (status: Int, body: String) {
        guard let get else { throw LuaError(.memory, "not enough memory for an HTTP request") }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw LuaError(.runtime, "GET \(url): not an http:// or https:// URL")
        }
        var status = 0, length = 0
        var body: UnsafeMutablePointer<CChar>?
        var reason = [CChar](repeating: 0, count: 512)
        let outcome = fh_http_get_run(get, url, Self.timeoutMilliseconds, &status, &body, &length, &reason, reason.count)
        defer { fh_http_body_free(body) }
        switch outcome {
        case FH_HTTP_OK:
            let bytes = body.map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
            return (status, String(decoding: bytes, as: UTF8.self))
        case FH_HTTP_CANCELLED:
            throw Cancelled()
        default:
            let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw LuaError(.runtime, "GET \(url): \(text)")
        }
    }

    /// Stops the request, from any thread.
    func cancel() {
        if let get { fh_http_get_cancel(get) }
    }

    struct Cancelled: Error {}
}
