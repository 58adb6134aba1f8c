-- Names a command must quote, and a transient given a scoped instance (ReplTerminalTests).
interface "Mailer" { "send" }
scope "request"

configuration "prod" {
  register "table#RequestContext" { scope = "request", make = function() return { id = 714 } end },
  register "table#SignupService" { deps = { ctx = "table#RequestContext" },
    make = function(d) return { ctx = d.ctx } end },
}

configuration "staging eu" {
  extends = "prod",
  register "Mailer" { name = "bulk mail", make = function() return { send = function() end } end },
}
