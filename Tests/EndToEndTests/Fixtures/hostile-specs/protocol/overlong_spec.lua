-- A test writes 80 MiB with no newline to the report pipe (fd 3): the
-- runner held it all (1.5 GB took 4.5 GB, or aborted under a memory cap,
-- losing the report). It keeps at most 64 MiB of a line, then distrusts
-- the worker.
describe("pipe", function()
  it("writes one huge line", function()
    local report = assert(io.open("/proc/self/fd/3", "w"))
    local mebibyte = string.rep("x", 1 << 20)
    for _ = 1, 80 do report:write(mebibyte) end
    report:close()
  end)
end)
