#!/usr/bin/python3
"""TCP application protocols from real traffic on loopback, inside a network namespace of its
own (nothing leaves it; every client is bounded in time), one capture per protocol:

  http.pcap  curl to `python3 -m http.server` on TCP 8000 (GET of a file, a 404, HEAD, a POST)
  ssh.pcap   OpenSSH's ssh to sshd on TCP 22 (BatchMode: no key is accepted, so the login fails
             after the banners, both KEXINITs, the key exchange and the first encrypted packets)
  mqtt.pcap  mosquitto_sub and mosquitto_pub through the mosquitto broker on TCP 1883, once
             with -V mqttv311 and once with -V mqttv5 (CONNECT, CONNACK, SUBSCRIBE, SUBACK,
             PUBLISH, PINGREQ/PINGRESP, DISCONNECT)

Each segment holds whole PDUs (loopback's MTU is 64 KiB). The frames are copied byte for byte
into Corpus/captures/<name>.pcap with common.py's timestamps and tshark's oracle (write_capture),
read with TCP reassembly off, segment by segment, as dissect reads them.
The traffic itself (ports, keys, dates) differs from run to run.

    cd scripts/corpus && /usr/bin/python3 tcp-apps.py [http] [ssh] [mqtt]     (as root)
"""
import os
import struct
import subprocess
import sys
import tempfile
import time

from common import write_capture

NS = "dsx-tcpapps"


def ns(*command, **options):
    return subprocess.run(["ip", "netns", "exec", NS, *command], timeout=20, **options)


def background(*command):
    return subprocess.Popen(["ip", "netns", "exec", NS, *command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def read_pcap(path):
    with open(path, "rb") as file:
        data = file.read()
    assert struct.unpack("<I", data[:4])[0] == 0xA1B2C3D4, "little-endian microsecond pcap expected"
    assert struct.unpack("<I", data[20:24])[0] == 1, "Ethernet expected"
    offset, frames = 24, []
    while offset + 16 <= len(data):
        _, _, captured, _ = struct.unpack("<IIII", data[offset:offset + 16])
        frames.append(data[offset + 16:offset + 16 + captured])
        offset += 16 + captured
    return frames


def captured(name, work, port, traffic):
    """Runs traffic() while tcpdump listens on lo for TCP `port`; writes the capture."""
    raw = os.path.join(work, name + ".raw.pcap")
    dump = background("tcpdump", "-U", "-i", "lo", "-w", raw, f"tcp port {port}")
    time.sleep(1)
    try:
        traffic()
        time.sleep(1)
    finally:
        dump.terminate()
        dump.wait(timeout=10)
    write_capture(name, 1, read_pcap(raw), ("-o", "tcp.desegment_tcp_streams:FALSE"))


def http(work):
    www = os.path.join(work, "www")
    os.makedirs(www)
    with open(os.path.join(www, "index.html"), "w") as file:
        file.write("<html><body>hello from the corpus</body></html>\n")
    server = background("python3", "-m", "http.server", "8000", "--bind", "127.0.0.1", "--directory", www)
    time.sleep(1.5)
    curl = ["curl", "-s", "-o", "/dev/null", "--max-time", "5"]

    def traffic():
        ns(*curl, "http://127.0.0.1:8000/index.html")
        ns(*curl, "http://127.0.0.1:8000/missing")
        ns(*curl, "-I", "http://127.0.0.1:8000/index.html")
        ns(*curl, "-d", "name=value", "http://127.0.0.1:8000/form")
    try:
        captured("http", work, 8000, traffic)
    finally:
        server.terminate()


def ssh(work):
    key = os.path.join(work, "host_key")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    os.makedirs("/run/sshd", exist_ok=True)
    server = background("/usr/sbin/sshd", "-D", "-p", "22", "-h", key, "-o", "ListenAddress=127.0.0.1",
                        "-o", "PidFile=" + os.path.join(work, "sshd.pid"))
    time.sleep(1.5)

    def traffic():
        ns("ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
           "-o", "ConnectTimeout=5", "-i", "/dev/null", "nobody@127.0.0.1", "true",
           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        captured("ssh", work, 22, traffic)
    finally:
        server.terminate()


def mqtt(work):
    config = os.path.join(work, "mosquitto.conf")
    with open(config, "w") as file:
        file.write("listener 1883 127.0.0.1\nallow_anonymous true\n")
    broker = background("mosquitto", "-c", config)
    time.sleep(1.5)

    def session(version, topic, message):
        # The subscriber stays (keep alive 5 s, so it pings) until it has the message, at most 10 s.
        sub = background("mosquitto_sub", "-V", version, "-h", "127.0.0.1", "-t", topic, "-C", "1", "-W", "10",
                         "-k", "5", "-q", "1", "-i", "sub-" + version)
        time.sleep(6)
        ns("mosquitto_pub", "-V", version, "-h", "127.0.0.1", "-t", topic, "-m", message, "-q", "1",
           "-i", "pub-" + version, *(["-D", "publish", "content-type", "text/plain"] if version == "mqttv5" else []))
        sub.wait(timeout=15)

    def traffic():
        session("mqttv311", "sensors/temp", "21.5")
        session("mqttv5", "sensors/humidity", "40")
    try:
        captured("mqtt", work, 1883, traffic)
    finally:
        broker.terminate()


def main():
    wanted = sys.argv[1:] or ["http", "ssh", "mqtt"]
    subprocess.run(["ip", "netns", "add", NS], check=True)
    try:
        ns("ip", "link", "set", "lo", "up", check=True)
        with tempfile.TemporaryDirectory() as work:
            for name in wanted:
                {"http": http, "ssh": ssh, "mqtt": mqtt}[name](work)
                time.sleep(0.5)
    finally:
        subprocess.run(["ip", "netns", "del", NS])


main()
