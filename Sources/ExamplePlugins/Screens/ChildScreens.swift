import LuaBridge

/// The detail screen for one user: two injected services and one runtime
/// argument — the assisted-injection case of the Typhoon article.
public final class ChildViewController: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "ChildViewController"
    public let users: UsersService
    public let photos: PhotoService
    public let user: User

    public init(users: UsersService, photos: PhotoService, user: User) {
        self.users = users
        self.photos = photos
        self.user = user
    }

    /// What the screen shows.
    public var title: String { "\(user.name): \(photos.photos(of: user).count) photos" }

    static var luaClass: LuaClass<ChildViewController> {
        LuaClass<ChildViewController>()
            .constructor { (users: UsersService, photos: PhotoService, user: User) in
                ChildViewController(users: users, photos: photos, user: user)
            }
            .property("user") { $0.user }
            .property("users") { $0.users }
            .property("photos") { $0.photos }
            .property("title") { $0.title }
            .tostring { "ChildViewController(\($0.user.name))" }
    }
}

/// The list screen: it knows the users service and a *factory* for child
/// screens (a provider taking `{ user = … }`), never the photo service.
public final class ParentViewController: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "ParentViewController"
    public let users: UsersService
    private let makeChild: LuaFunction

    public init(users: UsersService, makeChild: LuaFunction) {
        self.users = users
        self.makeChild = makeChild
    }

    /// Opens the child screen for `name`, made by the injected factory.
    public func open(_ name: String) throws -> ChildViewController {
        guard users.names.contains(name) else {
            throw LuaError(.runtime, "ParentViewController.open: no user named '\(name)' (users: \(users.names.joined(separator: ", ")))")
        }
        guard let state = makeChild.state else { throw LuaError(.closed, "ParentViewController.open: the Lua state is closed") }
        let arguments = try state.newTable(hashCapacity: 1)
        try arguments.rawSet("user", .userdata(state.pushObject(User(name: name), type: User.luaTypeName)))
        guard let result = try makeChild.call(.table(arguments)).first else {
            throw LuaError(.typeMismatch, "the child screen factory returned nothing (ChildViewController expected)")
        }
        return try ChildViewController.fromLua(result)
    }

    static var luaClass: LuaClass<ParentViewController> {
        LuaClass<ParentViewController>()
            .constructor(frame: { frame in
                guard case .function(let makeChild) = frame.value(2) else {
                    throw frame.typeError(2, expected: "function (a provider \"ChildViewController\")")
                }
                return ParentViewController(users: try UsersService.fromLua(frame.value(1)), makeChild: makeChild)
            })
            .method("open") { (screen, name: String) in try screen.open(name) }
            .property("users") { $0.users }
    }
}
