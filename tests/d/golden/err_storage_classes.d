self this int x;
this self int y;
