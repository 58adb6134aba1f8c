configuration "late_in_module" {}
