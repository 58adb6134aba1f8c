-- A test that stops its own worker (SIGSTOP): the runner ends it after a silence and goes on.
it("stops its own worker", { timeout = 1 }, function() os.execute("kill -STOP $PPID") end)
it("still runs", function() end)
