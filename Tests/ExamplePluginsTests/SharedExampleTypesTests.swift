import ExamplePlugins
import LuaBridge
import Foundation
import Testing
import ThreadTestSupport

/// The example types a container shares between threads (singletons, scoped
/// loaders, a store), used from several real threads at once: each guards its
/// state with a lock, so nothing is lost or overdrawn. (The Lua state's owner
/// check is the core's: FactoryScriptingTests' LuaOwnerThreadTests.)
@Suite("Shared example types used from several threads")
struct SharedExampleTypesTests {
    @Test func aCreditServiceChargedFromEightThreadsNeverOverdraws() throws {
        let credit = try CreditService(balance: 2_000)
        let tally = Tally()
        onThreads(8) { _ in
            var charged = 0, refused = 0, overdrawn = false
            for _ in 0..<500 {
                do {
                    try credit.charge(1)
                    charged += 1
                } catch {
                    refused += 1
                }
                if credit.balance < 0 { overdrawn = true }
            }
            tally.add(["charged": charged, "refused": refused, "overdrawn": overdrawn ? 1 : 0])
        }
        // 4,000 charges of $1 against $2,000: exactly half go through, and the balance is what they leave.
        #expect(tally["charged"] == 2_000)
        #expect(tally["refused"] == 2_000)
        #expect(tally["overdrawn"] == 0)
        #expect(credit.balance == 2_000 - Double(tally["charged"]))
        #expect(credit.balance == 0)
    }

    @Test func aCacheStoredAndReadFromEightThreadsKeepsEveryEntry() {
        let cache = Cache()
        let tally = Tally()
        onThreads(8) { thread in
            var missing = 0
            for i in 0..<500 {
                let id = thread * 1_000 + i
                cache.store("movie \(id)", for: id)
                if cache.value(for: id) != "movie \(id)" { missing += 1 }
                _ = cache.count
            }
            tally.add(["missing": missing])
        }
        #expect(tally["missing"] == 0)
        #expect(cache.count == 4_000)
        #expect((0..<8).allSatisfy { thread in (0..<500).allSatisfy { cache.value(for: thread * 1_000 + $0) == "movie \(thread * 1_000 + $0)" } })
    }

    @Test func aMovieLoaderLoadsStartsAndCancelsFromEightThreads() throws {
        let cache = Cache()
        let loader = MovieLoader(cache: cache, session: HTTPSession(baseURL: "fixture://movies"))
        let tally = Tally()
        onThreads(8) { thread in
            var wrong = 0
            for i in 0..<100 {
                let id = thread * 1_000 + i
                if (try? loader.load(id)) != "movie \(id) from fixture://movies" { wrong += 1 }
                if i % 2 == 0 {
                    // A fixture session answers at once: when start returns, the request is done, or
                    // cancelled by another thread's cancelAll while it was pending.
                    let state = (try? loader.start(id))?.currentState
                    if state != "done" && state != "cancelled" { wrong += 1 }
                    _ = loader.pendingCount
                }
                if i % 10 == 0 { loader.scopeDidClose() }      // as the thread closing its scope would
            }
            tally.add(["wrong": wrong])
        }
        #expect(tally["wrong"] == 0)
        #expect(cache.count == 800)
        #expect(loader.fetches == 800 + 400)                  // every load missed once; every start fetched
        #expect(loader.pendingCount == 0)
    }

    @Test func aPersistentContainerInsertingFromEightThreadsGivesEachRowItsOwnID() throws {
        let store = try PersistentContainer(model: ManagedObjectModel(merging: ["Users"]), stores: [StoreDescription(path: nil)])
        let tally = Tally()
        let rowsInserted = Collected<(id: Int, name: String)>()
        onThreads(8) { thread in
            var failed = 0
            for i in 0..<50 {
                let name = "user \(thread)-\(i)"
                do {
                    rowsInserted.append((try store.insert("users", ["name": LuaValue(name)]), name))
                } catch {
                    failed += 1
                }
            }
            tally.add(["failed": failed])
        }
        #expect(tally["failed"] == 0)
        let inserted = rowsInserted.values
        // Each insert's id is its own row's (not another thread's insert made meanwhile).
        let ids = inserted.map(\.id)
        #expect(Set(ids).count == ids.count, "an id was returned twice")
        #expect(ids.count == 400 && ids.min() == 1 && ids.max() == 400)
        let rows = try store.fetch("users")
        #expect(try store.count("users") == 400)
        let names = Dictionary(uniqueKeysWithValues: rows.compactMap { row -> (Int, String)? in
            guard case .integer(let id)? = row["id"], case .string(let name)? = row["name"] else { return nil }
            return (id, name.description)
        })
        #expect(inserted.allSatisfy { names[$0.id] == $0.name })
    }

    @Test func aPersistentContainerClosedWhileThreadsInsertFailsThemCleanly() throws {
        let store = try PersistentContainer(model: ManagedObjectModel(merging: ["Users"]), stores: [StoreDescription(path: nil)])
        let tally = Tally()
        onThreads(4) { thread in
            var inserted = 0, refused = 0, other = 0
            for i in 0..<200 {
                if thread == 0 && i == 20 { store.close() }
                do {
                    _ = try store.insert("users", ["name": LuaValue("u\(i)")])
                    inserted += 1
                } catch let error as LuaError where error.message == "the store ':memory:' is closed" {
                    refused += 1
                } catch {
                    other += 1
                }
            }
            tally.add(["inserted": inserted, "refused": refused, "other": other])
        }
        #expect(tally["other"] == 0)
        #expect(tally["inserted"] + tally["refused"] == 800)
        #expect(tally["refused"] >= 180)                      // thread 0's own, at least, after it closed
    }
}
