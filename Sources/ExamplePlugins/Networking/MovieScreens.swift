import LuaBridge

/// The article's `CategoryViewController`, headless: given a
/// `MovieLoaderFactory`, it makes its own loader the first time it loads —
/// never a shared one — and hands the *factory* on to the recommendations
/// screen it opens, which makes a loader of its own in turn. Closing a screen
/// cancels what its loader still has pending (the article's `deinit`).
/// Not `Sendable`: a screen makes its loader on first use, unsynchronized,
/// as a view controller on the main thread does.
///
/// ```lua
/// local category = net.CategoryViewController.new("drama", factory)
/// local recommendations = category:openRecommendations(1)   -- same factory, its own loader
/// ```
public final class CategoryViewController: LuaExportable {
    public static let luaTypeName = "CategoryViewController"
    public let category: String
    public let loaderFactory: MovieLoaderFactory
    private var screenLoader: ScreenLoader
    /// Made from the factory when first needed (the article's `lazy var loader`).
    public var loader: MovieLoader { screenLoader.get() }

    public init(category: String, loaderFactory: MovieLoaderFactory) throws {
        guard !category.isEmpty else { throw LuaError(.typeMismatch, "a category screen needs a category name") }
        self.category = category
        self.loaderFactory = loaderFactory
        screenLoader = ScreenLoader(factory: loaderFactory)
    }

    deinit { close() }

    /// Loads movie `id` through this screen's loader.
    public func loadMovie(_ id: Int) throws -> String { try loader.load(id) }

    /// Starts loading movie `id` in the background, on this screen's loader.
    public func startLoading(_ id: Int) throws -> StatefulRequest { try loader.start(id) }

    /// The recommendations for movie `id`: a new screen given this screen's
    /// factory (not its loader).
    public func openRecommendations(forMovie id: Int) -> RecommendationsViewController {
        RecommendationsViewController(movie: id, loaderFactory: loaderFactory)
    }

    /// The screen goes away: its pending requests are cancelled.
    public func close() { screenLoader.made?.cancelAll() }

    static var luaClass: LuaClass<CategoryViewController> {
        LuaClass<CategoryViewController>()
            .constructor { (category: String, factory: MovieLoaderFactory) in
                try CategoryViewController(category: category, loaderFactory: factory)
            }
            .method("loadMovie") { (screen, id: Int) in try screen.loadMovie(id) }
            .method("startLoading") { (screen, id: Int) in try screen.startLoading(id) }
            .method("openRecommendations") { (screen, id: Int) in screen.openRecommendations(forMovie: id) }
            .method("close") { (screen: CategoryViewController) in screen.close() }
            .property("category") { $0.category }
            .property("loaderFactory") { $0.loaderFactory }
            .property("loader") { $0.loader }
    }
}

/// The article's `RecommendationsViewController`: opened from a category
/// screen with its factory, it loads with a loader of its own.
public final class RecommendationsViewController: LuaExportable {
    public static let luaTypeName = "RecommendationsViewController"
    public let movie: Int
    public let loaderFactory: MovieLoaderFactory
    private var screenLoader: ScreenLoader
    /// Made from the factory when first needed.
    public var loader: MovieLoader { screenLoader.get() }

    public init(movie: Int, loaderFactory: MovieLoaderFactory) {
        self.movie = movie
        self.loaderFactory = loaderFactory
        screenLoader = ScreenLoader(factory: loaderFactory)
    }

    deinit { close() }

    /// Loads the movie the recommendations are for.
    public func loadMovie() throws -> String { try loader.load(movie) }

    /// Starts loading it in the background, on this screen's loader.
    public func startLoading() throws -> StatefulRequest { try loader.start(movie) }

    /// The screen goes away: its pending requests are cancelled.
    public func close() { screenLoader.made?.cancelAll() }

    static var luaClass: LuaClass<RecommendationsViewController> {
        LuaClass<RecommendationsViewController>()
            .method("loadMovie") { (screen: RecommendationsViewController) in try screen.loadMovie() }
            .method("startLoading") { (screen: RecommendationsViewController) in try screen.startLoading() }
            .method("close") { (screen: RecommendationsViewController) in screen.close() }
            .property("movie") { $0.movie }
            .property("loaderFactory") { $0.loaderFactory }
            .property("loader") { $0.loader }
    }
}

/// A screen's own loader, made from its factory the first time it is needed
/// (never before: closing a screen that loaded nothing makes none).
struct ScreenLoader {
    let factory: MovieLoaderFactory
    private(set) var made: MovieLoader?

    init(factory: MovieLoaderFactory) { self.factory = factory }

    mutating func get() -> MovieLoader {
        if let made { return made }
        let loader = factory.makeMovieLoader()
        made = loader
        return loader
    }
}
