os.exit(false)
