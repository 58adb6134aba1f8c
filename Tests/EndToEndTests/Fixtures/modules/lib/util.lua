return { name = "lib.util loaded" }
