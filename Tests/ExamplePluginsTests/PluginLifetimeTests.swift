import ExamplePlugins
import Foundation
import Testing

@Suite("Shipped plugins free what they hold")
struct PluginLifetimeTests {
    @Test func aLoopbackServerNobodyStoppedIsFreedAndStopsListening() throws {
        weak var weakServer: LoopbackServer?
        var port: UInt16 = 0
        do {
            let server = try LoopbackServer(routes: ["/": "hi"], delays: [:])
            weakServer = server
            port = server.port
        }
        #expect(weakServer == nil, "its accept thread keeps it alive")
        // Its listening socket is closed: a connection is refused.
        var refused = false
        for _ in 0..<100 where !refused {
            #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            refused = result != 0
            if !refused { usleep(10_000) }
        }
        #expect(refused)
    }
}
