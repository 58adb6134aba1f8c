return { name = "b", version = "1.0", requires = { "a" } }
