configuration "subconf" {}
