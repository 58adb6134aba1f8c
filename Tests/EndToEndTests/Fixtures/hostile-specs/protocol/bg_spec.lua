describe("background", function()
  it("starts a background helper and passes", function()
    -- The helper keeps every descriptor the worker did not mark close-on-exec,
    -- except those above 3 (the test harness's own), which it closes: if the
    -- report pipe (descriptor 3) leaked into it, the runner would wait 20 s.
    os.execute("for fd in 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do eval \"exec $fd>&-\"; done; sleep 20 >/dev/null 2>&1 &")
  end)
end)
