return { name = "a", version = "1.0", requires = { "b" } }
