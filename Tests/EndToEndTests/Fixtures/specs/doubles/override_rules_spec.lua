-- What an override may and may not do.
configuration "app" {
  register "string#word" { params = { text = "hello" }, make = function(d) return d.text end },
  register "table#box" { scope = "singleton", deps = { word = "string#word" }, make = function(d) return { d.word } end },
}
configuration "app (test overrides)" { register "string#word" { make = function() return "not this one" end } }
describe("an override", { config = "app" }, function()
  it("may change only parameters", function(c)
    override "string#word" { params = { text = "hi" } }
    expect(c:resolve("table#box")[1]):to_be("hi")
  end)
  it("never lands in a configuration the script declared", function(c)
    override "table#box" { scope = "singleton", make = function() return { "mine" } end }
    expect(c:resolve("string#word")):to_be("hello")
  end)
  it("needs a body", function() override "string#word" end)
  it("is refused once a child container lives", function(c)
    local child = c:child {}
    override "string#word" { make = function() return "late" end }
  end)
end)
describe("in an after_each", { config = "app" }, function()
  after_each(function() override "string#word" { make = function() return "x" end } end)
  it("is refused", function() end)
end)
describe("in a finally", { config = "app" }, function()
  it("is refused", function()
    finally(function() override "string#word" { make = function() return "x" end } end)
  end)
end)
describe("in a before_each after one that resolved", { config = "app" }, function()
  before_each(function(c) c:resolve "table#box" end)
  before_each(function() override "string#word" { make = function() return "late" end } end)
  it("is refused", function() end)
end)
