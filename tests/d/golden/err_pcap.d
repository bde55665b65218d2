struct { int a; } arg;
BEGIN { pcap(arg, 0); }
BEGIN { pcap(0, "a"); }
BEGIN { pcap(); }
BEGIN { pcap(0); }
BEGIN { pcap(1, 2, 3); }
