return "sibling loaded"
