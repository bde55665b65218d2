/* pcap() of a NULL sk_buff captures nothing, as in dtrace-utils; the link types are pcap.d's. */
#pragma D option quiet

BEGIN
{
	pcap(0, PCAP_IP);
	pcap(NULL, PCAP_ETHER);
	printf("%d %d %d %d %d %d\n", PCAP_NULL, PCAP_ETHER, PCAP_WIFI, PCAP_PPP, PCAP_IP, PCAP_IPOIB);
	exit(0);
}
