int y = 3;
BEGIN { trace(z); }
