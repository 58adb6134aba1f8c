import FactoryhostSupport
import LuaBridge

/// Encodes a ``UserSession`` as an XML property list and reads back the
/// lists it wrote (it is no general property-list reader) — Koober's
/// `UserSessionPropertyListCoder`, by the same name, the coder the
/// keychain-style store is given — without Foundation.
public final class UserSessionPropertyListCoder: LuaExportable, Sendable {
    public static let luaTypeName = "UserSessionPropertyListCoder"
    public init() {}

    public func encode(_ session: UserSession) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>user</key><string>\(Self.escape(session.user))</string>\
        <key>token</key><string>\(Self.escape(session.token))</string></dict></plist>

        """
    }

    public func decode(_ text: String) throws -> UserSession {
        guard let user = Self.value(of: "user", in: text), let token = Self.value(of: "token", in: text) else {
            throw LuaError(.runtime, "UserSessionPropertyListCoder: not a user session property list")
        }
        return UserSession(user: user, token: token)
    }

    static func value(of key: String, in text: String) -> String? {
        guard let keyRange = text.firstRange(of: "<key>\(key)</key><string>") else { return nil }
        let rest = text[keyRange.upperBound...]
        guard let end = rest.firstRange(of: "</string>") else { return nil }
        return unescape(String(rest[..<end.lowerBound]))
    }

    static func escape(_ s: String) -> String {
        s.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    static func unescape(_ s: String) -> String {
        s.replacingAll("&lt;", with: "<").replacingAll("&gt;", with: ">").replacingAll("&amp;", with: "&")
    }

    static var luaClass: LuaClass<UserSessionPropertyListCoder> {
        LuaClass<UserSessionPropertyListCoder>()
            .constructor { UserSessionPropertyListCoder() }
            .method("encode") { (coder, session: UserSession) in coder.encode(session) }
            .method("decode") { (coder, text: String) in try coder.decode(text) }
    }
}

/// Where the signed-in session is kept between launches, chosen by the
/// configuration as Koober's `makeUserSessionDataStore()` chooses at build
/// time: a file in the store's own JSON format (`FileUserSessionDataStore`),
/// or a keychain-style secure store (a ``Keychain`` the container owns,
/// never on disk) that keeps the session as a property list written by the
/// ``UserSessionPropertyListCoder`` it is given (`KeychainUserSessionDataStore(userSessionCoder:)`).
///
/// ```lua
/// koober.UserSessionStore.file { path = "session.json" }
/// koober.UserSessionStore.secure { service = "com.koober.session", keychain = k, coder = koober.UserSessionPropertyListCoder.new() }
/// ```
public final class UserSessionStore: LuaExportable, Sendable {
    public static let luaTypeName = "UserSessionStore"
    enum Kind { case file(String), secure(String, Keychain, UserSessionPropertyListCoder) }
    let kind: Kind
    /// The largest session file `read()` takes (a saved session is a few hundred bytes).
    public static let maximumFileSize = 64 * 1024

    init(_ kind: Kind) { self.kind = kind }

    public var summary: String {
        switch kind {
        case .file(let path): return "file \(path)"
        case .secure(let service, _, _): return "secure store \(service)"
        }
    }

    public func read() throws -> UserSession? {
        switch kind {
        case .secure(let service, let keychain, let coder):
            return try keychain.read(service).map(coder.decode)
        case .file(let path):
            guard let file = fopen(path, "r") else {
                if errno == ENOENT { return nil }             // no session saved: not signed in
                throw LuaError(.runtime, "cannot read the session from \(path): \(String(cString: strerror(errno)))")
            }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = fread(&buffer, 1, buffer.count, file)
                if n <= 0 {
                    if ferror(file) != 0 {
                        throw LuaError(.runtime, "cannot read the session from \(path): \(String(cString: strerror(errno)))")
                    }
                    break
                }
                bytes += buffer[..<n]
                guard bytes.count <= Self.maximumFileSize else {
                    throw LuaError(.runtime, "session file \(path) is larger than \(Self.maximumFileSize / 1024) KB: not a saved session")
                }
            }
            do {
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw SessionJSON.failure("it is not UTF-8 text")
                }
                return try SessionJSON.decode(text)
            } catch let error as LuaError {
                throw LuaError(.runtime, "session file \(path): \(error.message)")
            }
        }
    }

    public func save(_ session: UserSession) throws {
        switch kind {
        case .secure(let service, let keychain, let coder):
            keychain.save(coder.encode(session), for: service)
        case .file(let path):
            guard let file = fopen(path, "w") else {
                throw LuaError(.runtime, "cannot write the session to \(path): \(String(cString: strerror(errno)))")
            }
            let bytes = Array(SessionJSON.encode(session).utf8)
            let written = fwrite(bytes, 1, bytes.count, file)
            let writeError = written != bytes.count ? errno : 0
            let closed = fclose(file)
            if written != bytes.count || closed != 0 {
                throw LuaError(.runtime, "cannot write the session to \(path): \(String(cString: strerror(writeError != 0 ? writeError : errno)))")
            }
        }
    }

    /// Forgets the session; a file that is there but cannot be removed is an
    /// error (a sign-out must not leave the session on disk).
    public func delete() throws {
        switch kind {
        case .secure(let service, let keychain, _): keychain.delete(service)
        case .file(let path):
            if remove(path) != 0 && errno != ENOENT {
                throw LuaError(.runtime, "cannot delete the session file \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    static var luaClass: LuaClass<UserSessionStore> {
        LuaClass<UserSessionStore>()
            .classFunction("file") { frame in
                guard case .table(let options) = frame.value(1) else { throw frame.typeError(1, expected: "table { path = … }") }
                guard case .string(let pathText) = try options.rawGet("path") else {
                    throw LuaError(.typeMismatch, "UserSessionStore.file needs a path (a string)")
                }
                guard !pathText.bytes.contains(0), let path = String(validating: pathText.bytes, as: UTF8.self) else {
                    throw LuaError(.typeMismatch, "UserSessionStore.file: the path must be UTF-8 text without NUL bytes")
                }
                if case .nil = try options.rawGet("coder") {} else {
                    throw LuaError(.typeMismatch, "UserSessionStore.file takes no coder: a file store keeps its own format "
                                   + "(JSON); the property-list coder belongs to UserSessionStore.secure")
                }
                try UserSessionStore(.file(path)).push(to: frame)
                return 1
            }
            .classFunction("secure") { frame in
                guard case .table(let options) = frame.value(1) else {
                    throw frame.typeError(1, expected: "table { service = \"…\", keychain = k, coder = c }")
                }
                let serviceValue = try options.rawGet("service")
                guard case .string(let service) = serviceValue else {
                    throw LuaError(.typeMismatch, "UserSessionStore.secure needs a service (a string), got \(serviceValue.typeName)")
                }
                func option<T: LuaExportable>(_ name: String, _ type: T.Type) throws -> T? {
                    let value = try options.rawGet(LuaValue(name))
                    if value.isNil { return nil }
                    guard case .userdata(let userdata) = value, let object = userdata.object(as: T.self) else {
                        throw LuaError(.typeMismatch, "UserSessionStore.secure: \(name) must be a \(T.luaTypeName), got \(value.typeName)")
                    }
                    return object
                }
                guard let keychain = try option("keychain", Keychain.self) else {
                    throw LuaError(.typeMismatch, "UserSessionStore.secure needs a keychain (a Keychain: register one as a "
                                   + "singleton, so each container has its own)")
                }
                guard let coder = try option("coder", UserSessionPropertyListCoder.self) else {
                    throw LuaError(.typeMismatch, "UserSessionStore.secure needs a coder (a UserSessionPropertyListCoder): "
                                   + "the keychain keeps the session as the property list it writes")
                }
                try UserSessionStore(.secure(service.description, keychain, coder)).push(to: frame)
                return 1
            }
            .method("read") { (store: UserSessionStore) in try store.read() }
            .method("save") { (store, session: UserSession) in try store.save(session) }
            .method("delete") { (store: UserSessionStore) in try store.delete() }
            .property("kind") { $0.summary }
            .tostring { "UserSessionStore(\($0.summary))" }
    }
}

/// Reads, signs in (through the remote API) and signs out the user's session.
// Sendable, checked: lets of Sendable values (`api` is, by its protocol; a Lua implementation checks the
// owner thread on every call).
public final class UserSessionRepository: LuaExportable, Sendable {
    public static let luaTypeName = "UserSessionRepository"
    public let store: UserSessionStore
    public let api: any AuthRemoteAPI

    public init(store: UserSessionStore, api: any AuthRemoteAPI) {
        self.store = store
        self.api = api
    }

    public func readSession() throws -> UserSession? { try store.read() }

    public func signIn(user: String, password: String) throws -> UserSession {
        let session = try api.signIn(user: user, password: password)
        try store.save(session)
        return session
    }

    public func signOut() throws { try store.delete() }

    static var luaClass: LuaClass<UserSessionRepository> {
        LuaClass<UserSessionRepository>()
            .constructor(frame: { frame in
                UserSessionRepository(store: try UserSessionStore.fromLua(frame.value(1)),
                                      api: try LuaInterface.authRemoteAPI.argument(frame, 2))
            })
            .method("readSession") { (repository: UserSessionRepository) in try repository.readSession() }
            .method("signIn") { (repository, user: String, password: String) in try repository.signIn(user: user, password: password) }
            .method("signOut") { (repository: UserSessionRepository) in try repository.signOut() }
            .property("store") { $0.store }
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
