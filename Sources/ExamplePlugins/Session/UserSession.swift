import LuaBridge

/// A signed-in user's session.
public final class UserSession: LuaExportable, Sendable {
    public static let luaTypeName = "UserSession"
    public let user: String
    public let token: String

    public init(user: String, token: String) {
        self.user = user
        self.token = token
    }

    static var luaClass: LuaClass<UserSession> {
        LuaClass<UserSession>()
            .namedConstructor { UserSession(user: try $0.required("user"), token: try $0.optional("token") ?? "") }
            .property("user") { $0.user }
            .property("token") { $0.token }
            .tostring { "UserSession(\($0.user))" }
    }
}
