import FactoryMacrosPlugin
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// What the attributes refuse, each problem said at the member it is about
/// (line:column), every one of them, with what to do.
@Suite("The attributes' errors")
struct MacroDiagnosticsTests {
    static let macros: [String: MacroSpec] = [
        "Scriptable": MacroSpec(type: ScriptableMacro.self, conformances: ["LuaExportable"]),
        "ScriptValue": MacroSpec(type: ScriptValueMacro.self, conformances: ["LuaConvertible", "LuaArgument", "LuaResult"]),
        "ScriptIgnored": MacroSpec(type: ScriptIgnoredMacro.self),
        "ScriptImplementable": MacroSpec(type: ScriptImplementableMacro.self),
    ]

    struct Problem: Equatable, CustomStringConvertible {
        let line: Int, column: Int, message: String
        var description: String { "\(line):\(column): \(message)" }
    }

    /// The problems expanding `source` reports, in order.
    static func problems(_ source: String) -> [Problem] {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "test.swift")])
        _ = file.expand(macroSpecs: macros, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
        let converter = SourceLocationConverter(fileName: "test.swift", tree: file)
        return context.diagnostics.map { diagnostic in
            let location = diagnostic.location(converter: converter)
            return Problem(line: location.line, column: location.column, message: diagnostic.message)
        }
    }

    /// One problem, `message`, at `line`:`column` (the text under it starting with `at`).
    func expectProblem(_ source: String, _ message: String, at text: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let found = Self.problems(source)
        #expect(found.map(\.message) == [message], sourceLocation: sourceLocation)
        guard let text, let problem = found.first else { return }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let line = problem.line - 1 < lines.count ? lines[problem.line - 1] : ""
        let there = line.utf8.dropFirst(problem.column - 1)
        #expect(String(decoding: there, as: UTF8.self).hasPrefix(text), "said at '\(String(decoding: there, as: UTF8.self))', not at '\(text)'",
                sourceLocation: sourceLocation)
    }

    @Test func aStructOrAnEnumIsRefusedWithWhatToUse() {
        expectProblem("@Scriptable struct Point { var x: Int }",
                      "@Scriptable exports a class (an object scripts hold): a struct is a value, which @ScriptValue lets scripts hold as a table")
        expectProblem("@ScriptValue enum Mode { case a }",
                      "@ScriptValue applies to a struct (a value scripts hold as a table); @Scriptable exports a class")
        expectProblem("@ScriptValue struct Point { var x: Int; init() { x = 0 } }",
                      "@ScriptValue builds Point through its memberwise initializer: move its own initializers to an extension (the memberwise one stays)")
        expectProblem("@ScriptValue struct Point { var x = 0 }",
                      "'x' needs its type written (var x: Type): scripts give it as a table field, checked against that type", at: "x = 0")
    }

    @Test func anAsyncOrGenericOrVariadicMethodIsNamedAtItself() {
        expectProblem("@Scriptable final class A {\n  func load() async -> Int { 1 }\n}",
                      "'load' is async: Lua calls are synchronous; mark it @ScriptIgnored, or export a synchronous method", at: "async")
        expectProblem("@Scriptable final class A { func pick<T>(_ x: T) -> Int { 1 } }",
                      "'pick' is generic: Lua needs one signature; mark it @ScriptIgnored", at: "<T>")
        expectProblem("@Scriptable final class A { func sum(_ xs: Int...) -> Int { 1 } }",
                      "'sum' takes a variadic 'xs': take an array instead, or mark it @ScriptIgnored", at: "_ xs")
        expectProblem("@Scriptable final class A { func f() rethrows {} }",
                      "'f' rethrows; mark it @ScriptIgnored, or export a method that throws", at: "rethrows")
    }

    @Test func everyProblemIsReportedNotOnlyTheFirst() {
        let found = Self.problems("""
            @Scriptable final class A {
                func load() async -> Int { 1 }
                func pair() -> (Int, Int) { (1, 2) }
                func take(_ f: @escaping (Int) -> Void) {}
                func fine() -> Int { 1 }
            }
            """)
        #expect(found.map(\.line) == [2, 3, 4], "\(found)")
        #expect(found.count == 3 && found[1].message.contains("a tuple, which Lua cannot hold as one value"), "\(found)")
        #expect(found.count == 3 && found[2].message.contains("'take' takes 'f' as @escaping (Int) -> Void, a function"), "\(found)")
    }

    @Test func anOverloadIsRefusedRatherThanLost() {
        expectProblem("@Scriptable final class A { func add(_ x: Int) {}; func add(_ s: String) {} }",
                      "'add' is declared more than once (overloads, or a property and a method): a Lua object has one member of a name; mark the others @ScriptIgnored")
        // A class function and an instance method live in different tables.
        #expect(Self.problems("@Scriptable final class A { static func make() -> Int { 1 }; func make() -> Int { 2 } }").isEmpty)
    }

    @Test func namesTheExportUsesAndNamesScriptsCannotWriteAreRefused() {
        expectProblem("@Scriptable final class A { func new() {} }",
                      "'new' is a name scripts use for the initializer (A.new): rename it, or mark it @ScriptIgnored", at: "new")
        expectProblem("@Scriptable(\"Two Words\") final class A {}",
                      "'Two Words' is not a name scripts can write: use letters, digits and _, not starting with a digit, and not a Lua keyword",
                      at: "\"Two Words\"")
        expectProblem("@Scriptable(\"end\") final class A {}",
                      "'end' is not a name scripts can write: use letters, digits and _, not starting with a digit, and not a Lua keyword")
        expectProblem("@ScriptValue(\"\") struct P { var x: Int }",
                      "'' is not a name scripts can write: use letters, digits and _, not starting with a digit, and not a Lua keyword")
    }

    @Test func isolationTheAttributeCannotHonourIsNamed() {
        expectProblem("@Scriptable final class A { @MainActor func f() {} }",
                      "'f' is @MainActor but A is not: mark the class @MainActor (then every member runs on the main actor), or mark 'f' @ScriptIgnored",
                      at: "@MainActor")
        expectProblem("@DatabaseActor @Scriptable final class A { func f() {} }",
                      "A is isolated to @DatabaseActor: @Scriptable runs members on the main actor (@MainActor) or on the thread Lua calls from, not on another actor",
                      at: "@DatabaseActor")
        #expect(Self.problems("@MainActor @Scriptable final class A { @MainActor func f() {} }").isEmpty)
    }

    @Test func aStructsFieldsAreReadAsSwiftDeclaresThem() {
        // `var x, y, z: Double`: one type for three fields.
        #expect(Self.problems("@ScriptValue struct P { var x, y, z: Double }").isEmpty)
        // Left out (private or ignored) with a default: Swift's alone. Without one: the table could not build it.
        #expect(Self.problems("@ScriptValue struct P { var x: Int; private var secret = \"s\"; @ScriptIgnored var onChange: (() -> Void)? = nil }").isEmpty)
        expectProblem("@ScriptValue struct P { var x: Int; private let secret: String }",
                      "'secret' is left out of the table (private or @ScriptIgnored), so it needs a default value: the memberwise initializer that builds P from a table cannot give it",
                      at: "secret")
        expectProblem("@ScriptValue struct P { var f: (Int) -> Int }",
                      "'f' is (Int) -> Int, a function, which scripts cannot give or be given through an export (take a @ScriptImplementable protocol); make it private with a default value to keep it out",
                      at: "f:")
        #expect(Self.problems("@ScriptValue struct P { var x: Int; lazy var y: Int = x * 2 }").isEmpty)
    }

    @Test func aProtocolRequirementLuaCannotHonourIsRefused() {
        expectProblem("@ScriptImplementable protocol P { func f() -> Int }",
                      "'f' must be throws: a Lua implementation can fail, and its failure must reach the caller (func f(…) throws)", at: "f()")
        expectProblem("@ScriptImplementable protocol P { var name: String { get } }",
                      "'name' must be { get throws }: a Lua implementation can lack it or hold the wrong type, and reading it must say so", at: "name")
        expectProblem("@ScriptImplementable protocol P { associatedtype T; func f() throws }",
                      "P has an associated type: Lua implements protocols used as `any P`", at: "associatedtype")
        expectProblem("@ScriptImplementable protocol P { static var kind: String { get throws } }",
                      "'kind' is static: a Lua table cannot implement it, and P's adapter must implement every requirement; move it to another protocol, or leave P without @ScriptImplementable",
                      at: "kind")
        expectProblem("@ScriptImplementable protocol P { init(seed: Int) }",
                      "'init' is an initializer requirement: a Lua table cannot implement it, and P's adapter must implement every requirement; move it to another protocol, or leave P without @ScriptImplementable")
        expectProblem("@ScriptImplementable protocol P { func put(_ x: Int) throws; func put(_ s: String) throws }",
                      "'put' is declared more than once: a Lua table has one method of a name, which could not tell the overloads apart")
        expectProblem("@ScriptImplementable protocol P: Reader { func f() throws }",
                      "P inherits Reader, whose requirements @ScriptImplementable cannot see: declare what a Lua table implements in P itself",
                      at: "Reader")
        expectProblem("@ScriptImplementable protocol P { @ScriptIgnored func f() async throws }",
                      "@ScriptIgnored cannot leave out a requirement: P's adapter must implement every one (move it to another protocol)",
                      at: "@ScriptIgnored")
        expectProblem("@ScriptImplementable protocol P { func load() async throws -> Int }",
                      "'load' is async: Lua calls are synchronous: a Lua table cannot implement that; move it to another protocol, or leave P without @ScriptImplementable",
                      at: "async")
    }

    @Test func anUnnamedRequirementParameterIsPassedOn() {
        let file = Parser.parse(source: "@ScriptImplementable protocol Log: AnyObject { func log(_: String, at _: Int) throws }")
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "test.swift")])
        let expanded = file.expand(macroSpecs: Self.macros, contextGenerator: { _ in context }, indentationWidth: .spaces(4)).description
        #expect(context.diagnostics.isEmpty)
        #expect(expanded.contains("func log(_ argument0: String, at argument1: Int) throws {"), "\(expanded)")
        #expect(expanded.contains("try implementation.call(\"log\", argument0, argument1)"), "\(expanded)")
        #expect(expanded.contains(".method(\"log\", (\"value\", (String).self), (\"at\", (Int).self)"), "\(expanded)")
    }

    @Test func standardProtocolWitnessesAreNotExportsAndNeedNoAttribute() {
        #expect(Self.problems("""
            @Scriptable final class Money: Equatable, Codable, Hashable {
                init(from decoder: Decoder) throws {}
                init(cents: Int) {}
                static func == (a: Money, b: Money) -> Bool { true }
                static func + (a: Money, b: Money) -> Money { a }
                func encode(to encoder: Encoder) throws {}
                func hash(into hasher: inout Hasher) {}
            }
            """).isEmpty)
    }

    @Test func theSecondRoundOfShapesIsNamedAtTheMember() {
        expectProblem("@Scriptable final class A { func f(_ x: Int!) {} }",
                      "'f' takes 'x' as Int!, implicitly unwrapped, which an export cannot promise (write Int?); mark it @ScriptIgnored", at: "_ x")
        expectProblem("@Scriptable final class A { func f(_ g: [String: any Greeter]) {} }",
                      "'f' takes 'g' as [String: any Greeter], a container of any Greeter, which is not supported (take `any Greeter` itself); mark it @ScriptIgnored",
                      at: "_ g")
        expectProblem("@Scriptable final class A { func f(_ g: Optional<any Greeter>) {} }",
                      "'f' takes 'g' as Optional<any Greeter>, a container of any Greeter, which is not supported (take `any Greeter` itself); mark it @ScriptIgnored")
        expectProblem("@Scriptable final class A { @DBActor func f() {} }",
                      "'f' is isolated to @DBActor: @Scriptable runs members on the main actor or on the thread Lua calls from, not on another actor; mark it @ScriptIgnored",
                      at: "@DBActor")
        #expect(Self.problems("@Scriptable final class A { func f(_ x: consuming String, _ y: borrowing Int) {} }").isEmpty)
        expectProblem("@ScriptImplementable protocol P { var other: any P { get throws } }",
                      "'other' is any P, which Lua cannot give back: a Lua table cannot implement it, and P's adapter must implement every requirement; move it to another protocol, or leave P without @ScriptImplementable")
        expectProblem("@ScriptImplementable protocol P { func f() throws(E) }",
                      "'f' has a typed throws: a Lua table cannot implement that; move it to another protocol, or leave P without @ScriptImplementable")
    }

    @Test func ifConfigMembersAreNamedNotSilentlyDropped() {
        let found = Self.problems("@Scriptable final class A {\n#if DEBUG\n  func debugOnly() {}\n#endif\n}")
        #expect(found == [Problem(line: 2, column: 1, message: "members inside #if are not exported: the attribute cannot tell which branch builds; move them out, or export them with a LuaClass of your own")], "\(found)")
        expectProblem("@ScriptValue struct P { var x: Int\n#if DEBUG\n var y: Int\n#endif\n}",
                      "a field inside #if: the table could not say which fields P has; move it out, or give it a default value in a private var outside #if")
        // Every problem of a struct at once.
        #expect(Self.problems("@ScriptValue struct P { var a = 1; var b: (Int) -> Int; var c: Int }").count == 2)
    }
}
