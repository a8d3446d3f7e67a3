#ifndef DISSECT_CPCAP_SHIM_H
#define DISSECT_CPCAP_SHIM_H
#include <pcap/pcap.h>
#endif
