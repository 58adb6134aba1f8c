import LuaBridge

/// Where a loader sends its requests. An `http://` or `https://` base URL
/// makes real HTTP requests (through libcurl); any other (`fixture://`,
/// say) serves fixtures, for test configurations.
public final class HTTPSession: LuaExportable, Sendable {
    public static let luaTypeName = "HTTPSession"
    public let baseURL: String

    public init(baseURL: String) { self.baseURL = baseURL }

    /// Whether requests go over HTTP (else they are answered from fixtures).
    public var isHTTP: Bool { baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") }

    /// The fixture body for `path` in a non-HTTP session.
    func fixture(for path: String) -> String {
        if path.hasPrefix("/movies/"), let id = Int(path.dropFirst(8)) { return "movie \(id) from \(baseURL)" }
        return "fixture \(path) from \(baseURL)"
    }

    /// `GET path`, waiting for the body (or the fixture).
    public func get(_ path: String) throws -> String {
        guard isHTTP else { return fixture(for: path) }
        let (status, body) = try HTTPGet().run(baseURL + path)
        guard status == 200 else { throw LuaError(.runtime, "GET \(baseURL)\(path): HTTP \(status) \(body)") }
        return body
    }

    static var luaClass: LuaClass<HTTPSession> {
        LuaClass<HTTPSession>()
            .namedConstructor { HTTPSession(baseURL: try $0.required("baseURL")) }
            .method("get") { (session, path: String) in try session.get(path) }
            .property("baseURL") { $0.baseURL }
            .tostring { "HTTPSession(\($0.baseURL))" }
    }
}
