return { greet = function(who) return "hello, " .. who end }
