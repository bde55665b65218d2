int x[int, void];
