-- args: --sandbox
-- status: 1
-- stderr: attempt to call a nil value (field 'searchpath')
-- package.searchpath would open any path: a probe of the file system.
-- run with --sandbox: package.searchpath fopen()s any path, so untrusted code
-- learns which files exist and are readable anywhere (and a FIFO path blocks it)
for _, p in ipairs{"/etc/passwd", "/etc/shadow", "/root/.ssh/id_rsa", "/work/main/README.md", "/nonexistent"} do
  print(p, package.searchpath("x", p) ~= nil)
end
