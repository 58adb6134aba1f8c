---@meta factoryhost
-- The globals of factoryhost's configuration DSL and of its test runner, for
-- lua-language-server (LuaCATS annotations). `factoryhost types --format
-- luals` writes this part as it is, then the classes, interfaces and modules
-- of the plugins installed. A definition file: nothing here runs.

---@alias factoryhost.Scope "transient"|"graph"|"singleton"|"weak"|string

---What `value "name"` returns: it stands for the value in a registration's `deps`.
---@class factoryhost.ValueReference

---What `provider "Key"` returns: in `deps`, a function that resolves the key when called.
---@class factoryhost.ProviderMarker

---What `register "Key" { … }` returns: an item of a configuration's body.
---@class factoryhost.Registration

---The body of `register "Key" { … }`.
---@class factoryhost.RegistrationBody
---@field make? fun(d: table, args: table): any builds the value: `d` holds the dependencies, `args` the runtime arguments
---@field deps? table<string, string|factoryhost.ValueReference|factoryhost.ProviderMarker> names given to the keys they resolve
---@field scope? factoryhost.Scope one instance per resolve (transient, the default), per graph, per container (singleton), while held (weak), or per open scope of a declared name
---@field args? table runtime arguments, `{ name = "type" }` or `{ { "name", "type" }, … }` in order
---@field name? string the registration's name (`register "Type#name"` says the same)
---@field eager? boolean a singleton built with its container
---@field into? "set"|"map" a contribution to the list `[Type]` or the map `{Type}`
---@field key? string a map contribution's key
---@field override? boolean replaces an inherited registration (with only `params`: changes them)
---@field params? table<string, any> parameters `make` receives in `d`, inherited by configurations that extend this one
---@field assisted? table<string, string> an interface's methods, each the key it resolves with the method's arguments

---The body of `value "name" { … }`.
---@class factoryhost.ValueBody
---@field type "string"|"integer"|"number"|"boolean"
---@field default? string|integer|number|boolean
---@field env? string an environment variable that sets it

---A live container of a configuration.
---@class factoryhost.Container
---@field configuration string the configuration it was made from
---@field parent factoryhost.Container? the container it was made from with `child`
---@field isClosed boolean
local Container = {}

---Builds `key` (`"Type"`, `"Type#name"`, `"[Type]"`, `"{Type}"`), with runtime arguments if it takes any.
---@param key string
---@param args? table
---@return any
function Container:resolve(key, args) end

---Opens an instance of the declared scope `name`.
---@param name string
---@return factoryhost.Scope
function Container:openScope(name) end

---A function that resolves `key` each time it is called.
---@param key string
---@return fun(args?: table): any
function Container:provider(key) end

---A container that replaces some registrations and shares what this one owns.
---@param body factoryhost.Registration[]
---@return factoryhost.Container
function Container:child(body) end

---Closes the container: what it owns is released, its scopes closed.
function Container:close() end

---An open instance of a declared scope.
---@class factoryhost.OpenScope
---@field name string
---@field isClosed boolean
local OpenScope = {}

---@param key string
---@param args? table
---@return any
function OpenScope:resolve(key, args) end

---@param name string
---@return factoryhost.OpenScope
function OpenScope:openScope(name) end

---@param key string
---@return fun(args?: table): any
function OpenScope:provider(key) end

function OpenScope:close() end

---Declares the configuration `name` (or adds to it): `configuration "app" { extends = "base", register … }`.
---@param name string
---@return fun(body: (factoryhost.Registration|string)[]|{ extends?: string })
function configuration(name) end

---A registration of `key`, for a configuration's body: `register "Cache" { make = function() … end }`.
---@param key string
---@return fun(body: factoryhost.RegistrationBody): factoryhost.Registration
function register(key) end

---In `deps`: a function that resolves `key` when the factory calls it.
---@param key string
---@return factoryhost.ProviderMarker
function provider(key) end

---Declares a scope: `scope "session"`, `scope("screen", { within = "session" })`.
---@param name string
---@param options? { within?: string }
function scope(name, options) end

---A new container of the configuration `name`.
---@param name string
---@return factoryhost.Container
function container(name) end

---Resolves `key` in the script's shared container.
---@param key string
---@param args? table
---@return any
function resolve(key, args) end

