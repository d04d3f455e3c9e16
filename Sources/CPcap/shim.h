#include <pcap/pcap.h>
#include <linux/filter.h>
