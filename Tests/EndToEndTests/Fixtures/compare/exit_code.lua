print("leaving with 3")
os.exit(3)
