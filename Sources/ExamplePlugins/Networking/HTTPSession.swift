import LuaBridge

/// Where a loader sends its requests (a base URL; the movie loaders article
/// adds real requests in its example).
public final class HTTPSession: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "HTTPSession"
    public let baseURL: String

    public init(baseURL: String) { self.baseURL = baseURL }

    static var luaClass: LuaClass<HTTPSession> {
        LuaClass<HTTPSession>()
            .namedConstructor { HTTPSession(baseURL: try $0.required("baseURL")) }
            .property("baseURL") { $0.baseURL }
            .tostring { "HTTPSession(\($0.baseURL))" }
    }
}
