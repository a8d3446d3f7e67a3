#!/usr/bin/env python3
# A gRPC server and client for scripts/capture-remote.sh (grpcio, over cleartext HTTP/2), with no
# generated code: the service's handlers take and return protobuf messages encoded by hand (a
# generic handler with identity serializers), so the bytes on the wire are what any gRPC
# implementation sends for them: unary calls (one that succeeds, one that fails with a status)
# and a server-streaming call.
#   python3 grpc-pair.py server PORT LIFETIME | client PORT
import sys, time
from concurrent import futures
import grpc

def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)

def field_string(number, text):
    data = text.encode()
    return varint(number << 3 | 2) + varint(len(data)) + data

def field_int(number, value):
    return varint(number << 3 | 0) + varint(value)

def parse_name(request):
    # field 1 (length-delimited): the name
    if len(request) > 2 and request[0] == 0x0A:
        return request[2:2 + request[1]].decode()
    return "?"

def say_hello(request, context):
    return field_string(1, "Hello, " + parse_name(request)) + field_int(2, 42)

def fail(request, context):
    context.abort(grpc.StatusCode.NOT_FOUND, "no such greeting: " + parse_name(request))

def count(request, context):
    for i in range(3):
        yield field_int(1, i) + field_string(2, "item %d" % i)

def server(port, lifetime):
    identity = lambda b: b
    handlers = {
        "SayHello": grpc.unary_unary_rpc_method_handler(say_hello, identity, identity),
        "Fail": grpc.unary_unary_rpc_method_handler(fail, identity, identity),
        "Count": grpc.unary_stream_rpc_method_handler(count, identity, identity),
    }
    srv = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    srv.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("corpus.Greeter", handlers),))
    srv.add_insecure_port("127.0.0.1:%d" % port)
    srv.start()
    time.sleep(lifetime)
    srv.stop(0)

def client(port):
    with grpc.insecure_channel("127.0.0.1:%d" % port) as channel:
        hello = channel.unary_unary("/corpus.Greeter/SayHello")
        hello(field_string(1, "dissect"), timeout=5)
        try:
            channel.unary_unary("/corpus.Greeter/Fail")(field_string(1, "nobody"), timeout=5)
        except grpc.RpcError:
            pass
        for _ in channel.unary_stream("/corpus.Greeter/Count")(field_int(1, 3), timeout=5):
            pass

if __name__ == "__main__":
    if sys.argv[1] == "server":
        server(int(sys.argv[2]), float(sys.argv[3]))
    else:
        client(int(sys.argv[2]))
