
/// libFuzzer entry for the capture readers: the bytes as a pcap or pcapng file, every record
/// decoded as a TCP segment (a truncated tail allowed, as for a capture still being written).
/// Any crash, hang or sanitizer report is a bug; an error thrown for bad input is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for allowTruncatedTail in [false, true] {
        _ = try? PcapFile.forEachRecord(in: bytes, allowTruncatedTail: allowTruncatedTail) { record in
            _ = PacketDecoder.segment(linkType: record.linkType, data: record.data, timestamp: record.timestamp)
        }
    }
    return 0
}
