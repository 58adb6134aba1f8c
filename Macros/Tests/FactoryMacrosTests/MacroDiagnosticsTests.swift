import FactoryMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What the attributes refuse, said at the attribute, with what to do.
@Suite("The attributes' errors")
struct MacroDiagnosticsTests {
    let macros: [String: MacroSpec] = [
        "Scriptable": MacroSpec(type: ScriptableMacro.self, conformances: ["LuaExportable"]),
        "ScriptValue": MacroSpec(type: ScriptValueMacro.self, conformances: ["LuaConvertible", "LuaArgument", "LuaResult"]),
        "ScriptIgnored": MacroSpec(type: ScriptIgnoredMacro.self),
        "ScriptImplementable": MacroSpec(type: ScriptImplementableMacro.self),
    ]

    func expectError(_ source: String, _ message: String, expandedTo expanded: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // (The expansion leaves the declaration as it was but for its closing brace, which goes on a line of its own.)
        let formatted = expanded.hasSuffix(" }") ? String(expanded.dropLast(2)) + " \n}" : expanded
        assertMacroExpansion(source, expandedSource: formatted,
                             diagnostics: [DiagnosticSpec(message: message, line: 1, column: 1)],
                             macroSpecs: macros, failureHandler: { failure in Issue.record("\(failure.message)", sourceLocation: sourceLocation) })
    }

    @Test func aStructOrAnEnumIsRefusedWithWhatToUse() {
        expectError("@Scriptable struct Point { var x: Int }",
                    "@Scriptable exports a class (an object scripts hold): a struct is a value, which @ScriptValue lets scripts hold as a table",
                    expandedTo: "struct Point { var x: Int }")
        expectError("@ScriptValue enum Mode { case a }",
                    "@ScriptValue applies to a struct (a value scripts hold as a table); @Scriptable exports a class",
                    expandedTo: "enum Mode { case a }")
        expectError("@ScriptValue struct Point { var x: Int; init() { x = 0 } }",
                    "@ScriptValue builds Point through its memberwise initializer: move its own initializers to an extension (the memberwise one stays)",
                    expandedTo: "struct Point { var x: Int; init() { x = 0 } }")
        expectError("@ScriptValue struct Point { var x = 0 }",
                    "'x' needs its type written (var x: Type): scripts give it as a table field, checked against that type",
                    expandedTo: "struct Point { var x = 0 }")
    }

    @Test func anAsyncOrGenericOrVariadicMethodSaysToIgnoreIt() {
        expectError("@Scriptable final class A { func load() async -> Int { 1 } }",
                    "'load' is async: Lua calls are synchronous; mark it @ScriptIgnored, or export a synchronous method",
                    expandedTo: "final class A { func load() async -> Int { 1 } }")
        expectError("@Scriptable final class A { func pick<T>(_ x: T) -> Int { 1 } }",
                    "'pick' is generic: Lua needs one signature; mark it @ScriptIgnored",
                    expandedTo: "final class A { func pick<T>(_ x: T) -> Int { 1 } }")
        expectError("@Scriptable final class A { func sum(_ xs: Int...) -> Int { 1 } }",
                    "'sum' takes a variadic 'xs': take an array instead, or mark it @ScriptIgnored",
                    expandedTo: "final class A { func sum(_ xs: Int...) -> Int { 1 } }")
    }

    @Test func anOverloadIsRefusedRatherThanLost() {
        expectError("@Scriptable final class A { func add(_ x: Int) {}; func add(_ s: String) {} }",
                    "'add' is declared more than once (overloads, or a property and a method): a Lua object has one member of a name; mark the others @ScriptIgnored",
                    expandedTo: "final class A { func add(_ x: Int) {}; func add(_ s: String) {} }")
    }

    @Test func aProtocolRequirementLuaCannotHonourIsRefused() {
        expectError("@ScriptImplementable protocol P { func f() -> Int }",
                    "'f' must be throws: a Lua implementation can fail, and its failure must reach the caller (func f(…) throws)",
                    expandedTo: "protocol P { func f() -> Int }")
        expectError("@ScriptImplementable protocol P { var name: String { get } }",
                    "'name' must be { get throws }: a Lua implementation can lack it or hold the wrong type, and reading it must say so",
                    expandedTo: "protocol P { var name: String { get } }")
        expectError("@ScriptImplementable protocol P { associatedtype T; func f() throws }",
                    "P has an associated type: Lua implements protocols used as `any P`",
                    expandedTo: "protocol P { associatedtype T; func f() throws }")
    }
}