---Declares a configuration value (`value "baseURL" { type = "string" }`), or, alone, stands for it in `deps`.
---@param name string
---@return factoryhost.ValueReference|fun(body: factoryhost.ValueBody)
function value(name) end

---Sets configuration values the script works out as it runs.
---@param values table<string, string|integer|number|boolean>
function values(values) end

---Declares an interface scripts implement with tables: `interface "Logger" { "info", "warn" }`.
---@param name string
---@return fun(methods: string[])
function interface(name) end

---Checks that `implementation` implements the interface `name`, and returns it.
---@generic T: table
---@param name string
---@param implementation T
---@return T
function implement(name, implementation) end

---The names of the types scripts can name, sorted.
---@return string[]
function types() end

---What a type offers (`describe "Cache"`); in a spec file, a block of tests (`describe("name", function() … end)`).
---@param name string
---@param body? fun()|table
---@param block? fun()
---@return table?
function describe(name, body, block) end

-- The test runner (spec files, `factoryhost test`).

---@class factoryhost.TestOptions
---@field config? string the configuration of the test's container
---@field timeout? number seconds
---@field tags? string|string[]

---A test: `it("does this", function(c) … end)`, `c` a fresh container of its configuration.
---@param name string
---@param options_or_body? factoryhost.TestOptions|fun(c: factoryhost.Container)
---@param body? fun(c: factoryhost.Container)
function it(name, options_or_body, body) end

---A test to write later: it is reported, not run.
---@param name string
---@param options_or_body? factoryhost.TestOptions|fun()
---@param body? fun()
function pending(name, options_or_body, body) end

---Runs before each test of the block, with the test's container.
---@param hook fun(c: factoryhost.Container)
function before_each(hook) end

---Runs after each test of the block, with the test's container.
---@param hook fun(c: factoryhost.Container)
function after_each(hook) end

---Runs once before the first test of the block that runs.
---@param hook fun()
function before_all(hook) end

---Runs once after the last test of the block that runs.
---@param hook fun()
function after_all(hook) end

---Runs when the test ends, passed or failed.
---@param cleanup fun()
function finally(cleanup) end

---Replaces `key` in this test's container only: `override "Clock" { make = … }`.
---@param key string
---@return fun(body: factoryhost.RegistrationBody)
function override(key) end

---@class factoryhost.Expectation
---@field never factoryhost.Expectation the negated expectation
local Expectation = {}
---@param expected any
function Expectation:to_be(expected) end
---@param expected any
function Expectation:to_equal(expected) end
---@param expected number
---@param tolerance? number
function Expectation:to_be_close_to(expected, tolerance) end
function Expectation:to_be_truthy() end
function Expectation:to_be_falsy() end
function Expectation:to_be_nil() end
---@param length integer
function Expectation:to_have_length(length) end
---@param type_name string
function Expectation:to_be_a(type_name) end
---@param pattern? string
function Expectation:to_fail(pattern) end
---@param pattern string
function Expectation:to_match(pattern) end
---@param element any
function Expectation:to_contain(element) end
function Expectation:to_have_been_called() end
---@param count integer
function Expectation:to_have_been_called_times(count) end
---@param ... any
function Expectation:to_have_been_called_with(...) end

---@class factoryhost.Expect
---@overload fun(actual: any): factoryhost.Expectation
---@field extend fun(matchers: table<string, fun(actual: any, ...: any): boolean, string?>)
expect = {}

---@class factoryhost.Spy
---@overload fun(...: any): any
---@field calls { args: any[] }[]

---@class factoryhost.SpyLibrary
---@overload fun(fn?: function): factoryhost.Spy
---@field on fun(t: table, key: string): factoryhost.Spy replaces `t[key]` with a spy until the test ends
---@field calls fun(s: factoryhost.Spy): { args: any[] }[]
---@field clear fun(s: factoryhost.Spy)
---@field revert fun(s: factoryhost.Spy)
spy = {}

---@class factoryhost.StubLibrary
---@overload fun(interface: string): fun(methods: table<string, function>): table
---@field strict fun(interface: string): fun(methods: table<string, function>): table a stub whose unlisted methods fail the test
stub = {}
