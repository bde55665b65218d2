BEGIN { s = "abc"; trace(s["x"]); }
BEGIN { s = "abc"; trace(s[1, 2]); }
