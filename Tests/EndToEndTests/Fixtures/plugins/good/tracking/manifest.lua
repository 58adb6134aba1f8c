return { name = "tracking", version = "1.0.0", requires = { "networking" } }
