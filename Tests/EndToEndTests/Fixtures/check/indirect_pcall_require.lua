local ok = pcall(require, "latemod2")
