import LuaBridge

/// A user the child screen shows (the Typhoon article's `User`).
public final class User: LuaExportable, Sendable {
    public static let luaTypeName = "User"
    public let name: String
    public init(name: String) { self.name = name }

    static var luaClass: LuaClass<User> {
        LuaClass<User>()
            .constructor { (name: String) in User(name: name) }
            .property("name") { $0.name }
            .tostring { "User(\($0.name))" }
            .equality { $0.name == $1.name }
    }
}

/// Knows the users (a dependency of both screens).
public final class UsersService: LuaExportable, Sendable {
    public static let luaTypeName = "UsersService"
    public let names: [String]
    public init(names: [String]) { self.names = names }

    static var luaClass: LuaClass<UsersService> {
        LuaClass<UsersService>()
            .constructor { (names: [String]) in UsersService(names: names) }
            .method("all") { (service: UsersService) in service.names }
            .method("find") { (service, name: String) in service.names.contains(name) ? User(name: name) : nil }
    }
}

/// Counts a user's photos (the dependency only the child screen needs).
public final class PhotoService: LuaExportable, Sendable {
    public static let luaTypeName = "PhotoService"
    public let photosPerUser: Int
    /// The most photos a user may have here.
    public static let maximumPhotos = 10_000
    public init(photosPerUser: Int) throws {
        guard (0...Self.maximumPhotos).contains(photosPerUser) else {
            throw LuaError(.runtime, "photos per user must be between 0 and \(Self.maximumPhotos) (got \(photosPerUser))")
        }
        self.photosPerUser = photosPerUser
    }

    public func photos(of user: User) -> [String] {
        (0..<photosPerUser).map { "\(user.name)-\($0 + 1).jpg" }
    }

    static var luaClass: LuaClass<PhotoService> {
        LuaClass<PhotoService>()
            .constructor { (count: Int) in try PhotoService(photosPerUser: count) }
            .method("photos") { (service, user: User) in service.photos(of: user) }
    }
}
