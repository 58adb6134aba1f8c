import FactoryhostSupport
import LuaBridge

/// A small HTTP server on 127.0.0.1 that tests start: it serves fixed
/// bodies by path, optionally after a delay (to keep a request pending),
/// and counts the requests it got and those whose client went away.
///
/// ```lua
/// local server = net.LoopbackServer.start { routes = { ["/movies/1"] = "Alien" }, delays = { ["/movies/1"] = 0.5 } }
/// print(server.baseURL)   --> http://127.0.0.1:43121
/// server:stop()
/// ```
public final class LoopbackServer: LuaExportable, Sendable {
    public static let luaTypeName = "LoopbackServer"
    public let port: UInt16
    /// What the server's threads share. They hold this, not the server, so a
    /// server nobody stopped is still freed (and stopped) when its last
    /// reference goes.
    private let core: Core

    public init(routes: [String: String], delays: [String: Double]) throws {
        let fd = socket(AF_INET, Sockets.streamType, 0)
        guard fd >= 0 else { throw LuaError(.runtime, "LoopbackServer: socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = Sockets.loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw LuaError(.runtime, "LoopbackServer: cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        port = UInt16(bigEndian: address.sin_port)
        let core = Core(listener: fd, routes: routes, delays: delays)
        self.core = core
        Threads.detach { core.acceptLoop() }
    }

    deinit { core.stop() }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var requestCount: Int { core.counts.withLock { $0.served } }
    /// Requests whose client hung up before the response was sent.
    public var abandonedCount: Int { core.counts.withLock { $0.abandoned } }

    /// Stops listening; requests being served finish (or are dropped, if delayed).
    public func stop() { core.stop() }

    /// The listening socket and the routes (lets), and the counters — `served`, `abandoned`, `stopped` — which the
    /// accept and serving threads and the host thread share behind a lock (`Protected`): Sendable, checked.
    private final class Core: Sendable {
        struct Counts {
            var served = 0
            var abandoned = 0
            var stopped = false
        }
        let listener: Int32
        let routes: [String: String]
        let delays: [String: Double]
        let counts = Protected(Counts())

        init(listener: Int32, routes: [String: String], delays: [String: Double]) {
            self.listener = listener
            self.routes = routes
            self.delays = delays
        }

        func stop() {
            let wasRunning = counts.withLock { counts -> Bool in
                defer { counts.stopped = true }
                return !counts.stopped
            }
            if wasRunning { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
        }

        func acceptLoop() {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if counts.withLock({ $0.stopped }) { return }
                    if errno == EINTR { continue }
                    return
                }
                // A client that sends nothing does not hold its thread for ever.
                var wait = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                Threads.detach { [self] in serve(client) }
            }
        }

        private func serve(_ client: Int32) {
            defer { close(client) }
            guard let request = Sockets.receive(client, stopAtHeaderEnd: true) else { return }
            let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
            let parts = line.split(separator: " ")
            let path = parts.count >= 2 ? String(parts[1]) : "/"
            counts.withLock { $0.served += 1 }
            if let delay = delays[path] {
                // Wait in slices, watching for the client to go away and for a stop.
                var waited = 0.0
                while waited < delay {
                    usleep(10_000)
                    waited += 0.01
                    var byte: UInt8 = 0
                    let peeked = recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                    if peeked == 0 || counts.withLock({ $0.stopped }) {
                        counts.withLock { $0.abandoned += 1 }
                        return
                    }
                }
            }
            let body = routes[path]
            let status = body == nil ? "404 Not Found" : "200 OK"
            let text = body ?? "no route for \(path)"
            _ = Sockets.sendAll(client, "HTTP/1.1 \(status)\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)")
        }
    }

    static var luaClass: LuaClass<LoopbackServer> {
        LuaClass<LoopbackServer>()
            .classFunction("start") { frame in
                var routes: [String: String] = [:], delays: [String: Double] = [:]
                if case .table(let options) = frame.value(1) {
                    routes = try [String: String]?.fromLua(options.rawGet("routes")) ?? [:]
                    delays = try [String: Double]?.fromLua(options.rawGet("delays")) ?? [:]
                    for (path, delay) in delays where !(0...60).contains(delay) {
                        throw frame.argumentError(1, "delays[\"\(path)\"] must be between 0 and 60 seconds (got \(delay))")
                    }
                } else if !frame.isNoneOrNil(1) {
                    throw frame.typeError(1, expected: "table { routes = { [path] = body }, delays = { [path] = seconds } }")
                }
                try LoopbackServer(routes: routes, delays: delays).push(to: frame)
                return 1
            }
            .method("stop") { (server: LoopbackServer) in server.stop() }
            .property("baseURL") { $0.baseURL }
            .property("port") { Int($0.port) }
            .property("requestCount") { $0.requestCount }
            .property("abandonedCount") { $0.abandonedCount }
            .tostring { "LoopbackServer(\($0.baseURL))" }
    }
}
