-- status: 0
-- stderr: <none>
-- stdout: 9 refused
-- Closed means closed, for a scope too: through a closed scope (or a scope
-- nested in it) nothing is built — a transient, a singleton not built yet,
-- one with arguments, a set, a new provider, a nested scope — nor through
-- a provider taken from it before it closed (it built into whichever scope
-- of the name was open by then, or the container).
configuration "app" {
  scope "session",
  scope("screen", { within = "session" }),
  register "table#T" { make = function() return {} end },
  register "table#S" { scope = "singleton", make = function() return {} end },
  register "table#A" { args = { n = "integer" }, make = function(_, a) return { n = a.n } end },
  register "table#one" { into = "set", make = function() return {} end },
}
local c = container "app"
local ses = c:openScope "session"
local scr = ses:openScope "screen"
local p = ses:provider "table#T"
ses:close()
local refused = 0
for i, f in ipairs {
  function() return ses:resolve "table#T" end,
  function() return ses:resolve "table#S" end,
  function() return ses:resolve("table#A", { n = 1 }) end,
  function() return ses:resolve "[table]" end,
  function() return ses:provider "table#T"() end,
  function() return scr:resolve "table#T" end,
  function() return scr:resolve "table#S" end,
  function() return ses:openScope "screen" end,
  function() return p() end,
} do
  local ok, err = pcall(f)
  if not ok and tostring(err):find("scope is closed", 1, true) then refused = refused + 1 else print(i, ok, err) end
end
print(refused .. " refused")
print(pcall(c.resolve, c, "table#T"))   -- the container is open: still builds
