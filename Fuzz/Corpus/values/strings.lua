return { "a", "b" }, { x = 1, y = 2 }, { [1] = 1.5, [2] = 0/0 }, string.rep("z", 100000), { [{}] = 1 }, print
