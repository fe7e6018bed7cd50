// A library with nothing in it: what the second thread of the dlopen mode loads.
int nl_other(void) { return 42; }
