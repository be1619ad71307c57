"""A snippet whose header lacks its Run line."""
print("never shown")
