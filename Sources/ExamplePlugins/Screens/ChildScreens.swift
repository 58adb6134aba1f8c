import LuaBridge

/// The detail screen for one user: two injected services and one runtime
/// argument — the assisted-injection case of the Typhoon article.
public final class ChildViewController: LuaExportable, Sendable {
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

/// The Typhoon article's `ChildViewControllerFactory`: the two services a
/// child screen needs, as read-only properties (injected), and one factory
/// method that takes the user at run time. Scripts generate it from this
/// interface or write it by hand.
public protocol ChildViewControllerFactory: AnyObject {
    var usersService: UsersService { get throws }
    var photoService: PhotoService { get throws }
    func childViewController(user: User) throws -> ChildViewController
}

final class LuaChildViewControllerFactory: ChildViewControllerFactory, LuaImplemented {
    let implementation: LuaImplementation
    init(_ implementation: LuaImplementation) { self.implementation = implementation }
    var usersService: UsersService { get throws { try implementation.property("usersService") } }
    var photoService: PhotoService { get throws { try implementation.property("photoService") } }
    func childViewController(user: User) throws -> ChildViewController {
        try implementation.call("childViewController", user, returning: ChildViewController.self)
    }
}

extension LuaInterface where Protocol == any ChildViewControllerFactory {
    static let childViewControllerFactory = LuaInterface("ChildViewControllerFactory") { LuaChildViewControllerFactory($0) }
        .property("usersService", UsersService.self)
        .property("photoService", PhotoService.self)
        .method("childViewController", ("user", User.self), returning: ChildViewController.self)
}

/// The list screen: it knows the users service and a factory for child
/// screens, never the photo service (the article's point).
///
/// Not `Sendable`: a screen, used on the UI (host) thread; its factory is typically implemented in Lua.
public final class ParentViewController: LuaExportable {
    public static let luaTypeName = "ParentViewController"
    public let users: UsersService
    public let childViewControllerFactory: any ChildViewControllerFactory

    public init(users: UsersService, childViewControllerFactory: any ChildViewControllerFactory) {
        self.users = users
        self.childViewControllerFactory = childViewControllerFactory
    }

    /// Opens the child screen for `name`, made by the injected factory.
    public func open(_ name: String) throws -> ChildViewController {
        guard users.names.contains(name) else {
            throw LuaError(.runtime, "ParentViewController.open: no user named '\(name)' (users: \(users.names.joined(separator: ", ")))")
        }
        return try childViewControllerFactory.childViewController(user: User(name: name))
    }

    static var luaClass: LuaClass<ParentViewController> {
        LuaClass<ParentViewController>()
            .constructor(frame: { frame in
                ParentViewController(users: try frame.object(1, as: UsersService.self, typeName: UsersService.luaTypeName),
                                     childViewControllerFactory: try LuaInterface.childViewControllerFactory.argument(frame, 2))
            })
            .method("open") { (screen, name: String) in try screen.open(name) }
            .property("users") { $0.users }
    }
}
