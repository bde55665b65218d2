/* pcap() of the sk_buff a UDP datagram leaves in: its first pcapsize bytes (14, rounded up to 16),
   shown as dtrace-utils shows them without a capture file or tshark: the loopback's Ethernet
   header (zero addresses, type 0x0800) and the IPv4 header's first two bytes. 43 bytes: 14 of
   Ethernet, 20 of IP, 8 of UDP and echo's newline. */
tracepoint:net::net_dev_queue
/pid == $target && args->len == 43/
{
	pcap(args->skbaddr, PCAP_ETHER);
}
