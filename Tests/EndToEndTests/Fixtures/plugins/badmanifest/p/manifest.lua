return { name = "p", version = "one" }
